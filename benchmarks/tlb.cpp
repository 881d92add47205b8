// Tlb: address translation, measured as the latency of a chase with one element per stride.
//   Tlb/latency/<op>/mapping:M/stride:S/footprint:F    one thread, a pointer chase over F / S elements
//   Tlb/geometry/<op>/mapping:M                        page size, levels, reach, entries, miss penalties
// <op>: ld.ca (lines in L1: at most an eighth of its lines) or ld.cg (lines in L2: up to 64 Ki elements,
// 90 % of the free memory). M: scattered (every mapping granule backed by a physical allocation
// of its own, in shuffled order) or contiguous (one cudaMalloc); fixtures/runners/scattered_buffer.hpp
// says why both. S: 64 KiB ... 4 GiB. Tlb/geometry runs after the points and infers from the
// curves they measured (measuring any the filter left out; analysis/tlb.hpp says how).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analysis/placement.hpp"
#include "analysis/tlb.hpp"
#include "kernels/shared/cuda_check.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/placement.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/runners/tlb_runner.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
constexpr int kMaxLevels = 4;
// The inference leaves out chases of fewer lines: their mean latency depends on which L2
// partition homes each of the few lines (+-15 cycles between footprints), not on translation.
constexpr std::size_t kMinElementsForLevels = 32;

std::string probe_name(const TlbProbe& probe) {
  return bench_name(cache_op_name(probe.op), {{"mapping", tlb_mapping_name(probe.mapping)}});
}

// Every launch chases on one SM chosen for the walk: a page walk's cost depends on where the SM
// sits against the MMU and the L2 partition that homes the page-table entries, and not along
// its L2 latency. With managed memory (8 GiB at 2 MiB strides) twelve SMs of one H100 read
// 377-457 cycles (SM 53 twice 432.0 and 432.4), so neither SM 0 nor the SM of median L2 latency is
// one place on every board. The SM of median walk alone read the managed walk 1.5 % apart on
// two boards but L2-bound chases 2.2 % apart (its L2 latency is not the median), so the walk SM
// is the SM typical of both (analysis/placement.hpp, typical_sm), probed once per process.

// A chase of fewer than kMinElementsForLevels lines reads the L2 homes of those few lines as much
// as the translation: two lines at a 64 KiB stride read 299 cycles on one H100 and 267 on another,
// on the same SM. Each launch of such a chase is the mean over enough placements of the chain
// (the same pages, lines 640 B further on each time) to hold kMinElementsForLevels lines.
// An ld.cg chase of at most kTlbPlacedMaxElements lines is placed by the L2 map instead, each line
// at the GPU's median L2 latency (TlbRunner::measure): one placement.
int placements_for(const TlbProbe& probe, std::uint64_t elements) {
  if (probe.op == CacheOp::cg && elements <= kTlbPlacedMaxElements) return 1;
  return elements >= kMinElementsForLevels ? 1 : int((kMinElementsForLevels + elements - 1) / elements);
}
constexpr std::size_t kPlacementStep = 5 * 128;
static_assert(kPlacementStep * kMinElementsForLevels / 2 < kTlbMaxPlacement, "placements leave the pages");

TlbLatency chase_on(TlbRunner& runner, const TlbProbe& probe, const TlbPoint& p, std::uint32_t sm,
                    double place_at_cycles);

// Where the map places short ld.cg chases: the GPU's median SM's L2 latency (the run's placement
// measured it), so that the walk SM's place among SMs does not move the curve by board.
double place_at(const Placement& placement) { return placement.measured.median_cycles; }

// Every SM's walk latency from the probe (indexed by SM; empty until probed or where it failed),
// reported beside the geometry: which SM was chosen out of what.
std::vector<double>& walk_probe_cycles() {
  static std::vector<double> cycles;
  return cycles;
}

// The walk SM: every SM chases a managed footprint of 4096 pages at a 2 MiB stride (fewer where
// the memory is smaller), far beyond the TLBs' reach, one SM at a time; the SM typical of these
// walks and of the start-up probe's L2 latencies, within the faster group where the walks fall in
// two (walk_sm_of; without that probe: the SM of median walk of that group).
std::uint32_t probe_walk_sm(const Placement& placement) {
  TlbRunner& runner = TlbRunner::instance();
  constexpr std::size_t kStride = std::size_t(2) << 20;
  const std::size_t pages = std::min<std::size_t>(4096, runner.usable_bytes() / 4 / kStride);
  const TlbPoint p{kStride, std::max<std::size_t>(pages, 64) * kStride};
  const int sms = Gpu::current().info().sm_count;
  std::vector<double> cycles(static_cast<std::size_t>(sms), 0.0);
  for (int s = 0; s < sms; ++s)
    cycles[std::size_t(s)] = chase_on(runner, {TlbMapping::managed, CacheOp::cg}, p, std::uint32_t(s), 0).cycles;
  walk_probe_cycles() = cycles;
  return walk_sm_of(placement.measured.cycles_per_sm, cycles).value_or(placement.reference_sm);
}

