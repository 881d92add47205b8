// Bandwidth: L1, L2, DRAM and shared memory, per cache operator, access width and launch shape.
//   Bandwidth/<kind>/<ops>/width:W/footprint:F      footprint sweep on every SM (default shape)
//   Bandwidth/shape/<level>/<kind>/<ops>/width:16/blocks_per_sm:B/warps_per_block:W/sms:S
//                                                   occupancy and SM-count sweeps at one footprint per level
//   Bandwidth/smem/ld.shared/width:W/blocks_per_sm:B/warps_per_block:W
//   Bandwidth/l2/<case>/<ld op>/width:16/footprint:F  L2 reads: private slices, lines homed near or
//                                                   far (L2 partitions), data shared by every SM
//   Bandwidth/tune/DRAM/<kind>/<ops>/dist:D/warps_per_sm:W/unroll:U
//                                                   DRAM shapes: static or dynamic distribution,
//                                                   warps per SM, accesses in flight per thread
//   Bandwidth/reference/DRAM/<kind>/<what>           what users run over the headline's arrays:
//                                                   cudaMemcpyAsync (copy), cudaMemsetAsync and a
//                                                   plain store kernel (write), CUB's DeviceReduce::Sum (read)
//   Bandwidth/headline/<level>/<kind>               the best honest candidate of the level, chosen
//                                                   on this GPU at run time; the label names it and,
//                                                   for DRAM, the best reference and the ratio to it
// <kind>: read, write, copy, rmw. <ops>: the PTX cache operators, e.g. ld.cg, st.cs, ld.cs+st.cs.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/best_candidate.hpp"
#include "analysis/stats.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/bandwidth_runner.hpp"
#include "fixtures/harness/calibrate.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/sweep.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "kernels/bandwidth_reference.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
constexpr std::uint32_t kSmemBytesPerBlock = 32u << 10;

BandwidthRunner& runner() {
  static BandwidthRunner r;
  return r;
}

void report(benchmark::State& state, const std::vector<BwMeasurement>& runs, const BwShape& shape) {
  const BwMeasurement& last = runs.back();
  std::vector<double> per_second, per_clk;
  for (const BwMeasurement& m : runs) {
    per_second.push_back(m.bytes_per_second);
    per_clk.push_back(m.bytes_per_clk_per_sm);
  }
  report_sampled(state, "bytes_per_second", per_second);  // medians, with the launches' spread
  report_sampled(state, "bytes_per_clk_per_sm", per_clk);
  // Per-SM rates (each SM's bytes over its own busy window): the GPU-wide rate of equal static
  // slices is the slowest SM's times the SM count; a dynamic distribution lets fast SMs do more.
  state.counters["bytes_per_clk_per_sm_min"] = median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_min; });
  state.counters["bytes_per_clk_per_sm_median"] =
      median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_median; });
  state.counters["bytes_per_clk_per_sm_max"] = median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_max; });
  state.counters["bytes_in_flight_per_sm"] = last.bytes_in_flight_per_sm;
  if (last.chunk_bytes) state.counters["chunk_bytes"] = last.chunk_bytes;
  if (last.peak_bytes_per_second) {
    state.counters["pct_of_peak"] = median_of(runs, [](const auto& m) { return m.pct_of_peak; });
    state.counters["peak_bytes_per_second"] = median_of(runs, [](const auto& m) { return *m.peak_bytes_per_second; });
  }
  // `level`: the level that served at least 90 % of the bytes by the GPU's counters (--counters),
  // else the one the footprint targets; `level_by_footprint` is always the latter.
  state.counters["level_by_footprint"] = mem_level_value(last.level);
  const auto measured = state.counters.find("hw_level");
  state.counters["level_measured"] = measured != state.counters.end() ? 1 : 0;
  state.counters["level"] = measured != state.counters.end() ? measured->second.value : mem_level_value(last.level);
  if (last.level == MemLevel::dram || last.level == MemLevel::l2_dram)
    declare_primary(state, {higher("bytes_per_second")});
  state.counters["bytes_per_launch"] = last.bytes;
  state.counters["passes"] = last.passes;
  state.counters["blocks_per_sm"] = shape.blocks_per_sm;
  state.counters["warps_per_block"] = shape.warps_per_block;
  state.counters["warps_per_sm"] = last.summary.max_warps_per_sm;
  state.counters["occupancy_pct"] =
      100.0 * last.summary.max_warps_per_sm * 32 / Gpu::current().info().max_threads_per_sm;
  state.counters["sms"] = last.summary.sms_used;
  report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
}

