// Integrity: the data-integrity screen (docs/acceptance.md, "Integrity"). Each unit for its share of
// the budget (--integrity_seconds, 30 s; --quick 4 s); every value compared with what it must be.
//   Integrity/dram    moving inversions (address-in-address, 0x55555555, 0) over the free DRAM
//   Integrity/ffma    chaotic FFMA chains, identical on every SM, against the host's fused results
//   Integrity/mma     mma.sync FP16 accumulations of integers, exact, against their known sums
//   Integrity/smem    moving inversions over each SM's shared memory, checked by another warp
//   Integrity/l1      an address pattern read through each SM's L1
// An entry's `mismatches_found` lists where the screen found wrong values (the SM and lane, the byte
// or the result, the bits expected and found); accept.py's integrity group fails on any.
// Not in the default run: `--benchmark_filter=Integrity`, or `accept.py --integrity`.
// ARCHBENCH_INTEGRITY_PLANT (tests only) plants bit flips that the screen must name exactly.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "fixtures/harness/entry_fields.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "fixtures/runners/integrity_runner.hpp"

namespace archbench {
namespace {

enum class Unit { dram, compute, onchip };

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

nlohmann::ordered_json mismatch_json(const IntegrityMismatch& m, const std::string& screen) {
  nlohmann::ordered_json j = {{"sm", m.sm}, {"lane", m.lane}, {"warp", m.warp}, {"pass", m.pass}};
  if (screen == "mma") {
    j["tile"] = m.where >> 16;
    j["row"] = (m.where >> 8) & 0xff;
    j["column"] = m.where & 0xff;
  } else if (screen == "ffma") {
    j["result"] = m.where;
  } else {
    j["byte"] = m.where;
  }
  j["expected"] = hex(m.expected);
  j["found"] = hex(m.found);
  j["flipped_bits"] = hex(m.expected ^ m.found);
  return j;
}

void report_screen(benchmark::State& state, const std::string& name, const std::string& screen, Unit unit,
                   const IntegrityResult& r, const GpuInfo& gpu) {
  report_clocks(state, 0);  // the clocks NVML saw right after the screen (no in-kernel clock is read)
  state.counters["screen_seconds"] = r.seconds;
  state.counters["rounds"] = r.rounds;
  state.counters["mismatches"] = static_cast<double>(r.mismatches);
  state.counters["checked_bytes_per_second"] = r.checked_bytes / r.seconds;
  if (r.screened_bytes > 0) state.counters["screened_bytes"] = r.screened_bytes;
  if (unit == Unit::dram) {
    state.counters["bytes_per_second"] = r.traffic_bytes / r.seconds;
    if (gpu.dram_peak_bytes_per_s > 0) state.counters["pct_of_peak"] = 100 * r.traffic_bytes / r.seconds / gpu.dram_peak_bytes_per_s;
  } else {
    state.counters["sms_covered"] = r.sms_covered;
    state.counters["sm_count"] = gpu.sm_count;
  }
  if (unit == Unit::compute) state.counters["checked_flop_per_second"] = r.checked_flop / r.seconds;
  nlohmann::ordered_json found = nlohmann::ordered_json::array();
  for (const IntegrityMismatch& m : r.kept) found.push_back(mismatch_json(m, screen));
  add_entry_fields(name, {{"mismatches_found", found}});
  if (r.mismatches > 0)
    note(state, std::to_string(r.mismatches) + " mismatch(es); the first on SM " + std::to_string(r.kept.front().sm) +
                    ", lane " + std::to_string(r.kept.front().lane));
  else if (unit != Unit::dram && r.sms_covered < gpu.sm_count)
    note(state, "ran on " + std::to_string(r.sms_covered) + " of " + std::to_string(gpu.sm_count) + " SMs");
}

void register_integrity(const SuiteConfig& cfg) {
  const IntegrityPlant plant = parse_integrity_plant(std::getenv("ARCHBENCH_INTEGRITY_PLANT"));
  const double budget = cfg.integrity_seconds;
  const GpuInfo gpu = cfg.gpu.info();
  struct Screen {
    std::string name;
    Unit unit;
    double share;
    std::function<IntegrityResult(double)> run;
  };
  const std::vector<Screen> screens = {
      {"dram", Unit::dram, 0.4, [gpu, plant](double s) { return screen_dram(gpu, s, plant); }},
      {"ffma", Unit::compute, 0.2, [gpu, plant](double s) { return screen_ffma(gpu, s, plant); }},
      {"mma", Unit::compute, 0.2, [gpu, plant](double s) { return screen_mma(gpu, s, plant); }},
      {"smem", Unit::onchip, 0.1, [gpu](double s) { return screen_smem(gpu, s); }},
      {"l1", Unit::onchip, 0.1, [gpu](double s) { return screen_l1(gpu, s); }},
  };
  std::vector<BenchmarkPoint> points;
  for (const Screen& sc : screens) {
    const std::string name = "Integrity/" + sc.name;
    points.push_back({name, [name, sc, budget, gpu](benchmark::State& state) {
                        guarded(state, [&] {
                          IntegrityResult r;
                          timed_loop(state, [&] {
                            r = sc.run(budget * sc.share);
                            return r.seconds;
                          });
                          report_screen(state, name, sc.name, sc.unit, r, gpu);
                        });
                      }});
  }
  register_points("Integrity", points, 1,
                  {{"Integrity/dram", {higher("bytes_per_second")}},
                   {"Integrity/ffma", {higher("checked_flop_per_second")}},
                   {"Integrity/mma", {higher("checked_flop_per_second")}},
                   {"Integrity/smem", {higher("checked_bytes_per_second")}},
                   {"Integrity/l1", {higher("checked_bytes_per_second")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Integrity, archbench::register_integrity);
