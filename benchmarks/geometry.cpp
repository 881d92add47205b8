// Geometry: the caches' geometry, inferred from the suite's own sweeps (analysis/cache_geometry.hpp),
// every value with a confidence; the raw sweeps are benchmarks too, for plotting.
//   Geometry/l1/sweep/carveout:C/footprint:F   raw: ld.ca chase, one element per 128 B
//   Geometry/l1/capacity/carveout:C            L1 capacity at the carveout hint C %, hit latency, miss level, replacement
//   Geometry/l1/line                           L1 line: apparent capacity at strides 32, 160, 192, 224, 288 B
//   Geometry/l1/sets_ways                      L1 ways and sets: elements that all hit at power-of-two spacings
//   Geometry/fill/<op>/stride:S                raw: a cold chase of stride S beyond every cache
//   Geometry/fill/<op>                         fill granularities: L1 from L2 (ld.ca), L2 from DRAM (ld.cg)
//   Geometry/l2/sweep/footprint:F              raw: ld.cg chase, one element per 128 B
//   Geometry/l2/capacity                       L2 capacity against the API: each partition by its own SM (two-partition L2s)
//   Geometry/l2/line                           L2 line: apparent capacity at strides 192, 320, 448, 576 against 64 B
//   Geometry/l2/sm_map                         every SM's near and far L2 latency
//   Geometry/l2/slice_map                      every SM x L2 slice hit latency, the additive fit, GPCs
//   Geometry/readonly/capacity                 the read-only path's (ld.global.nc) capacity and hit latency
//   Geometry/readonly/shares_l1                whether ld.nc and ld.ca lines evict each other
//   Geometry/constant/sweep/footprint:F        raw: a constant-memory chase, one element per 64 B
//   Geometry/constant/capacity                 constant cache levels within one 64 KiB bank
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/cache_geometry.hpp"
#include "analysis/l2_slice_map.hpp"
#include "analysis/stats.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/chase_builder.hpp"
#include "fixtures/runners/geometry_runner.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr std::size_t kLine = kGeometryLine;
constexpr int kCarveouts[] = {0, 50, 100};  // % of the unified storage preferred for shared memory

GeometryRunner& runner() { return GeometryRunner::get(); }

// The wall time of one benchmark iteration (searches and fits run many launches of their own).
using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point began) { return std::chrono::duration<double>(Clock::now() - began).count(); }

// --- L1 -----------------------------------------------------------------------------------------

// Capacities: every iteration (so every repetition) of a capacity benchmark measures afresh and
// keeps its result as the latest; the benchmarks that need a capacity as an input (sets/ways,
// the read-only path's sharing, the L1 it lost to a carveout) take the latest one, and measure
// it themselves when no capacity benchmark ran before them (a filtered run).
std::map<int, MeasuredCapacity>& latest_l1_capacities() {
  static std::map<int, MeasuredCapacity> latest;
  return latest;
}

const MeasuredCapacity& remeasure_l1_capacity(std::uint32_t sm, int carveout) {
  return latest_l1_capacities()[carveout] = measure_l1_capacity(sm, carveout);
}

const MeasuredCapacity& l1_capacity(std::uint32_t sm, int carveout) {
  auto& latest = latest_l1_capacities();
  if (auto it = latest.find(carveout); it != latest.end()) return it->second;
  return remeasure_l1_capacity(sm, carveout);
}

void report_capacity(benchmark::State& state, const CapacityResult& r, double noise) {
  state.counters["capacity_bytes"] = double(r.capacity);
  state.counters["onset_bytes"] = double(r.onset);
  state.counters["ways_fit"] = r.ways_fit;
  state.counters["fit_rms_miss_fraction"] = r.fit_rms;
  state.counters["hit_cycles"] = r.hit_cycles;
  if (runner().last_clock_mhz() > 0) {
    state.counters["hit_ns"] = r.hit_cycles * 1e3 / runner().last_clock_mhz();
    state.counters["miss_ns"] = r.miss_cycles * 1e3 / runner().last_clock_mhz();
  }
  state.counters["miss_cycles"] = r.miss_cycles;
  state.counters["miss_penalty_cycles"] = r.miss_cycles - r.hit_cycles;
  state.counters["noise_cycles"] = noise;
  state.counters["next_line_miss_fraction"] = r.next_miss_fraction;
  state.counters["confidence"] = r.confidence;
  state.counters["measurements"] = double(r.points.size());
}

// --counters: which level served a chase of `footprint` bytes at the 128-B stride (a plateau of a
// capacity sweep), by the GPU's counters: hw_<plateau>_level (1 L1 ... 3 DRAM), the shares each
// level served, and the sectors that crossed between the L2 partitions. The chase is replayed
// with 65,536 more warm-up steps and without, and the difference taken: the steps in the
// state the sweep timed, without the warm-up's misses. ld.cg plateaus also report the L2
// partition crossings.
void report_plateau_counters(benchmark::State& state, const std::string& plateau, std::size_t footprint, bool crossings,
                             const std::function<void(std::uint32_t extra_warm_steps)>& chase) {
  if (!hw_counters_enabled() || skipped(state)) return;
  // Each replay is preceded, outside the range, by the chase itself: the footprint written into
  // the buffer and warm in L2, as the sweep measured it (else the first replay reads it from DRAM).
  const auto replay = [&](std::uint32_t extra) {
    return HwReplay{[chase] { chase(0); }, [chase, extra] { chase(extra); }};
  };
  const auto raw = hw_counters_if_enabled(kHwMemory, replay(65536), replay(0));
  if (!raw) return;
  const HwValues d = hw_derived(*raw);
  const std::string p = "hw_" + plateau + "_";
  state.counters[p + "footprint_bytes"] = double(footprint);
  for (const char* k : {"level", "served_l1_pct", "served_l2_pct", "served_dram_pct"})
    if (auto it = d.find(std::string("hw_") + k); it != d.end()) state.counters[p + k] = it->second;
  // Partition crossings of the chase's own L2 sectors (an L1-resident chase asks L2 for almost
  // none, so the share would be of the background's).
  if (crossings)
    if (auto it = d.find("hw_l2_fabric_pct"); it != d.end()) state.counters[p + "l2_fabric_pct"] = it->second;
}