void measure_case(benchmark::State& state, BwCase c) {
  BandwidthRunner& r = runner();
  if (c.shape.sms == 0) c.shape = r.default_shape();
  const std::uint32_t passes = r.calibrate(c);
  const std::vector<BwMeasurement> runs = timed_runs(
      state, [&] { return r.measure(c, passes); },
      [](const BwMeasurement& m) { return m.summary.gpu_window_ns * 1e-9; });
  add_hw_counters(state, kHwMemory, {nullptr, [&] { r.measure(c, passes); }});
  state.counters["footprint_bytes"] = double(c.footprint);
  state.counters["footprint_per_sm_bytes"] = double(c.footprint) / c.shape.sms;
  state.counters["width_bytes"] = c.width;
  state.counters["unroll"] = c.unroll;
  state.counters["dynamic"] = c.dist == BwDist::dynamic_chunks ? 1 : 0;
  report(state, runs, c.shape);
  // With --counters: the share of the bytes read that the L2 slices counted. Data shared by
  // every SM reaches the SMs at more than the slices deliver: part of its sector requests are
  // merged on the way and never reach a slice (0.62 at a third of an H100's L2).
  const auto sectors = state.counters.find("hw_l2_read_sectors");
  if (sectors != state.counters.end() && c.variant.kind == BwKind::read && runs.back().bytes > 0)
    state.counters["l2_slice_read_pct"] = 100.0 * 32.0 * sectors->second.value / runs.back().bytes;
}

void global_bandwidth(benchmark::State& state, BwVariant v, int width, std::size_t footprint, BwShape shape) {
  guarded(state, [&] { measure_case(state, BwCase{v, width, footprint, shape}); });
}

// A DRAM shape's name: "write/st.cs/dist:dynamic/warps_per_sm:2/unroll:4/chunk_kib:64"; in grid
// order, as many blocks per SM as fit: "copy/ld+st/dist:grid/warps_per_block:8/unroll:1".
std::string shape_name(const BwCase& c) {
  const bool grid = c.dist == BwDist::grid_order;
  const bool chunks = c.dist == BwDist::dynamic_chunks || c.dist == BwDist::dynamic_blocks;
  const std::string name =
      bench_name(c.variant.name(), {{"dist", bw_dist_name(c.dist)},
                                    {grid ? "warps_per_block" : "warps_per_sm", c.shape.warps_per_block},
                                    {"unroll", c.unroll}});
  std::string shaped = chunks ? bench_name(name, {{"chunk_kib", c.chunk_bytes / 1024}}) : name;
  if (c.grid_pieces > 1) shaped = bench_name(shaped, {{"pieces", c.grid_pieces}});
  return c.dst_gap_bytes ? bench_name(shaped, {{"dst_gap_kib", *c.dst_gap_bytes >> 10}}) : shaped;
}
// An L2 case's name: "shared/ld.cg".
std::string l2_case_label(const BwCase& c) {
  return std::string(l2_case_name(c.l2)) + "/" + bw_load_name(c.variant.load);
}

struct Candidate {
  std::string name;
  BwCase c;
};

// --- What users run (kernels/bandwidth_reference.cu), over the headline's arrays -------------------

// Each reference's median bytes per second in this process, by kind ("copy") and name: the DRAM
// headline of that kind names the best of them. A headline whose references the filter left out
// measures them itself (reference_rate).
std::map<std::string, std::map<std::string, double>>& reference_rates() {
  static std::map<std::string, std::map<std::string, double>> rates;
  return rates;
}

constexpr double kReferenceTargetNs = 20e6;  // a batch of about 20 ms, as a headline's launch window