// Probed once per process (a run has one placement). Where managed memory cannot be chased, the
// reference SM, so that the other mappings still run (the managed benchmarks then report their
// own error).
std::uint32_t walk_sm(const Placement& placement) {
  static const std::uint32_t sm = [&placement] {
    try {
      return probe_walk_sm(placement);
    } catch (const std::exception&) {
      return placement.reference_sm;
    }
  }();
  return sm;
}

// One point's latency on one SM, as the benchmark and the inference both take it: the mean over
// the point's placements (cycles), their summed window and the median clock.
// A chase placed by the map is taken at the figure it was placed at (the GPU's median SM's L2
// latency): its cycles less its lines' residual (what a chain through them reads by the map, less
// that figure), which the map measured on the same lines from the same SM. Chases of 2-15 lines cannot get
// there by choosing lines (a page's lines reach few slices: up to 2.9 cycles off on an H200, and
// 318 of 510 such points within 0.5 % across three boards); taken at the figure, 510 of 510 were.
// The chase's own cycles stay beside it (chase_latency_cycles).
TlbLatency chase_on(TlbRunner& runner, const TlbProbe& probe, const TlbPoint& p, std::uint32_t sm,
                    double place_at_cycles) {
  const int placements = placements_for(probe, p.footprint / p.stride);
  std::vector<TlbLatency> runs;
  for (int j = 0; j < placements; ++j)  // throws on a wrong end
    runs.push_back(runner.measure(probe, p.stride, p.footprint, sm, j * kPlacementStep, place_at_cycles));
  TlbLatency m = runs.back();  // elements, warm steps, SM
  m.cycles = m.chase_cycles = m.window_ns = 0;
  m.clock_retries = 0;
  for (const TlbLatency& r : runs) {
    m.clock_retries += r.clock_retries;
    const double residual = r.placed_lines_cycles > 0 ? r.placed_lines_cycles - place_at_cycles : 0.0;
    m.cycles += (r.cycles - residual) / placements;
    m.chase_cycles += r.cycles / placements;
    m.window_ns += r.window_ns;
  }
  m.sm_clock_mhz = median_of(runs, [](const auto& r) { return r.sm_clock_mhz; });
  m.ns = m.sm_clock_mhz > 0 ? m.cycles * 1e3 / m.sm_clock_mhz : 0;
  return m;
}

void latency(benchmark::State& state, TlbProbe probe, TlbPoint p, const Placement& placement) {
  guarded(state, [&] {
    TlbRunner& runner = TlbRunner::instance();
    std::vector<TlbLatency> runs;
    std::vector<double> samples, chase_samples;
    timed_loop(state, [&] {
      runs.push_back(chase_on(runner, probe, p, walk_sm(placement), place_at(placement)));
      samples.push_back(runs.back().cycles);
      chase_samples.push_back(runs.back().chase_cycles);
      return runs.back().window_ns * 1e-9;
    });
    const double cycles = mean(samples);
    const double mhz = median_of(runs, [](const auto& m) { return m.sm_clock_mhz; });
    runner.record({probe.mapping, probe.op, p.stride, p.footprint}, {cycles, mhz});
    report_sampled(state, "latency_cycles", samples, Centre::mean);
    state.counters["latency_ns"] = mhz > 0 ? cycles * 1e3 / mhz : 0;
    state.counters["footprint_bytes"] = double(p.footprint);
    state.counters["stride_bytes"] = double(p.stride);
    state.counters["elements"] = double(runs.back().elements);
    state.counters["warm_steps"] = runs.back().warm_steps;
    state.counters["steps"] = kTlbTimedSteps;
    state.counters["sm"] = double(walk_sm(placement));
    state.counters["placements"] = placements_for(probe, p.footprint / p.stride);
    long retries = 0;
    for (const TlbLatency& m : runs) retries += m.clock_retries;
    state.counters["sm_clock_dip_retries"] = double(retries);
    if (runs.back().placed_lines_cycles > 0) {
      state.counters["l2_placed_lines_vs_target_cycles"] = runs.back().placed_lines_cycles - place_at(placement);
      state.counters["l2_placement_target_cycles"] = place_at(placement);
      state.counters["chase_latency_cycles"] = mean(chase_samples);
    }
    state.counters["self_checked"] = 1;
    report_clocks(state, mhz);
  });
}