void report_plateau_level(benchmark::State& state, std::uint32_t sm, const std::string& plateau, CacheOp op,
                          int carveout, std::size_t footprint) {
  const auto offsets = stride_offsets(std::max(footprint / kLine, std::size_t(4)) * kLine, kLine);
  const auto warm = std::uint32_t(std::max<std::size_t>(4096, 2 * offsets.size()));
  report_plateau_counters(state, plateau, offsets.size() * kLine, op == CacheOp::cg,
                          [sm, op, offsets, carveout, warm](std::uint32_t extra) {
                            runner().average(sm, op, offsets, carveout, warm + extra);
                          });
}

// The hit plateau at half the onset and the miss plateau at 1.5x the capacity.
void report_plateau_levels(benchmark::State& state, std::uint32_t sm, const CapacityResult& r, CacheOp op,
                           int carveout) {
  if (r.capacity == 0) return;
  report_plateau_level(state, sm, "hit_plateau", op, carveout, r.onset / 2);
  report_plateau_level(state, sm, "miss_plateau", op, carveout, r.capacity * 3 / 2);
}

// replacement_lru_like: 1 LRU-like (LRU, FIFO, PLRU), 0 random-like, -1 undetermined.
void report_replacement(benchmark::State& state, const ReplacementEvidence& e, const std::string& prefix = "") {
  state.counters[prefix + "replacement_lru_like"] = e.policy == "LRU-like" ? 1 : e.policy == "random-like" ? 0 : -1;
  state.counters[prefix + "replacement_miss_fraction_at_1_5x"] = e.miss_fraction_at_1_5x;
  state.counters[prefix + "replacement_confidence"] = e.confidence;
}

// A line inference and the apparent capacities behind it (capacity_at_stride_<S>_bytes).
void report_line(benchmark::State& state, const LineFit& l, std::size_t base_stride, std::size_t base,
                 const std::vector<std::pair<std::size_t, std::size_t>>& apparent) {
  state.counters["line_bytes"] = l.line_bytes;
  state.counters["confidence"] = l.confidence;
  state.counters["capacity_at_stride_" + std::to_string(base_stride) + "_bytes"] = double(base);
  for (const auto& [s, c] : apparent) state.counters["capacity_at_stride_" + std::to_string(s) + "_bytes"] = double(c);
  report_clocks(state, runner().last_clock_mhz());
}

// One raw sweep point: the median latency over kSweepPlacements placements of the chase in the
// buffer (at_placement(k)), with their spread beside it (report_sampled). Near a capacity edge
// the share of lines that hit depends on which pages and L2 slices the chase lands on, so one
// placement alone would move from run to run. runner_clock: the chase runs through the
// GeometryRunner, whose last chase's clock gives the ns (the constant chase has its own kernel).
constexpr int kSweepPlacements = 3;

void sweep_point(benchmark::State& state, const std::function<LatencyAt(int)>& at_placement, std::size_t footprint,
                 bool runner_clock) {
  guarded(state, [&] {
    std::vector<double> samples;
    timed_loop(state, [&] {
      samples.clear();
      for (int k = 0; k < kSweepPlacements; ++k) samples.push_back(at_placement(k)(footprint));
      return median(samples) * kSweepPlacements * GeometryRunner::kTimedSteps /
             (Gpu::current().info().max_sm_clock_mhz * 1e6);
    });
    const double mhz = runner_clock ? runner().last_clock_mhz() : 0.0;
    report_sampled(state, "latency_cycles", samples);
    if (mhz > 0) state.counters["latency_ns"] = median(samples) * 1e3 / mhz;
    state.counters["footprint_bytes"] = double(footprint);
    report_clocks(state, mhz);
  });
}

void l1_sweep(benchmark::State& state, std::uint32_t sm, int carveout, std::size_t footprint) {
  state.counters["carveout_pct"] = carveout;
  sweep_point(
      state, [sm, carveout](int k) { return runner().stride_latency(sm, CacheOp::ca, kLine, carveout, 2.0, k); },
      footprint, true);
}

void l1_capacity_bench(benchmark::State& state, std::uint32_t sm, int carveout) {
  guarded(state, [&] {
    timed_loop(state, [&] {
      const auto began = Clock::now();
      remeasure_l1_capacity(sm, carveout);
      return seconds_since(began);
    });
    const MeasuredCapacity& c = l1_capacity(sm, carveout);
    report_capacity(state, c.r, c.noise);
    report_plateau_levels(state, sm, c.r, CacheOp::ca, carveout);
    state.counters["carveout_pct"] = carveout;
    // The driver applies a carveout from its own list: the shared memory it took, as the L1 the
    // hint cost against the largest L1 (carveout 0).
    if (carveout != 0)
      state.counters["smem_taken_bytes"] = double(l1_capacity(sm, 0).r.capacity) - double(c.r.capacity);
    report_replacement(state, measure_replacement(runner().stride_latency(sm, CacheOp::ca, kLine, carveout, 2.0), c.r,
                                                  kLine, 4 * Gpu::current().info().smem_per_sm_bytes));
    report_clocks(state, runner().last_clock_mhz());
  });
}