int reference_reps(BwReference r, std::size_t array_bytes) {
  const BwReferenceTiming trial = run_bw_reference(r, array_bytes, 1);
  return int(count_for_target(1, trial.seconds * 1e9, kReferenceTargetNs, {1, 1000}));
}

void reference_bandwidth(benchmark::State& state, BwReference r, std::size_t array_bytes) {
  guarded(state, [&] {
    const int reps = reference_reps(r, array_bytes);
    std::vector<double> rates;
    BwReferenceTiming last;
    timed_loop(state, [&] {
      last = run_bw_reference(r, array_bytes, reps);  // throws SelfCheckError on a wrong result
      rates.push_back(last.bytes / last.seconds);
      return last.seconds;
    });
    report_sampled(state, "bytes_per_second", rates);
    const double rate = median(rates);
    reference_rates()[bw_reference_kind(r)][bw_reference_name(r)] = rate;
    const GpuInfo& g = Gpu::current().info();
    if (g.dram_peak_bytes_per_s > 0) {
      state.counters["pct_of_peak"] = 100.0 * rate / g.dram_peak_bytes_per_s;
      state.counters["peak_bytes_per_second"] = g.dram_peak_bytes_per_s;
    }
    state.counters["footprint_bytes"] = double(array_bytes) * (r == BwReference::memcpy_async ? 2 : 1);
    state.counters["bytes_per_launch"] = last.bytes / last.reps;
    state.counters["reps"] = last.reps;
    state.counters["self_checked"] = 1;
    report_clocks(state, 0);
    // Per SM and clock from NVML's SM clock (the operations carry no in-kernel clock).
    const double nvml_mhz = state.counters["nvml_sm_clock_mhz"].value;
    if (nvml_mhz > 0) state.counters["bytes_per_clk_per_sm"] = rate / (g.sm_count * nvml_mhz * 1e6);
    declare_primary(state, {higher("bytes_per_second")});
  });
}

// The best reference of a kind, measured here where the filter left its rows out.
std::pair<std::string, double> best_reference(const std::string& kind, std::size_t array_bytes) {
  auto& rates = reference_rates()[kind];
  for (BwReference r : kBwReferences)
    if (bw_reference_kind(r) == kind && rates.find(bw_reference_name(r)) == rates.end()) {
      const BwReferenceTiming t = run_bw_reference(r, array_bytes, reference_reps(r, array_bytes));
      rates[bw_reference_name(r)] = t.bytes / t.seconds;
    }
  std::pair<std::string, double> best{"", 0};
  for (const auto& [name, rate] : rates)
    if (rate > best.second) best = {name, rate};
  return best;
}

// The headlines' choice (analysis/best_candidate.hpp): every candidate once, the 4 best 3 times more.
constexpr std::size_t kFinalists = 4;
constexpr int kFinalRounds = 3;

// A headline's counters and label: how many candidates ran, the runner-up, and `against`.
void report_candidates(benchmark::State& state, const std::vector<std::pair<double, std::string>>& tried,
                       const std::string& why, const std::string& against = "") {
  state.counters["candidates"] = double(tried.size());
  if (tried.size() > 1) state.counters["runner_up_pct"] = 100.0 * tried[1].first / tried[0].first;
  note(state, "best of " + std::to_string(tried.size()) + " " + why + " (the " + std::to_string(std::min(kFinalists, tried.size())) +
                  " best measured " + std::to_string(kFinalRounds) + " times more): " + tried[0].second +
                  (tried.size() > 1 ? "; runner-up " + tried[1].second : "") + against);
}

