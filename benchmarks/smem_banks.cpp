// SmemBanks: shared-memory bank conflicts, broadcast and multicast.
//   SmemBanks/geometry                                            banks and bank width, inferred
//   SmemBanks/latency/width:W/<pattern>                           one warp, a dependent chain per lane
//   SmemBanks/throughput/width:W/<pattern>/warps_per_sm:N         independent loads, N warps on every SM
// W: access width in bytes (4, 8, 16). <pattern> (analysis/smem_banks.hpp):
//   stride:S                       lane l reads element l x S (elements of W bytes)
//   broadcast                      every lane reads element 0
//   multicast:G/group_stride:S     G consecutive lanes share an element, groups S elements apart
//   permutation                    the lanes read elements 0..31 in a random order
//   random:R                       each lane reads a random element of 0..R-1
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/runners/smem_runner.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
constexpr int kLanes = 32;
constexpr std::uint64_t kSeed = 1;  // permutation and random patterns: the same lanes every run

// What the bank model (the gcd model at 4 B) and its wide-access refinement predict for the
// pattern under the inferred geometry (analysis/smem_banks.hpp).
void report_models(benchmark::State& state, const SmemPattern& p) {
  const BankGeometry& g = bank_geometry().inference.geometry;
  state.counters["model_wavefronts"] = model_wavefronts(g, p);
  state.counters["wide_model_wavefronts"] = wide_model_wavefronts(g, p);
  state.counters["access_bytes"] = p.access_bytes;
}

// The measured cost in wavefronts of the inferred geometry, and against each model.
void report_conflicts(benchmark::State& state, const SmemPattern& p, double cycles_per_access) {
  const BankGeometryResult& r = bank_geometry();
  const double ways = cycles_per_access / r.inference.cycles_per_wavefront;
  state.counters["conflict_ways"] = ways;
  state.counters["slowdown_vs_model"] = ways / model_wavefronts(r.inference.geometry, p);
  state.counters["slowdown_vs_wide_model"] = ways / wide_model_wavefronts(r.inference.geometry, p);
  report_models(state, p);
}

void geometry(benchmark::State& state) {
  guarded(state, [&] {
    timed_loop(state, [&] {
      // The sweep runs once per process (bank_geometry() caches it); every iteration reports
      // what the sweep took.
      return bank_geometry().sweep_seconds;
    });
    const BankGeometryResult& g = bank_geometry();
    const BankInference& r = g.inference;
    state.counters["banks"] = r.geometry.banks;
    state.counters["bank_width_bytes"] = r.geometry.bank_bytes;
    state.counters["confidence"] = r.confidence;
    state.counters["cycles_per_wavefront"] = r.cycles_per_wavefront;
    state.counters["rms_log_error"] = r.rms_log_error;
    state.counters["runner_up_banks"] = r.runner_up.banks;
    state.counters["runner_up_bank_width_bytes"] = r.runner_up.bank_bytes;
    state.counters["runner_up_rms_log_error"] = r.runner_up_rms_log_error;
    state.counters["strides_measured"] = double(g.observations.size());
    // n-way scaling: measured / (model ways x cycles per wavefront) over every stride; 1 when an
    // n-way conflict costs exactly n times.
    double worst_low = 1e9, worst_high = 0;
    for (const BankObservation& o : g.observations) {
      const double ratio = o.cycles_per_access / (r.cycles_per_wavefront * model_wavefronts(r.geometry, o.pattern));
      worst_low = std::min(worst_low, ratio);
      worst_high = std::max(worst_high, ratio);
    }
    state.counters["nway_cost_ratio_min"] = worst_low;
    state.counters["nway_cost_ratio_max"] = worst_high;
    report_clocks(state, g.sm_clock_mhz);
  });
}