void l1_line(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    std::size_t base = 0;
    std::vector<std::pair<std::size_t, std::size_t>> apparent;
    LineFit l;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      l = measure_l1_line(sm, &base, &apparent);
      return seconds_since(began);
    });
    report_line(state, l, 32, base, apparent);
  });
}

void l1_sets_ways(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    const MeasuredCapacity& c = l1_capacity(sm, 0);
    if (c.r.capacity == 0) throw std::runtime_error("no L1 capacity was found to divide into sets");
    const std::size_t lines = c.r.capacity / kLine;
    std::vector<std::pair<std::size_t, std::size_t>> max_hits;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      max_hits.clear();
      for (std::size_t d = kLine; d <= 4096 * kLine; d *= 2) {
        const std::size_t limit = std::min(2 * lines, runner().buffer_bytes() / d - 1);
        const CapacityResult r =
            find_capacity(median_of_runs(runner().spaced_latency(sm, d, 0), 3), 1, limit, 1, c.noise);
        max_hits.emplace_back(d, r.capacity ? r.capacity : limit);
      }
      return seconds_since(began);
    });
    const SetsWays sw = infer_sets_ways(max_hits, c.r.capacity, int(kLine));
    state.counters["ways"] = sw.ways;
    state.counters["sets"] = sw.sets;
    state.counters["confidence"] = sw.confidence;
    for (const auto& [d, n] : max_hits) state.counters["max_hits_at_spacing_" + std::to_string(d)] = double(n);
    if (!sw.note.empty()) note(state, sw.note);
    report_clocks(state, runner().last_clock_mhz());
  });
}

// --- Fill granularity ---------------------------------------------------------------------------

void fill_point(benchmark::State& state, std::uint32_t sm, CacheOp op, std::size_t stride) {
  guarded(state, [&] {
    double v = 0;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      v = cold_chase(sm, op, stride);
      return seconds_since(began);
    });
    state.counters["latency_cycles"] = v;
    state.counters["stride_bytes"] = double(stride);
    report_clocks(state, runner().last_clock_mhz());
  });
}

void fill_fit(benchmark::State& state, std::uint32_t sm, CacheOp op) {
  guarded(state, [&] {
    const bool l1 = op == CacheOp::ca;
    std::vector<std::pair<double, double>> curve;
    double near = 0, far = 0;
    FetchFit f;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      f = measure_fill(sm, op, &curve, &near, &far);
      return seconds_since(began);
    });
    if (l1) {
      state.counters["l1_fill_bytes"] = f.inner_bytes;  // an L1 miss brings this much from L2 (its sector)
      state.counters["l2_hit_in_curve_cycles"] = f.middle_cycles;
    }
    state.counters["l2_fill_bytes"] = f.outer_bytes;  // an L2 miss brings this much from DRAM
    state.counters["near_cycles"] = near;
    state.counters["dram_cycles"] = far;
    state.counters["rms_error_cycles"] = f.rms_error;
    state.counters["confidence"] = f.confidence;
    report_clocks(state, runner().last_clock_mhz());
  });
}

// --- L2 -----------------------------------------------------------------------------------------

// The same for the L2: Geometry/l2/capacity re-measures in every iteration; the line and SM-map
// benchmarks start from the latest levels.
std::optional<L2Levels>& latest_l2_levels() {
  static std::optional<L2Levels> latest;
  return latest;
}

const L2Levels& remeasure_l2_levels(std::uint32_t sm) { return *(latest_l2_levels() = measure_l2_levels(sm)); }

const L2Levels& l2_levels(std::uint32_t sm) {
  return latest_l2_levels() ? *latest_l2_levels() : remeasure_l2_levels(sm);
}

std::optional<L2Partitions>& latest_l2_partitions() {
  static std::optional<L2Partitions> latest;
  return latest;
}

// Where Geometry/l2/line's searches and l2/sm_map's far level start (l2_search_origin): from the
// latest partitions where the L2 has two (measured here when l2/capacity did not run before),
// else from the levels of a search over every line. Geometry/l2/capacity resets it.
std::optional<L2SearchOrigin>& latest_l2_origin() {
  static std::optional<L2SearchOrigin> latest;
  return latest;
}

const L2SearchOrigin& l2_origin(std::uint32_t sm) {
  if (latest_l2_origin()) return *latest_l2_origin();
  if (!latest_l2_partitions()) latest_l2_partitions() = measure_l2_partitions();
  const L2Partitions& parts = *latest_l2_partitions();
  return *(latest_l2_origin() =
               parts.sides.size() == 2 ? l2_search_origin(sm, parts) : l2_search_origin(l2_levels(sm)));
}

void l2_sweep(benchmark::State& state, std::uint32_t sm, std::size_t footprint) {
  sweep_point(
      state, [sm](int k) { return l2_latency(sm, kLine, k); }, footprint, true);
}

// A footprint on a partition's hit plateau: half its onset of misses (half the capacity when
// the transition fit did not run).
std::size_t hit_plateau_footprint(const L2Partition& p) { return (p.fit.onset ? p.fit.onset : p.capacity) / 2; }

