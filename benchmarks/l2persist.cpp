// L2Persist: the L2 set-aside for persisting accesses (fixtures/runners/l2persist_runner.hpp says how).
//   L2Persist/kept/setaside_pct:A/window_pct:W/hit_ratio:H   A % of the device's maximum set
//       aside; a persisting window of W % of that (of the maximum when A is 0); hitRatio H: the
//       fraction of the window kept after a 4x-L2 stream, and the window's read rate after it
//   L2Persist/capacity/setaside_pct:A                        the bytes kept of a window larger
//       than the set-aside: the inferred persisting capacity, against the set-aside granted
//   L2Persist/reset                                          cudaCtxResetPersistingL2Cache between
//       marking and streaming: what is kept with and without it
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "analysis/stats.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/runners/l2persist_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = int(kPersistRegions);  // one per placement of the window

bool skip_unsupported(benchmark::State& state) {
  if (const auto why = l2persist_unsupported()) {
    skip(state, *why);
    return true;
  }
  return false;
}

std::size_t pages(double bytes) { return std::size_t(bytes) / 4096 * 4096; }

// The window for a set-aside: `pct` % of it, at least 4 KiB, at most the L2 and the largest window.
std::size_t window_for(std::size_t setaside, double pct) {
  const GpuInfo& g = Gpu::current().info();
  const std::size_t cap = std::min(g.l2_bytes, g.max_persisting_l2_bytes * 2);
  return std::clamp(pages(double(setaside) * pct / 100.0), std::size_t(4096), pages(double(cap)));
}

// --counters replays the probes once, on the last iteration (its wall time includes the replay).
bool last_iteration(const benchmark::State& state, const std::vector<PersistMeasurement>& runs) {
  return hw_counters_enabled() && benchmark::IterationCount(runs.size() + 1) == state.max_iterations;
}

void report(benchmark::State& state, const std::vector<PersistMeasurement>& runs) {
  std::vector<double> kept;
  for (const auto& m : runs) kept.push_back(m.kept_bytes);
  report_sampled(state, "kept_bytes", kept, Centre::mean);  // a mean over placements
  // The window lies elsewhere in each iteration (measure_persistence's region): the spread over placements.
  state.counters["kept_bytes_min"] = *std::min_element(kept.begin(), kept.end());
  state.counters["kept_bytes_max"] = *std::max_element(kept.begin(), kept.end());
  const PersistMeasurement& last = runs.back();
  state.counters["kept_fraction"] = median_of(runs, [](const auto& m) { return m.kept_fraction; });
  state.counters["persisting_read_bytes_per_second"] =
      median_of(runs, [](const auto& m) { return m.read_bytes_per_second; });
  state.counters["setaside_bytes"] = double(last.setaside_bytes);
  state.counters["setaside_requested_bytes"] = double(last.setaside_requested_bytes);
  state.counters["window_bytes"] = double(last.window_bytes);
  state.counters["hit_ratio"] = last.hit_ratio;
  state.counters["hit_cycles"] = median_of(runs, [](const auto& m) { return m.hit_cycles; });
  state.counters["miss_cycles"] = median_of(runs, [](const auto& m) { return m.miss_cycles; });
  state.counters["probe_cycles"] = median_of(runs, [](const auto& m) { return m.probe_cycles; });
  state.counters["threshold_cycles"] = median_of(runs, [](const auto& m) { return m.threshold_cycles; });
  state.counters["survived_without_setaside"] =
      median_of(runs, [](const auto& m) { return m.survived_without_setaside; });
  state.counters["resident_below_threshold"] =
      median_of(runs, [](const auto& m) { return m.resident_below_threshold; });
  state.counters["self_checked"] = 1;
  // --counters: the kept fraction by the DRAM bytes of the probe (fixtures/runners/l2persist_runner.hpp).
  if (const PersistMeasurement& m = runs.back(); m.hw_kept_fraction) {
    state.counters["hw_kept_fraction"] = *m.hw_kept_fraction;
    state.counters["hw_kept_bytes"] = *m.hw_kept_fraction * double(m.window_bytes);
    state.counters["hw_probe_dram_read_bytes"] = m.hw_probe_dram_bytes;
    state.counters["hw_probe_dram_read_bytes_without_setaside"] = m.hw_probe_dram_bytes_without_setaside;
  }
  report_clocks(state, 0);
}