void latency(benchmark::State& state, const SmemPattern& p) {
  guarded(state, [&] {
    const std::uint32_t steps = calibrate_bank_latency_steps(p);
    // throws SelfCheckError if a lane lost its chain
    const std::vector<BankLatency> runs = timed_runs(
        state, [&] { return measure_bank_latency(p, steps); }, [](const BankLatency& m) { return m.window_ns * 1e-9; });
    const double cycles = median_of(runs, [](const auto& m) { return m.cycles_per_access; });
    state.counters["latency_cycles"] = cycles;
    state.counters["latency_ns"] = median_of(runs, [](const auto& m) { return m.ns_per_access; });
    add_hw_counters(state, kHwShared, {nullptr, [&] { measure_bank_latency(p, steps); }});
    state.counters["steps"] = steps;
    state.counters["smid"] = runs.back().smid;
    state.counters["self_checked"] = 1;
    report_models(state, p);
    report_clocks(state, median_of(runs, [](const auto& m) { return m.sm_clock_mhz; }));
  });
}

void throughput(benchmark::State& state, const SmemPattern& p, int warps_per_sm) {
  guarded(state, [&] {
    const std::uint32_t iterations = calibrate_bank_throughput_iterations(p, warps_per_sm);
    const std::vector<BankThroughput> runs = timed_runs(
        state, [&] { return measure_bank_throughput(p, warps_per_sm, iterations); },
        [](const BankThroughput& m) { return m.summary.gpu_window_ns * 1e-9; });
    const double cycles = median_of(runs, [](const auto& m) { return m.cycles_per_access; });
    state.counters["cycles_per_access"] = cycles;
    state.counters["bytes_per_clk_per_sm"] = median_of(runs, [](const auto& m) { return m.bytes_per_clk_per_sm; });
    state.counters["bytes_per_second"] = median_of(runs, [](const auto& m) { return m.bytes_per_second; });
    state.counters["warps_per_sm"] = runs.back().summary.max_warps_per_sm;
    state.counters["sms"] = runs.back().summary.sms_used;
    add_hw_counters(state, kHwShared, {nullptr, [&] { measure_bank_throughput(p, warps_per_sm, iterations); }});
    state.counters["iterations"] = iterations;
    state.counters["self_checked"] = 1;
    report_conflicts(state, p, cycles);
    report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
  });
}

std::vector<SmemPattern> patterns(int width, bool quick) {
  std::vector<SmemPattern> out;
  const std::vector<int> strides = quick ? std::vector<int>{1, 2, 4, 8, 32} : [] {
    std::vector<int> all;
    for (int s = 1; s <= 64; ++s) all.push_back(s);
    return all;
  }();
  for (int s : strides) out.push_back(stride_pattern(width, s, kLanes));
  out.push_back(broadcast_pattern(width, kLanes));
  for (int group : quick ? std::vector<int>{4} : std::vector<int>{2, 4, 8, 16})
    for (int group_stride : {1, 32}) out.push_back(multicast_pattern(width, group, group_stride, kLanes));
  out.push_back(permutation_pattern(width, kLanes, kSeed));
  out.push_back(random_pattern(width, 1024, kLanes, kSeed));
  return out;
}

void register_smem_banks(const SuiteConfig& cfg) {
  std::vector<BenchmarkPoint> points;
  points.push_back({"SmemBanks/geometry", [](benchmark::State& st) { geometry(st); }});
  const std::vector<int> warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 32};
  for (int width : {4, 8, 16})
    for (const SmemPattern& p : patterns(width, cfg.quick)) {
      const std::string pattern = bench_name("", {{"width", width}}) + "/" + p.name;
      points.push_back({"SmemBanks/latency" + pattern, [p](benchmark::State& st) { latency(st, p); }});
      for (int w : warps)
        points.push_back({bench_name("SmemBanks/throughput" + pattern, {{"warps_per_sm", w}}),
                          [p, w](benchmark::State& st) { throughput(st, p, w); }});
    }
  register_points("SmemBanks", points, kIterations,
                  {{"SmemBanks/latency/", {lower("latency_cycles")}},
                   {"SmemBanks/throughput/", {lower("cycles_per_access")}},
                   {"SmemBanks/geometry", {value("banks", 0), value("bank_width_bytes", 0)}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(SmemBanks, archbench::register_smem_banks);