// A partition's capacity (the zigzag's), the transition fit beside it, and its latencies, as
// <prefix>_bytes, <prefix>_confidence, ...
void report_partition(benchmark::State& state, const std::string& prefix, const L2Partition& p) {
  state.counters[prefix + "_bytes"] = double(p.capacity);
  state.counters[prefix + "_confidence"] = p.confidence;
  state.counters[prefix + "_sd_bytes"] = p.zigzag.sd_lines * double(kLine);
  state.counters[prefix + "_zigzag_rms_cycles"] = p.zigzag.rms_cycles;
  if (!p.fit.points.empty()) {  // the transition fit ran (not in a quick run)
    state.counters[prefix + "_fit_bytes"] = double(p.fit.capacity);
    state.counters[prefix + "_fit_confidence"] = p.fit.confidence;
    state.counters[prefix + "_onset_bytes"] = double(p.fit.onset);
    state.counters[prefix + "_ways_fit"] = p.fit.ways_fit;
  }
  state.counters[prefix + "_hit_cycles"] = p.fit.hit_cycles;
  state.counters[prefix + "_dram_cycles"] = p.zigzag.miss_cycles;
  state.counters[prefix + "_noise_cycles"] = p.noise;
  state.counters[prefix + "_sm"] = p.sm;
  report_replacement(state, p.replacement, prefix + "_");
}

// With --counters: the L2 slices and DRAM channels that carry data (measure_unit_census) and the
// API's L2 less the slices of disabled channels, which hold nothing; the capacity against it.
void report_unit_census(benchmark::State& state, double capacity, double api) {
  if (!hw_counters_enabled()) return;
  std::string why;
  const std::optional<UnitCensus> c = measure_unit_census(&why);
  if (!c) {
    note(state, "no census of the L2 slices: " + why);
    return;
  }
  const double enabled = api * c->dram_enabled_share();
  state.counters["l2_slices"] = c->l2_slices;
  state.counters["dram_channels"] = c->dram_channels;
  state.counters["dram_full_channels"] = c->dram_full_channels;
  state.counters["api_l2_enabled_bytes"] = enabled;
  state.counters["capacity_vs_api_enabled"] = capacity / enabled;
  state.counters["capacity_per_slice_bytes"] = capacity / c->l2_slices;
}

// On a two-partition L2, each partition by one of its own SMs over the lines it homes
// (measure_l2_partitions, without the transition fit in a quick run); the L2 is their sum.
// Otherwise the whole-L2 chase's levels.
void l2_capacity(benchmark::State& state, std::uint32_t sm, bool quick) {
  guarded(state, [&] {
    timed_loop(state, [&] {
      const auto began = Clock::now();
      latest_l2_partitions() = measure_l2_partitions(quick);
      latest_l2_origin().reset();
      if (latest_l2_partitions()->sides.size() != 2) remeasure_l2_levels(sm);
      return seconds_since(began);
    });
    const L2Partitions& parts = *latest_l2_partitions();
    const double api = double(Gpu::current().info().l2_bytes);
    state.counters["api_l2_bytes"] = api;
    if (parts.sides.size() == 2) {
      const L2Partition& near = parts.sides[0];
      const L2Partition& far = parts.sides[1];
      const double whole = double(parts.capacity());
      state.counters["capacity_bytes"] = whole;
      if (!quick) state.counters["capacity_onset_bytes"] = double(near.fit.onset + far.fit.onset);
      state.counters["capacity_vs_api"] = whole / api;
      state.counters["capacity_confidence"] = parts.confidence();
      state.counters["partitions"] = 2;
      // "near": the partition of the SM that probed the line map (the reference SM).
      report_partition(state, "near_partition", near);
      report_partition(state, "far_partition", far);
      state.counters["near_partition_fraction"] = double(near.capacity) / whole;
      state.counters["near_partition_homed_line_share"] = parts.homed_fraction;
      report_replacement(state, near.replacement);
      state.counters["partition_map_separation"] = parts.probe_separation;
      state.counters["near_hit_cycles"] = near.fit.hit_cycles;
      state.counters["dram_cycles"] = near.zigzag.miss_cycles;
      if (!quick) state.counters["measurements"] = double(near.fit.points.size() + far.fit.points.size());
      // Both partitions' hit plateaus (each chased by its own SM: no crossing) and DRAM beyond the first.
      const auto plateau = [&](const std::string& name, int side, std::size_t footprint) {
        footprint = std::max(footprint / kLine, std::size_t(4)) * kLine;
        report_plateau_counters(state, name, footprint, true,
                                [side, footprint](std::uint32_t extra) { l2_partition_chase(side, footprint, extra); });
      };
      plateau("near_plateau", 0, hit_plateau_footprint(near));
      plateau("far_partition_plateau", 1, hit_plateau_footprint(far));
      plateau("dram_plateau", 0, near.capacity * 3 / 2);
      report_unit_census(state, whole, api);
    } else {
      state.counters["partitions"] = 1;
      note(state, "one search over every line: " + parts.why_not);
      const L2Levels& l = l2_levels(sm);
      if (l.levels.empty()) throw std::runtime_error("no L2 level found below 4x the L2 size");
      const CapacityResult& whole = l.levels.back();
      state.counters["capacity_bytes"] = double(whole.capacity);
      state.counters["capacity_onset_bytes"] = double(whole.onset);
      state.counters["capacity_ways_fit"] = whole.ways_fit;
      state.counters["capacity_vs_api"] = double(whole.capacity) / api;
      state.counters["capacity_confidence"] = whole.confidence;
      state.counters["levels"] = double(l.levels.size());
      state.counters["near_hit_cycles"] = l.levels.front().hit_cycles;
      state.counters["dram_cycles"] = whole.miss_cycles;
      state.counters["measurements"] = double(whole.points.size());
      report_replacement(state,
                         measure_replacement(l2_latency(sm, kLine), whole, kLine, 4 * Gpu::current().info().l2_bytes));
      report_plateau_level(state, sm, "hit_plateau", CacheOp::cg, 0, whole.onset / 2);
      report_plateau_level(state, sm, "dram_plateau", CacheOp::cg, 0, whole.capacity * 3 / 2);
      report_unit_census(state, double(whole.capacity), api);
    }
    report_clocks(state, runner().last_clock_mhz());
  });
}