// The curve at one stride, from what the benchmarks recorded (measuring what is missing).
std::vector<CurvePoint> curve(const TlbProbe& probe, const std::vector<TlbPoint>& sweep, std::size_t stride,
                              std::vector<double>& mhz, const Placement& placement) {
  TlbRunner& runner = TlbRunner::instance();
  std::vector<CurvePoint> c;
  for (const TlbPoint& p : sweep) {
    if (p.stride != stride || p.footprint / p.stride < kMinElementsForLevels) continue;
    const TlbRunner::Key key{probe.mapping, probe.op, p.stride, p.footprint};
    auto it = runner.recorded().find(key);
    if (it == runner.recorded().end()) {
      std::vector<double> cycles, clocks;
      for (int i = 0; i < kIterations; ++i) {
        const TlbLatency m = chase_on(runner, probe, p, walk_sm(placement), place_at(placement));
        cycles.push_back(m.cycles);
        clocks.push_back(m.sm_clock_mhz);
      }
      runner.record(key, {mean(cycles), median(clocks)});
      it = runner.recorded().find(key);
    }
    c.push_back({double(p.footprint), it->second.cycles});
    mhz.push_back(it->second.sm_clock_mhz);
  }
  return c;
}

void geometry(benchmark::State& state, TlbProbe probe, const std::vector<TlbPoint>& sweep, bool last,
              const Placement& placement) {
  guarded(state, [&] {
    std::map<std::size_t, std::vector<CurvePoint>> curves;
    std::vector<double> mhz;
    timed_loop(state, [&] {
      // Instant when every point was measured before; otherwise the time of measuring the rest.
      const auto start = std::chrono::steady_clock::now();
      for (const TlbPoint& p : sweep)
        if (curves.find(p.stride) == curves.end()) curves[p.stride] = curve(probe, sweep, p.stride, mhz, placement);
      for (auto it = curves.begin(); it != curves.end();) it = it->second.size() < 3 ? curves.erase(it) : std::next(it);
      return std::max(1e-9, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    });
    if (last) TlbRunner::instance().release();  // the last Tlb benchmark: give the memory back
    const double clock = median(mhz);
    // The walk SM and the probe it was chosen from: each SM's managed walk at a 2 MiB stride.
    state.counters["walk_sm"] = double(walk_sm(placement));
    if (const std::vector<double>& w = walk_probe_cycles(); !w.empty()) {
      state.counters["walk_probe_min_cycles"] = *std::min_element(w.begin(), w.end());
      state.counters["walk_probe_median_cycles"] = median(w);
      state.counters["walk_probe_max_cycles"] = *std::max_element(w.begin(), w.end());
      char key[40];
      for (std::size_t sm = 0; sm < w.size(); ++sm) {
        std::snprintf(key, sizeof key, "sm%03zu_walk_cycles", sm);
        state.counters[key] = w[sm];
      }
    }

    // Page size: the first level's reach per stride.
    std::vector<std::pair<double, double>> first_reach;
    std::vector<double> first_reach_confidence;
    for (const auto& [stride, c] : curves) {
      const auto levels = find_levels(c);
      if (levels.empty()) continue;
      first_reach.emplace_back(double(stride), levels.front().reach);
      first_reach_confidence.push_back(levels.front().confidence);
    }
    const PageSizeInference page = infer_page_size(first_reach, first_reach_confidence);
    state.counters["page_size_bytes"] = page.page_bytes;
    if (page.at_most_bytes > 0) {
      state.counters["page_size_at_most_bytes"] = page.at_most_bytes;
      note(state, "the first reach grows from the smallest stride on: the page is at most that stride");
    }
    state.counters["page_size_confidence"] = page.confidence;
    state.counters["strides_with_a_first_level"] = double(first_reach.size());
    if (page.page_bytes <= 0) {
      state.counters["levels"] = 0;
      report_clocks(state, clock);
      return;
    }
    // Levels on the curve at the page stride (or the smallest stride above it).
    auto at_page = curves.lower_bound(static_cast<std::size_t>(page.page_bytes));
    if (at_page == curves.end()) at_page = std::prev(curves.end());
    const auto levels = find_levels(at_page->second);
    const double page_bytes = std::max(page.page_bytes, double(at_page->first));
    state.counters["levels_stride_bytes"] = double(at_page->first);
    state.counters["levels"] = double(levels.size());
    if (!levels.empty()) state.counters["hit_latency_cycles"] = levels.front().hit_cycles;
    // Entries seen at the widest stride that still shows the level: as many as at the page stride
    // when no set conflicts shorten the reach (a fully associative level, as far as the strides go).
    std::vector<std::vector<CacheLevelStep>> levels_per_stride;
    std::vector<double> stride_of;
    for (const auto& [stride, c] : curves) {
      levels_per_stride.push_back(find_levels(c));
      stride_of.push_back(double(stride));
    }
    for (std::size_t i = 0; i < levels.size() && i < std::size_t(kMaxLevels); ++i) {
      const std::string l = "level" + std::to_string(i + 1) + "_";
      state.counters[l + "reach_bytes"] = levels[i].reach;
      state.counters[l + "reach_upper_bytes"] = levels[i].next_footprint;
      state.counters[l + "entries"] = levels[i].reach / page_bytes;
      // Where the curve crosses the plateaus' midpoint (log-interpolated): beside the bracket,
      // not instead of it (a step at exactly E pages puts it half a sweep step past E).
      state.counters[l + "crossing_bytes"] = levels[i].crossing;
      state.counters[l + "miss_penalty_cycles"] = levels[i].miss_penalty_cycles;
      state.counters[l + "miss_penalty_ns"] = clock > 0 ? levels[i].miss_penalty_cycles * 1e3 / clock : 0;
      // The entries' confidence from every stride from the page up that reads the same count.
      std::vector<LevelReading> readings{{page_bytes, levels[i].reach / page_bytes, levels[i].confidence}};
      for (std::size_t k = 0; k < levels_per_stride.size(); ++k)
        if (levels_per_stride[k].size() > i && stride_of[k] > page_bytes)
          readings.push_back(
              {stride_of[k], levels_per_stride[k][i].reach / stride_of[k], levels_per_stride[k][i].confidence});
      state.counters[l + "confidence"] = entries_confidence(levels[i].reach / page_bytes, readings);
      state.counters[l + "confidence_at_page_stride"] = levels[i].confidence;
      for (std::size_t k = levels_per_stride.size(); k-- > 0;)
        if (levels_per_stride[k].size() > i && stride_of[k] >= page_bytes) {
          state.counters[l + "entries_at_widest_stride"] = levels_per_stride[k][i].reach / stride_of[k];
          state.counters[l + "widest_stride_bytes"] = stride_of[k];
          break;
        }
    }
    report_clocks(state, clock);
  });
}

void register_tlb(const SuiteConfig& cfg) {
  const std::size_t free = cfg.gpu.free_memory_bytes();
  std::vector<BenchmarkPoint> points, geometries;
  // Where the chases run (the walk SM is chosen from its probe and the reference SM), shared by
  // every point's closure.
  const auto placement = std::make_shared<const Placement>(cfg.placement);
  // A quick run chases managed memory alone: cudaMalloc memory shows no TLB level on Hopper
  // (docs/tlb.md), and its scattered mapping of tens of GB took 6 of a quick run's 10 s here.
  std::vector<TlbProbe> probes;
  for (const TlbProbe& probe : kTlbProbes)
    if (!cfg.quick || probe.mapping == TlbMapping::managed) probes.push_back(probe);
  for (const TlbProbe& probe : probes) {
    const std::vector<TlbPoint> sweep = tlb_sweep(free, tlb_max_elements(probe.op), cfg.quick, cfg.dense);
    for (const TlbPoint& p : sweep)
      points.push_back(
          {bench_name("Tlb/latency/" + probe_name(probe), {{"stride", p.stride}, {"footprint", p.footprint}}),
           [probe, p, placement](benchmark::State& st) { latency(st, probe, p, *placement); }});
    const bool last = &probe == &probes.back();
    geometries.push_back({"Tlb/geometry/" + probe_name(probe), [probe, sweep, last, placement](benchmark::State& st) {
                            geometry(st, probe, sweep, last, *placement);
                          }});
  }
  points.insert(points.end(), geometries.begin(), geometries.end());
  register_points("Tlb", points, kIterations,
                  {{"Tlb/latency/", {lower("latency_cycles")}},
                   {"Tlb/geometry/", {value("levels", 0), value("page_size_bytes", 0)}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Tlb, archbench::register_tlb);