void kept(benchmark::State& state, double setaside_pct, double window_pct, double hit_ratio) {
  if (skip_unsupported(state)) return;
  guarded(state, [&] {
    const std::size_t max = Gpu::current().info().max_persisting_l2_bytes;
    const std::size_t setaside = pages(double(max) * setaside_pct / 100.0);
    const std::size_t window = window_for(setaside > 0 ? setaside : max, window_pct);
    std::vector<PersistMeasurement> runs;
    timed_loop(state, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      runs.push_back(measure_persistence(setaside, window, hit_ratio, false, last_iteration(state, runs), runs.size()));
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    report(state, runs);
    // Without a set-aside, the bytes "kept" are what an LRU-ish L2 happens to leave of the window
    // after the stream (2.8 and 3.2 MB of 50 on two H100 boards): a control, not a value to track.
    if (setaside == 0) declare_primary(state, {lower("probe_cycles")});
  });
}

void capacity(benchmark::State& state, double setaside_pct) {
  if (skip_unsupported(state)) return;
  guarded(state, [&] {
    const std::size_t max = Gpu::current().info().max_persisting_l2_bytes;
    const std::size_t setaside = pages(double(max) * setaside_pct / 100.0);
    const std::size_t window = window_for(setaside, 150);
    std::vector<PersistMeasurement> runs;
    timed_loop(state, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      runs.push_back(measure_persistence(setaside, window, 1.0, false, last_iteration(state, runs), runs.size()));
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    report(state, runs);
    const double cap = state.counters["kept_bytes"];
    state.counters["capacity_bytes"] = cap;
    state.counters["capacity_over_setaside"] =
        runs.back().setaside_bytes ? cap / double(runs.back().setaside_bytes) : 0;
    if (runs.back().hw_kept_fraction && runs.back().setaside_bytes)
      state.counters["hw_capacity_over_setaside"] =
          *runs.back().hw_kept_fraction * double(runs.back().window_bytes) / double(runs.back().setaside_bytes);
    state.counters["max_persisting_bytes"] = double(max);
    if (window <= setaside) note(state, "the window cannot exceed the set-aside here: the capacity is a lower bound");
  });
}

void reset(benchmark::State& state) {
  if (skip_unsupported(state)) return;
  guarded(state, [&] {
    const std::size_t max = Gpu::current().info().max_persisting_l2_bytes;
    const std::size_t setaside = pages(double(max) / 2), window = setaside;
    std::vector<double> with, without;
    timed_loop(state, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      const std::size_t region = without.size();
      without.push_back(measure_persistence(setaside, window, 1.0, false, false, region).kept_bytes);
      with.push_back(measure_persistence(setaside, window, 1.0, true, false, region).kept_bytes);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    report_sampled(state, "kept_bytes_without_reset", without);
    state.counters["kept_bytes_after_reset"] = median(with);
    state.counters["window_bytes"] = double(window);
    state.counters["setaside_bytes"] = double(setaside);
    state.counters["self_checked"] = 1;
    report_clocks(state, 0);
  });
}

const std::vector<MetricRule> kL2PersistMetrics = {
    // kept_bytes is what the feature finds; probe_cycles (the median load reading the window
    // after the stream) is what it measures, so a slower kernel or L2 shows there. The read rate
    // is mostly launch cost: reported only.
    {"L2Persist/kept/", {value("kept_bytes", 5), lower("probe_cycles")}},
    {"L2Persist/capacity/", {value("capacity_bytes", 3), lower("probe_cycles")}},
    {"L2Persist/reset", {value("kept_bytes_without_reset", 5)}}};

std::string pct_name(double x) { return std::to_string(int(x + 0.5)); }

void register_l2persist(const SuiteConfig& cfg) {
  std::vector<BenchmarkPoint> points;
  const std::vector<double> setasides = cfg.quick ? std::vector<double>{50} : std::vector<double>{0, 25, 50, 75, 100};
  const std::vector<double> windows = cfg.quick ? std::vector<double>{100} : std::vector<double>{50, 100, 150};
  for (double a : setasides)
    for (double w : windows)
      for (double h : {1.0, 0.5}) {
        if (h != 1.0 && w != 100) continue;  // hitRatio at one window size
        points.push_back({bench_name("L2Persist/kept", {{"setaside_pct", pct_name(a)},
                                                        {"window_pct", pct_name(w)},
                                                        {"hit_ratio", h == 1.0 ? "1" : "0.5"}}),
                          [a, w, h](benchmark::State& st) { kept(st, a, w, h); }});
      }
  for (double a : setasides)
    if (a > 0)
      points.push_back({bench_name("L2Persist/capacity", {{"setaside_pct", pct_name(a)}}),
                        [a](benchmark::State& st) { capacity(st, a); }});
  points.push_back({"L2Persist/reset", reset});
  register_points("L2Persist", points, kIterations, kL2PersistMetrics);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(L2Persist, archbench::register_l2persist);