void l2_line(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    const L2SearchOrigin& origin = l2_origin(sm);
    const std::size_t limit = 4 * Gpu::current().info().l2_bytes;
    std::size_t base = 0;
    std::vector<std::pair<std::size_t, std::size_t>> apparent;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      // Each search starts on the whole L2's hit plateau, past any nearer level (l2_origin).
      const auto search = [&](std::size_t stride) {
        const std::size_t start = origin.whole_start / stride * stride;
        return find_capacity(l2_latency(sm, stride), start, limit - limit % stride, stride, origin.whole_noise,
                             kTransitionPoints, 0)
            .capacity;
      };
      base = search(64);
      apparent.clear();
      // Odd multiples of 64 B: lines of 128 or 256 B both show their growth in some of them.
      for (std::size_t s : {192, 320, 448, 576}) apparent.emplace_back(s, search(s));
      return seconds_since(began);
    });
    report_line(state, infer_line_bytes(64, base, apparent), 64, base, apparent);
  });
}

void l2_sm_map(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    const L2SearchOrigin& origin = l2_origin(sm);
    if (origin.levels < 2) throw std::runtime_error("one L2 level only: no near and far latency to map");
    const int sms = Gpu::current().info().sm_count;
    // Near: a footprint well inside the near level, every SM at once (read-only, no interference
    // worth a cycle). Far: the middle of the far plateau (geometric mean of the two capacities),
    // one SM at a time (each SM's warm-up sets the L2 state it sees).
    const auto near_offsets = stride_offsets(std::size_t(1) << 20, kLine);
    const std::size_t far_bytes =
        std::size_t(std::sqrt(double(origin.near_capacity) * double(origin.whole_capacity))) / kLine * kLine;
    const auto far_offsets = stride_offsets(far_bytes, kLine);
    std::vector<double> near, far(std::size_t(sms), 0.0);
    timed_loop(state, [&] {
      const auto began = Clock::now();
      near = runner().average_per_sm(CacheOp::cg, near_offsets, 2 * std::uint32_t(near_offsets.size()), -1);
      for (int s = 0; s < sms; ++s)
        far[std::size_t(s)] =
            runner().average_per_sm(CacheOp::cg, far_offsets, l2_warm_steps(far_offsets.size()), s)[std::size_t(s)];
      return seconds_since(began);
    });
    const auto summary = [&](const std::vector<double>& v, const std::string& name) {
      std::vector<double> ran;
      for (double x : v)
        if (x > 0) ran.push_back(x);
      if (ran.empty()) return;
      state.counters[name + "_median_cycles"] = median(ran);
      state.counters[name + "_min_cycles"] = *std::min_element(ran.begin(), ran.end());
      state.counters[name + "_max_cycles"] = *std::max_element(ran.begin(), ran.end());
      state.counters[name + "_sms"] = double(ran.size());
    };
    summary(near, "near");
    summary(far, "far");
    char key[48];
    for (int s = 0; s < sms; ++s) {
      std::snprintf(key, sizeof key, "sm%03d_near_cycles", s);
      state.counters[key] = near[std::size_t(s)];
      std::snprintf(key, sizeof key, "sm%03d_far_cycles", s);
      state.counters[key] = far[std::size_t(s)];
    }
    state.counters["far_footprint_bytes"] = double(far_bytes);
    report_clocks(state, runner().last_clock_mhz());
  });
}

// Every SM's L2 hit latency to every line of kSliceMapLines lines (line_latency_every_sm, twice:
// their difference is the map's noise), the lines grouped into the slices that hold them, an
// additive model (SM term + slice term) fitted, and the SMs grouped into GPCs by the clusters
// they share (analysis/l2_slice_map.hpp). Figures are a chain's cycles: the map less its offset
// against a chain over the same lines from the reference SM (repeating one line costs a constant
// more). ARCHBENCH_L2_MAP_CSV=PATH writes the SM x slice matrix; scripts/plot_geometry.py draws it.
constexpr std::uint32_t kSliceMapLines = 8192;

void write_l2_map_csv(const L2SliceMap& m, const GpcGroups& gpcs, double offset) {
  const char* path = std::getenv("ARCHBENCH_L2_MAP_CSV");
  if (!path || !*path) return;
  std::FILE* f = std::fopen(path, "w");
  if (!f) throw std::runtime_error(std::string("ARCHBENCH_L2_MAP_CSV: cannot write ") + path);
  std::fprintf(f, "sm,side,gpc,sm_term_cycles");
  for (std::size_t g = 0; g < m.groups; ++g) std::fprintf(f, ",slice%03zu", g);
  std::fprintf(f, "\nlines,,,");
  for (std::size_t g = 0; g < m.groups; ++g) std::fprintf(f, ",%zu", m.group_lines[g]);
  for (std::size_t s = 0; s < m.sms; ++s) {
    if (m.sm_side[s] < 0) continue;  // no block reached this SM
    std::fprintf(f, "\n%zu,%d,%d,%.2f", s, m.sm_side[s], gpcs.gpc[s], m.sm_term[s]);
    for (double c : m.cycles[s]) std::fprintf(f, ",%.2f", c - offset);
  }
  std::fprintf(f, "\n");
  std::fclose(f);
}