// The level's headline: one untimed calibration and one measurement of every candidate, then the
// best one measured as any benchmark (its own iterations, counters and clocks), so the reported
// figure is not the maximum of noisy candidates. The label names the candidate and the runner-up.
void headline_bandwidth(benchmark::State& state, const std::vector<Candidate>& candidates, const std::string& why,
                        const std::string& reference_kind = "") {
  guarded(state, [&] {
    BandwidthRunner& r = runner();
    const auto [best, tried] = best_candidate(
        candidates, [&](const Candidate& c) { return r.measure(c.c, r.calibrate(c.c)).bytes_per_second; },
        [](const Candidate& c) { return c.name; }, kFinalists, kFinalRounds);
    measure_case(state, best->c);
    std::string against;
    if (!reference_kind.empty()) {  // DRAM: the best of what users run, over the same arrays
      const auto [name, rate] = best_reference(reference_kind, best->c.footprint);
      if (rate > 0) {
        const double ratio = state.counters["bytes_per_second"].value / rate;
        state.counters["reference_bytes_per_second"] = rate;
        state.counters["vs_reference"] = ratio;
        char text[96];
        std::snprintf(text, sizeof text, "; best reference %s: %.3fx", name.c_str(), ratio);
        against = text;
      }
    }
    report_candidates(state, tried, why, against);
  });
}

// Reads the SM serves itself: shared memory (ld.shared) or the L1 (global loads that hit it), each
// block reading its own kSmemBytesPerBlock again and again.
struct OnChipCase {
  BwLoad op = BwLoad::none;  // none: shared memory; else the global load (ld, ld.ca, ld.nc)
  int width = 16;
  BwShape shape;
  bool l1() const { return op != BwLoad::none; }
  std::string name() const {  // "smem/ld.shared/width:16/...", "l1/ld.ca/width:16/..."
    return bench_name(l1() ? std::string("l1/") + bw_load_name(op) : std::string("smem/ld.shared"),
                      {{"width", width}, {"blocks_per_sm", shape.blocks_per_sm}, {"warps_per_block", shape.warps_per_block}});
  }
};

std::uint32_t calibrate_onchip(const OnChipCase& c) {
  BandwidthRunner& r = runner();
  return c.l1() ? r.calibrate_l1(c.op, c.width, kSmemBytesPerBlock, c.shape)
                : r.calibrate_smem(c.width, kSmemBytesPerBlock, c.shape);
}
BwMeasurement measure_onchip(const OnChipCase& c, std::uint32_t passes) {
  BandwidthRunner& r = runner();
  return c.l1() ? r.measure_l1(c.op, c.width, kSmemBytesPerBlock, c.shape, passes)
                : r.measure_smem(c.width, kSmemBytesPerBlock, c.shape, passes);
}

void measure_onchip_case(benchmark::State& state, const OnChipCase& c) {
  const std::uint32_t passes = calibrate_onchip(c);
  const std::vector<BwMeasurement> runs = timed_runs(
      state, [&] { return measure_onchip(c, passes); }, [](const BwMeasurement& m) { return m.summary.gpu_window_ns * 1e-9; });
  add_hw_counters(state, c.l1() ? kHwMemory : kHwShared, {nullptr, [&] { measure_onchip(c, passes); }});
  state.counters["footprint_per_sm_bytes"] = double(kSmemBytesPerBlock) * c.shape.blocks_per_sm;
  state.counters["width_bytes"] = c.width;
  report(state, runs, c.shape);
}

void onchip_bandwidth(benchmark::State& state, const OnChipCase& c) {
  guarded(state, [&] { measure_onchip_case(state, c); });
}

// The headline of shared memory or the L1, as headline_bandwidth's for the other levels: each
// candidate calibrated and measured once, the best by bytes per clock per SM measured again.
void onchip_headline(benchmark::State& state, const std::vector<OnChipCase>& candidates, const std::string& why) {
  guarded(state, [&] {
    const auto [best, tried] = best_candidate(
        candidates, [](const OnChipCase& c) { return measure_onchip(c, calibrate_onchip(c)).bytes_per_clk_per_sm; },
        [](const OnChipCase& c) { return c.name(); }, kFinalists, kFinalRounds);
    measure_onchip_case(state, *best);
    report_candidates(state, tried, why);
  });
}