void l2_slice_map(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    const GpuInfo& g = Gpu::current().info();
    const std::size_t sms = std::size_t(g.sm_count);
    const std::vector<std::uint64_t> offsets = stride_offsets(std::size_t(kSliceMapLines) * kLine, kLine);
    DeviceBuffer<std::uint8_t> region(std::size_t(kSliceMapLines) * kLine);
    DeviceBuffer<std::uint64_t> d_offsets(offsets);
    const auto base = reinterpret_cast<std::uint64_t>(region.get());
    std::vector<float> a, b;
    double chain = 0, clock_mhz = 0;
    std::vector<std::vector<std::uint32_t>> clusters, pairs_of_one_block_per_sm;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      a = line_latency_every_sm(line_addresses(base, kSliceMapLines, kLine));
      b = line_latency_every_sm(line_addresses(base, kSliceMapLines, kLine));
      write_offset_chase(region.get(), d_offsets.get(), kSliceMapLines);
      ARCHBENCH_CUDA(cudaDeviceSynchronize());
      constexpr std::uint32_t kTimed = 8192;
      for (const SmChase& r : run_sm_chase(CacheOp::cg, base, 2 * kSliceMapLines, kTimed, int(sm), int(sms)))
        if (r.ran && r.smid == sm) {
          chain = double(r.cycles) / kTimed;
          clock_mhz = effective_clock_mhz(r.cycles, r.ns);  // the clock the maps ran at, near enough
        }
      // Clusters of 16 (where the GPU allows them), 8, 4 and 2 blocks, one block per SM or several,
      // as many clusters as fit and a few fewer: each launch places them anew.
      clusters.clear();
      pairs_of_one_block_per_sm.clear();
      const auto one_per_sm = std::uint32_t(g.smem_per_block_optin_bytes);
      for (int size : {16, 8, 4, 2})
        for (std::uint32_t smem : {one_per_sm, 0u})
          for (int fewer : {0, 1, 2, 3}) {
            const auto lists = run_cluster_sms(size, smem, fewer);
            clusters.insert(clusters.end(), lists.begin(), lists.end());
            if (size == 2 && smem == one_per_sm)
              pairs_of_one_block_per_sm.insert(pairs_of_one_block_per_sm.end(), lists.begin(), lists.end());
          }
      return seconds_since(began);
    });
    // The noise of one map entry: the two maps' difference / sqrt 2, robustly (1.4826 MAD: a few
    // loads held up by a refresh must not widen the radius), over the SMs that ran.
    std::vector<double> diff;
    std::vector<float> map(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      map[i] = (a[i] + b[i]) / 2;
      if (a[i] > 0 && b[i] > 0) diff.push_back(double(a[i]) - b[i]);
    }
    const double mid = median(diff);
    for (double& d : diff) d = std::abs(d - mid);
    const double noise = 1.4826 * median(diff) / std::sqrt(2.0);
    // Lines of one slice differ by the noise of two map entries; a radius of 4 of them (RMS over
    // the SMs) keeps them together and two slices apart that differ by a few cycles from some SMs.
    // A group of fewer than 1/512 of the lines is noise.
    const L2SliceMap m =
        group_l2_slices(map, sms, kSliceMapLines, std::max(1.0, 4 * noise * std::sqrt(2.0)), kSliceMapLines / 512);
    const GpcGroups gpcs = group_gpcs(sms, clusters, 2);
    const TpcPairs tpc = pair_tpcs(sms, pairs_of_one_block_per_sm);
    double own = 0;
    for (std::uint32_t l = 0; l < kSliceMapLines; ++l) own += map[std::size_t(sm) * kSliceMapLines + l];
    const double offset = chain > 0 ? own / kSliceMapLines - chain : 0;
    state.counters["lines"] = kSliceMapLines;
    state.counters["slice_groups"] = double(m.groups);
    state.counters["map_noise_cycles"] = noise;
    state.counters["map_offset_cycles"] = offset;
    state.counters["chain_cycles"] = chain;
    state.counters["min_cycles"] = m.min_cycles - offset;
    state.counters["median_cycles"] = m.median_cycles - offset;
    state.counters["max_cycles"] = m.max_cycles - offset;
    state.counters["nearest_median_cycles"] = m.nearest_median_cycles - offset;
    state.counters["farthest_median_cycles"] = m.farthest_median_cycles - offset;
    state.counters["fit_r_squared"] = m.r_squared;
    state.counters["fit_r_squared_one_side"] = m.r_squared_one_side;
    state.counters["sides"] = double(m.sides);
    state.counters["side_separation"] = m.side_separation;
    state.counters["fit_residual_sd_cycles"] = m.residual_sd_cycles;
    std::vector<double> sm_terms, gpc_terms;
    for (std::size_t s = 0; s < sms; ++s)
      if (m.sm_side[s] >= 0) sm_terms.push_back(m.sm_term[s]);
    state.counters["sm_term_sd_cycles"] = sample_sd(sm_terms);
    std::vector<double> slice_terms;
    for (const auto& side : m.group_term) slice_terms.insert(slice_terms.end(), side.begin(), side.end());
    state.counters["slice_term_sd_cycles"] = sample_sd(slice_terms);
    // How much of the SM term the GPC explains: the sd of the GPCs' mean terms against the SMs'.
    for (std::size_t c = 0; c < gpcs.count; ++c) {
      std::vector<double> t;
      for (std::size_t s = 0; s < sms; ++s)
        if (gpcs.gpc[s] == int(c)) t.push_back(m.sm_term[s]);
      if (!t.empty()) gpc_terms.push_back(mean(t));
    }
    state.counters["gpc_term_sd_cycles"] = sample_sd(gpc_terms);
    state.counters["gpcs"] = double(gpcs.count);
    state.counters["sms_gpc_by_cluster"] = double(gpcs.by_cluster);
    state.counters["sms_gpc_unknown"] = double(gpcs.unknown);
    // TPCs from the clusters of two; how many of them are SMs 2k and 2k+1 (the numbering a
    // reader of %smid assumes).
    std::size_t consecutive = 0;
    for (std::size_t s = 0; s + 1 < sms; s += 2) consecutive += tpc.partner[s] == int(s + 1);
    state.counters["tpc_pairs"] = double(tpc.pairs);
    state.counters["tpc_pairs_2k_2k1"] = double(consecutive);
    state.counters["tpc_conflicts"] = double(tpc.conflicts);
    state.counters["cluster_launch_lists"] = double(clusters.size());
    char key[64];
    for (std::size_t s = 0; s < sms; ++s) {
      std::snprintf(key, sizeof key, "sm%03zu_gpc", s);
      state.counters[key] = gpcs.gpc[s];
      std::snprintf(key, sizeof key, "sm%03zu_term_cycles", s);
      state.counters[key] = m.sm_term[s];
    }
    for (std::size_t s = 0; s < sms; ++s) {
      std::snprintf(key, sizeof key, "sm%03zu_side", s);
      state.counters[key] = m.sm_side[s];
      std::snprintf(key, sizeof key, "sm%03zu_tpc_partner", s);
      state.counters[key] = tpc.partner[s];
    }
    for (std::size_t c = 0; c < m.groups; ++c) {
      for (std::size_t k = 0; k < m.sides; ++k) {
        std::snprintf(key, sizeof key, "slice%03zu_side%zu_term_cycles", c, k);
        state.counters[key] = m.group_term[k][c];
      }
      std::snprintf(key, sizeof key, "slice%03zu_lines", c);
      state.counters[key] = double(m.group_lines[c]);
    }
    write_l2_map_csv(m, gpcs, offset);
    report_clocks(state, clock_mhz);
    // A GPU without cluster launch (before Hopper) gets the map and the model, no GPCs or TPCs.
    note(state,
         clusters.empty()
             ? std::string("no cluster launch on this GPU: GPCs and TPCs unknown (-1)")
             : "GPCs from the clusters they share" +
                   std::string(gpcs.unknown ? "; " + std::to_string(gpcs.unknown) +
                                                  " SMs never shared a cluster beyond their TPC: GPC unknown (-1)"
                                            : ""));
  });
}

// --- Read-only path and constant caches ----------------------------------------------------------

void readonly_capacity(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    MeasuredCapacity c;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      c = measure_l1_capacity(sm, 0, CacheOp::nc);
      return seconds_since(began);
    });
    report_capacity(state, c.r, c.noise);
    report_plateau_levels(state, sm, c.r, CacheOp::nc, 0);
    state.counters["l1_capacity_bytes"] = double(l1_capacity(sm, 0).r.capacity);
    report_clocks(state, runner().last_clock_mhz());
  });
}

void readonly_shares_l1(benchmark::State& state, std::uint32_t sm) {
  guarded(state, [&] {
    const std::size_t l1 = l1_capacity(sm, 0).r.capacity;
    if (l1 == 0) throw std::runtime_error("no L1 capacity to share");
    ReadOnlyShare s;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      s = measure_readonly_sharing(sm, l1);
      return seconds_since(began);
    });
    state.counters["alone_cycles"] = s.alone_cycles;
    state.counters["together_cycles"] = s.together_cycles;
    state.counters["shares_storage"] = s.shares_storage ? 1 : 0;
    state.counters["confidence"] = s.confidence;
    report_clocks(state, runner().last_clock_mhz());
  });
}

constexpr std::size_t kConstStride = 64;

void const_sweep(benchmark::State& state, std::size_t footprint) {
  // One 64 KiB bank, no placements to choose: the samples are repeats.
  sweep_point(
      state, [](int) { return const_latency(kConstStride); }, footprint, false);
}

void const_capacity(benchmark::State& state) {
  guarded(state, [&] {
    std::vector<CapacityResult> levels;
    timed_loop(state, [&] {
      const auto began = Clock::now();
      levels = measure_const_levels(kConstStride);
      return seconds_since(began);
    });
    state.counters["levels"] = double(levels.size());
    state.counters["bank_bytes"] = double(kConstBankBytes);
    for (std::size_t i = 0; i < levels.size(); ++i) {
      const std::string l = "level" + std::to_string(i + 1) + "_";
      state.counters[l + "capacity_bytes"] = double(levels[i].capacity);
      state.counters[l + "onset_bytes"] = double(levels[i].onset);
      state.counters[l + "hit_cycles"] = levels[i].hit_cycles;
      state.counters[l + "miss_cycles"] = levels[i].miss_cycles;
      state.counters[l + "confidence"] = levels[i].confidence;
    }
    if (!levels.empty())
      report_replacement(
          state, measure_replacement(const_latency(kConstStride), levels[0], kConstStride, kConstBankBytes), "level1_");
    if (levels.size() < 2) note(state, "the next level lies beyond one 64 KiB constant bank");
    if (!levels.empty()) declare_primary(state, {value("levels", 0), value("level1_capacity_bytes", 5)});
    report_clocks(state, 0);
  });
}