void register_bandwidth(const SuiteConfig& cfg) {
  const GpuInfo& g = cfg.gpu.info();
  const std::size_t l2 = g.l2_bytes, smem = g.smem_per_sm_bytes, sms = std::size_t(g.sm_count);
  constexpr std::size_t kAlign = 4096;
  std::vector<BenchmarkPoint> points;

  // Footprint sweep: 8 KiB per SM (L1) to 8x the L2 (DRAM), denser around the L1 edge (the share
  // per SM near the shared memory per SM) and the L2 partition and L2 edges.
  const int edge_points = cfg.dense ? 8 : 4;
  const std::vector<DenseRegion> dense =
      cfg.quick
          ? std::vector<DenseRegion>{}
          : std::vector<DenseRegion>{{smem / 4 * sms, 2 * smem * sms, edge_points}, {l2 / 4, 2 * l2, edge_points}};
  const auto sweep = log_sweep((8u << 10) * sms, 8 * l2, cfg.quick ? 1 : cfg.dense ? 4 : 2, dense, kAlign);
  std::vector<BwVariant> variants;
  for (const BwVariant& v : bw_variants()) {
    const std::string n = v.name();
    if (!cfg.quick || n == "read/ld" || n == "read/ld.cg" || n == "read/ld.na" || n == "write/st" || n == "copy/ld+st")
      variants.push_back(v);
  }
  // No point inside the L2's transition, 0.8x to 1.1x of its capacity in bytes touched
  // (fixtures/harness/sweep.hpp says why); a copy touches two arrays, so its transition is at half the
  // footprint, and it begins earlier, at 0.7x (its writes' dirty lines share the L2: 24.3 against
  // 27.0 B/clk/SM at 0.80x in an A/A pair). Registered footprint by footprint, as before.
  std::vector<std::vector<std::size_t>> footprints_of;
  std::vector<std::size_t> all_footprints;
  for (const BwVariant& v : variants) {
    footprints_of.push_back(
        off_the_cliffs(sweep, {l2 / std::size_t(v.arrays())}, v.arrays() == 2 ? 0.3 : 0.2, 0.1, kAlign));
    all_footprints.insert(all_footprints.end(), footprints_of.back().begin(), footprints_of.back().end());
  }
  std::sort(all_footprints.begin(), all_footprints.end());
  all_footprints.erase(std::unique(all_footprints.begin(), all_footprints.end()), all_footprints.end());
  const std::vector<int> widths =
      cfg.quick ? std::vector<int>{16} : std::vector<int>(std::begin(kBwWidths), std::end(kBwWidths));
  for (std::size_t f : all_footprints)
    for (std::size_t i = 0; i < variants.size(); ++i) {
      if (!std::binary_search(footprints_of[i].begin(), footprints_of[i].end(), f)) continue;
      const BwVariant v = variants[i];
      for (int w : widths)
        points.push_back(
            {bench_name("Bandwidth/" + v.name(), {{"width", w}, {"footprint", f}}), [v, w, f](benchmark::State& st) {
               global_bandwidth(st, v, w, f, BwShape{0, 0, 0});
             }});
    }

  // Launch shapes at one footprint per level (width 16): blocks per SM x warps per block on every
  // SM, then the number of SMs at one block of 32 warps, on n SMs spread over the SM ids
  // (BwLaunch::spread_sms: the same SMs on every board, not the block scheduler's pick).
  struct LevelCase {
    const char* level;
    BwVariant variant;
    std::function<std::size_t(int sms)> footprint;
  };
  const std::vector<LevelCase> levels = {
      {"L1", {BwKind::read, BwLoad::ca, BwStore::none}, [smem](int n) { return smem / 2 * n / kAlign * kAlign; }},
      {"L2", {BwKind::read, BwLoad::cg, BwStore::none}, [l2](int) { return l2 * 7 / 16 / kAlign * kAlign; }},
      {"DRAM", {BwKind::read, BwLoad::def, BwStore::none}, [l2](int) { return 8 * l2; }},
      {"DRAM", {BwKind::read, BwLoad::na, BwStore::none}, [l2](int) { return 8 * l2; }},
      {"DRAM", {BwKind::write, BwLoad::none, BwStore::def}, [l2](int) { return 8 * l2; }},
  };
  std::vector<BwShape> shapes;
  for (int b : {1, 2, 4, 8, 16, 32})
    for (int w : {1, 2, 4, 8, 16, 32})
      if (b * w <= 64 && (!cfg.quick || (b == 1 && w == 32) || (b == 1 && w == 8))) shapes.push_back({b, w, int(sms)});
  for (int n = 1; n < int(sms); n *= 2)
    if (!cfg.quick) shapes.push_back({1, 32, n});
  for (const LevelCase& lc : levels)
    for (const BwShape& s : shapes) {
      const std::size_t f = lc.footprint(s.sms);
      points.push_back({bench_name(std::string("Bandwidth/shape/") + lc.level + "/" + lc.variant.name(),
                                   {{"width", 16},
                                    {"blocks_per_sm", s.blocks_per_sm},
                                    {"warps_per_block", s.warps_per_block},
                                    {"sms", s.sms}}),
                        [lc, s, f](benchmark::State& st) { global_bandwidth(st, lc.variant, 16, f, s); }});
    }

  // L2 reads by whose data the SMs read (fixtures/runners/bandwidth_runner.hpp, L2Case), at a third and
  // a half of the L2: below about half the L2 no read leaks to DRAM (docs/counters.md).
  const std::vector<std::size_t> l2_footprints = {l2 / 3 / kAlign * kAlign, l2 / 2 / kAlign * kAlign};
  const BwShape every_sm{1, 32, int(sms)};
  auto read_of = [](BwLoad op) { return BwVariant{BwKind::read, op, BwStore::none}; };
  for (std::size_t f : l2_footprints)
    for (L2Case c : kL2Cases)
      for (BwLoad op : {BwLoad::cg, BwLoad::nc, BwLoad::ca}) {
        if (cfg.quick && (f != l2_footprints[0] || op != BwLoad::cg)) continue;
        const BwCase bc{read_of(op), 16, f, every_sm, c == L2Case::private_slices ? 4 : 8, BwDist::static_slices, c};
        points.push_back({bench_name(std::string("Bandwidth/l2/") + l2_case_name(c) + "/" + bw_load_name(op),
                                     {{"width", 16}, {"footprint", f}}),
                          [bc](benchmark::State& st) { guarded(st, [&] { measure_case(st, bc); }); }});
      }

  // DRAM shapes, chosen per GPU at run time (no shape tuned on one board is the default): the
  // distribution, warps per SM and accesses in flight per thread, per cache operator. Footprint
  // 8x the L2 (copy: two arrays of 4x), so a window of a few ms includes the write-back of the
  // last launch's dirty lines (steady state: each launch writes back what the previous left).
  // Dynamic claims by warps of 16 and 64 KiB (on an H200, 64 KiB claims write at 92.7 % of the
  // DRAM peak against 90.2 % with 16 KiB; on an H100 both 98.6 %) and by blocks of 128 and 512 KiB.
  struct TuneSet {
    BwVariant variant;
    std::vector<int> warps, unrolls;
  };
  const std::vector<TuneSet> tune_sets = {
      {{BwKind::read, BwLoad::def, BwStore::none}, {16, 32}, {4, 8}},
      {{BwKind::read, BwLoad::cg, BwStore::none}, {16, 32}, {4, 8}},
      {{BwKind::read, BwLoad::nc, BwStore::none}, {16, 32}, {4, 8}},
      {{BwKind::write, BwLoad::none, BwStore::def}, {2, 4, 8, 32}, {2, 4, 8}},
      {{BwKind::write, BwLoad::none, BwStore::cs}, {2, 4, 8, 32}, {2, 4, 8}},
      {{BwKind::write, BwLoad::none, BwStore::cg}, {2, 4, 8, 32}, {2, 4, 8}},
      {{BwKind::copy, BwLoad::def, BwStore::def}, {8, 16, 32}, {4, 8}},
      {{BwKind::copy, BwLoad::cs, BwStore::cs}, {8, 16, 32}, {4, 8}},
      {{BwKind::copy, BwLoad::cg, BwStore::cg}, {8, 16, 32}, {4, 8}},
  };
  std::map<BwKind, std::vector<Candidate>> dram_candidates;
  const std::size_t group_bytes = 32 * 16;  // a warp's 16 B accesses
  for (const TuneSet& t : tune_sets)
    for (BwDist d : {BwDist::static_slices, BwDist::dynamic_chunks, BwDist::dynamic_blocks})
      for (int w : t.warps)
        for (int u : t.unrolls)
          for (std::uint32_t chunk : {16u << 10, 64u << 10, 128u << 10, 512u << 10}) {
            const std::size_t footprint = 8 * l2 / std::size_t(t.variant.arrays()) / (512u << 10) * (512u << 10);
            const bool by_block = d == BwDist::dynamic_blocks;
            // Claims of 16/64 KiB per warp, 128/512 KiB per block (a block of 32 warps at unroll 8
            // reads 128 KiB per step): each where the footprint has 4 per claimer.
            const std::size_t claimers = by_block ? sms : sms * std::size_t(w);
            const std::size_t group = (by_block ? group_bytes * std::size_t(w) : group_bytes) * std::size_t(u);
            if (d == BwDist::static_slices && chunk != (16u << 10)) continue;
            if (d == BwDist::dynamic_chunks && chunk > (64u << 10)) continue;
            if (by_block && chunk < (128u << 10)) continue;
            if (d != BwDist::static_slices &&
                (!enough_chunks_per_claimer(footprint, chunk, claimers) || chunk % group != 0))
              continue;
            BwCase bc{t.variant, 16, footprint, BwShape{1, w, int(sms)}, u, d};
            if (d != BwDist::static_slices) bc.chunk_bytes = chunk;
            BwLaunch probe;
            probe.variant = t.variant;
            probe.unroll = u;
            probe.dist = d;
            if (!bw_has_kernel(probe)) continue;  // block claims: the variants and unrolls of kernels/bandwidth.cu
            dram_candidates[t.variant.kind].push_back({shape_name(bc), bc});
            if (cfg.quick) continue;
            points.push_back({"Bandwidth/tune/DRAM/" + shape_name(bc),
                              [bc](benchmark::State& st) { guarded(st, [&] { measure_case(st, bc); }); }});
          }
  // Grid order, the order of a plain elementwise kernel (1-8 16 B accesses per thread, one
  // block per group, the passes folded into one grid): on H200s it copies at 4.29 TB/s against
  // 4.23 for the best claimed chunks, and writes at 4.70 against 4.63 (PyTorch's copy_ of the same
  // arrays 4.16, gpu-stream's init 4.66). A copy whose loads give the source's lines the L2's
  // evict_last priority: the DRAM busy 90.2-90.7 % of its cycles against 89.2-89.5 %, the same bytes.
  const std::vector<BwVariant> grid_variants = {
      {BwKind::read, BwLoad::nc, BwStore::none},  {BwKind::write, BwLoad::none, BwStore::def},
      {BwKind::write, BwLoad::none, BwStore::cs}, {BwKind::copy, BwLoad::def, BwStore::def},
      {BwKind::copy, BwLoad::cg, BwStore::cg},    {BwKind::copy, BwLoad::evict_last, BwStore::def}};
  // A copy's destination also in one allocation with its source, 0-12 MiB after the source's end
  // (BwCase::dst_gap_bytes), for the copy's best grid shapes (4 and 8 warps, one access each).
  const std::vector<std::size_t> dst_gaps_kib = {0, 2048, 4096, 4160, 6144, 8192, 8256, 12288};
  for (const BwVariant& v : grid_variants)
    for (int w : {4, 8, 32})
      for (int u : {1, 2, 4, 8}) {
        if (u > 2 && v.kind != BwKind::read) continue;  // reads only: more bytes in flight (kernels/bandwidth.cu)
        const std::size_t footprint = 8 * l2 / std::size_t(v.arrays()) / (512u << 10) * (512u << 10);
        std::vector<std::optional<std::size_t>> gaps = {std::nullopt};
        if (v.kind == BwKind::copy && w <= 8 && u == 1)
          for (std::size_t kib : dst_gaps_kib) gaps.push_back(kib << 10);
        // Reads of 2-8 accesses also in 32 pieces of the array at once, a public L2 peer's order
        // (4.733 TB/s of DRAM alone on GPU-bdbd7027 where plain grid order read 4.721; on
        // GPU-46f36d93 it read no faster than plain order: docs/bandwidth.md), and in 128: more
        // windows open at once, each shorter (4.734-4.738 TB/s on GPU-6c1236f9 where 32 pieces read
        // 4.729-4.732; on the -001 part neither beats plain order).
        std::vector<std::uint32_t> pieces = {1};
        if (v.kind == BwKind::read && u >= 2) pieces.insert(pieces.end(), {32, 128});
        for (const auto& gap : gaps)
          for (std::uint32_t p : pieces) {
          BwCase bc{v, 16, footprint, BwShape{1, w, int(sms)}, u, BwDist::grid_order};
          bc.dst_gap_bytes = gap;
          bc.grid_pieces = p;
          dram_candidates[v.kind].push_back({shape_name(bc), bc});
          if (cfg.quick) continue;
          points.push_back({"Bandwidth/tune/DRAM/" + shape_name(bc),
                            [bc](benchmark::State& st) { guarded(st, [&] { measure_case(st, bc); }); }});
        }
      }
  std::vector<Candidate> l2_candidates;
  for (L2Case c : kL2Cases) {
    const BwCase bc{read_of(BwLoad::cg),   16, l2_footprints[0], every_sm, c == L2Case::private_slices ? 4 : 8,
                    BwDist::static_slices, c};
    l2_candidates.push_back({l2_case_label(bc), bc});
  }
  points.push_back({"Bandwidth/headline/L2/read", [l2_candidates](benchmark::State& st) {
                      headline_bandwidth(st, l2_candidates, "ld.cg cases at a third of the L2");
                    }});
  // The references over the headlines' arrays (8x the L2 in all; a copy's two arrays of 4x).
  for (BwReference r : kBwReferences) {
    const std::size_t array = 8 * l2 / (r == BwReference::memcpy_async ? 2 : 1) / (512u << 10) * (512u << 10);
    points.push_back({std::string("Bandwidth/reference/DRAM/") + bw_reference_kind(r) + "/" + bw_reference_name(r),
                      [r, array](benchmark::State& st) { reference_bandwidth(st, r, array); }});
  }
  for (BwKind k : {BwKind::read, BwKind::write, BwKind::copy}) {
    const std::vector<Candidate> cands = dram_candidates[k];
    points.push_back(
        {std::string("Bandwidth/headline/DRAM/") + bw_kind_name(k),
         [cands, k](benchmark::State& st) { headline_bandwidth(st, cands, "DRAM shapes", bw_kind_name(k)); },
         {higher("bytes_per_second")}});
  }

  // Shared memory and the L1, conflict-free, every SM: each block its own 32 KiB.
  std::vector<OnChipCase> smem_candidates, l1_candidates;
  for (BwLoad op : {BwLoad::none, BwLoad::ca, BwLoad::nc})
    for (int w : widths)
      for (BwShape s : std::vector<BwShape>{
               {1, 4, int(sms)}, {1, 8, int(sms)}, {1, 16, int(sms)}, {1, 32, int(sms)}, {2, 16, int(sms)}}) {
        const OnChipCase c{op, w, s};
        (c.l1() ? l1_candidates : smem_candidates).push_back(c);
        if (!cfg.quick || s.warps_per_block == 32)
          points.push_back({"Bandwidth/" + c.name(), [c](benchmark::State& st) { onchip_bandwidth(st, c); }});
      }
  points.push_back({"Bandwidth/headline/smem/read", [smem_candidates](benchmark::State& st) {
                      onchip_headline(st, smem_candidates, "ld.shared shapes");
                    }});
  points.push_back({"Bandwidth/headline/L1/read", [l1_candidates](benchmark::State& st) {
                      onchip_headline(st, l1_candidates, "ld.ca and ld.nc shapes");
                    }});

  // On chip, bytes per clock per SM; a footprint served from DRAM, bytes per second (report()).
  register_points("Bandwidth", points, kIterations, {{"Bandwidth/", {higher("bytes_per_clk_per_sm")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Bandwidth, archbench::register_bandwidth);