// --- Registration --------------------------------------------------------------------------------

std::vector<std::size_t> geometric(std::size_t from, std::size_t to, int per_octave) {
  std::vector<std::size_t> out;
  for (double x = double(from); x <= double(to) * 1.0001; x *= std::pow(2.0, 1.0 / per_octave)) {
    const std::size_t f = std::size_t(x) / kLine * kLine;
    if (out.empty() || f != out.back()) out.push_back(f);
  }
  return out;
}

void register_geometry(const SuiteConfig& cfg) {
  const GpuInfo& g = cfg.gpu.info();
  const std::uint32_t sm = cfg.placement.reference_sm;  // where every single-SM chase runs
  const auto on_sm = [sm](void (*body)(benchmark::State&, std::uint32_t)) {
    return [sm, body](benchmark::State& st) { body(st, sm); };
  };
  std::vector<BenchmarkPoint> p;
  const int per_octave = cfg.quick ? 1 : 4;
  for (int c : kCarveouts) {
    if (cfg.quick && c == 50) continue;
    for (std::size_t f : geometric(8 * 1024, 4 * g.smem_per_sm_bytes, per_octave))
      p.push_back({bench_name("Geometry/l1/sweep", {{"carveout", c}, {"footprint", f}}),
                   [sm, c, f](benchmark::State& st) { l1_sweep(st, sm, c, f); }});
    p.push_back({bench_name("Geometry/l1/capacity", {{"carveout", c}}),
                 [sm, c](benchmark::State& st) { l1_capacity_bench(st, sm, c); }});
  }
  if (!cfg.quick) {
    p.push_back({"Geometry/l1/line", on_sm(l1_line)});
    p.push_back({"Geometry/l1/sets_ways", on_sm(l1_sets_ways)});
  }
  for (CacheOp op : {CacheOp::ca, CacheOp::cg}) {
    const std::string name = cache_op_name(op);
    for (std::size_t s : kFillStrides)
      p.push_back({bench_name("Geometry/fill/" + name, {{"stride", s}}),
                   [sm, op, s](benchmark::State& st) { fill_point(st, sm, op, s); }});
    p.push_back({"Geometry/fill/" + name, [sm, op](benchmark::State& st) { fill_fit(st, sm, op); }});
  }
  // A quick run's L2 sweep ends at 2x the L2 (its point at 4x, DRAM, took 1.1 of a quick run's
  // Geometry on an H200; MemLatency's DRAM point is the quick run's DRAM latency).
  for (std::size_t f : geometric(std::size_t(1) << 20, (cfg.quick ? 2 : 4) * g.l2_bytes, cfg.quick ? 1 : 4))
    p.push_back(
        {bench_name("Geometry/l2/sweep", {{"footprint", f}}), [sm, f](benchmark::State& st) { l2_sweep(st, sm, f); }});
  p.push_back({"Geometry/l2/capacity", [sm, quick = cfg.quick](benchmark::State& st) { l2_capacity(st, sm, quick); }});
  if (!cfg.quick) {
    p.push_back({"Geometry/l2/line", on_sm(l2_line)});
    p.push_back({"Geometry/l2/sm_map", on_sm(l2_sm_map)});
    p.push_back({"Geometry/l2/slice_map", on_sm(l2_slice_map)});
  }
  p.push_back({"Geometry/readonly/capacity", on_sm(readonly_capacity)});
  p.push_back({"Geometry/readonly/shares_l1", on_sm(readonly_shares_l1)});
  for (std::size_t f = 256; f <= kConstBankBytes; f *= cfg.quick ? 4 : 2)
    p.push_back(
        {bench_name("Geometry/constant/sweep", {{"footprint", f}}), [f](benchmark::State& st) { const_sweep(st, f); }});
  p.push_back({"Geometry/constant/capacity", const_capacity});
  // Sweeps: latency in cycles; inferences: the values, each with its tolerance (a line, a fill or
  // a count must not move at all; a capacity, the L2 near partition too, may within 5 %).
  register_points("Geometry", p, 1,
                  {{"Geometry/", {lower("latency_cycles")}},
                   {"Geometry/l1/capacity/", {value("capacity_bytes", 5)}},
                   {"Geometry/l1/line", {value("line_bytes", 0)}},
                   {"Geometry/l1/sets_ways", {value("sets", 0), value("ways", 0)}},
                   {"Geometry/fill/ld.ca", {value("l1_fill_bytes", 0), value("l2_fill_bytes", 0)}},
                   {"Geometry/fill/ld.cg", {value("l2_fill_bytes", 0)}},
                   {"Geometry/fill/ld.ca/stride:", {lower("latency_cycles")}},
                   {"Geometry/fill/ld.cg/stride:", {lower("latency_cycles")}},
                   {"Geometry/l2/capacity", {value("capacity_bytes", 5), value("near_partition_bytes", 5)}},
                   {"Geometry/l2/line", {value("line_bytes", 0)}},
                   {"Geometry/l2/sm_map", {lower("near_median_cycles"), lower("far_median_cycles")}},
                   {"Geometry/l2/slice_map", {lower("median_cycles")}},
                   {"Geometry/readonly/capacity", {value("capacity_bytes", 5)}},
                   {"Geometry/readonly/shares_l1", {value("shares_storage", 0)}},
                   {"Geometry/constant/capacity", {value("levels", 0)}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Geometry, archbench::register_geometry);
