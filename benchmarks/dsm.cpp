// Dsm: distributed shared memory, the shared memory of the other blocks of a thread-block
// cluster (sm_90+), read through the cluster's shared window (mapa + ld.shared::cluster).
//   Dsm/latency/cluster:C                      in every cluster that fits, rank 0 chases through each rank's memory and its own
//   Dsm/bandwidth/cluster:C/pattern:P/load:L   16-byte loads, 32 warps per block, one block per SM
// C: blocks per cluster (2, 4, 8; 16 where the GPU allows the non-portable size).
// P: local (own memory through the window), pairs (r reads r^1), ring (r reads r+1),
//    one_to_all (every rank reads rank 0), all_to_all (each warp reads another rank, all in turn).
// L: ld (weak, what C++ code gets: LD.E), ld.volatile (LD.E.STRONG.SYS).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/runners/smem_runner.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
constexpr int kClusterSizes[] = {2, 4, 8, 16};

bool skip_unsupported(benchmark::State& state, int size) {
  if (const auto why = dsm_unsupported(size)) {
    skip(state, *why);
    return true;
  }
  return false;
}

void latency(benchmark::State& state, int size) {
  if (skip_unsupported(state, size)) return;
  guarded(state, [&] {
    // throws SelfCheckError if a chase went astray
    const std::vector<DsmLatency> runs = timed_runs(
        state, [&] { return measure_dsm_latency(size); }, [](const DsmLatency& m) { return m.window_ns * 1e-9; });
    // Remote: every rank but rank 0 itself; per run the median over ranks (each rank's figure the
    // median over the clusters), then over runs. Min and max: the clusters' spread.
    auto remote = [](const std::vector<double>& per_rank) {
      return std::vector<double>(per_rank.begin() + 1, per_rank.end());
    };
    state.counters["local_lds_cycles"] = median_of(runs, [](const auto& m) { return m.lds_cycles; });
    state.counters["local_cluster_cycles"] = median_of(runs, [](const auto& m) { return m.cycles_per_rank.front(); });
    state.counters["remote_cycles"] = median_of(runs, [&](const auto& m) { return median(remote(m.cycles_per_rank)); });
    state.counters["remote_min_cycles"] = median_of(runs, [&](const auto& m) {
      return *std::min_element(m.remote_per_cluster.begin(), m.remote_per_cluster.end());
    });
    state.counters["remote_max_cycles"] = median_of(runs, [&](const auto& m) {
      return *std::max_element(m.remote_per_cluster.begin(), m.remote_per_cluster.end());
    });
    state.counters["local_lds_ns"] = median_of(runs, [](const auto& m) { return m.lds_ns; });
    state.counters["remote_ns"] = median_of(runs, [&](const auto& m) { return median(remote(m.ns_per_rank)); });
    state.counters["remote_over_local"] = state.counters["remote_cycles"] / state.counters["local_lds_cycles"];
    const DsmLatency& last = runs.back();
    state.counters["cluster_size"] = size;
    state.counters["clusters"] = last.clusters;
    state.counters["distinct_sms"] = double(std::set<std::uint32_t>(last.smids.begin(), last.smids.end()).size());
    state.counters["self_checked"] = 1;
    const double clock =
        median_of(runs, [](const auto& m) { return m.lds_ns > 0 ? m.lds_cycles / m.lds_ns * 1e3 : 0.0; });
    report_clocks(state, clock);
  });
}

void bandwidth(benchmark::State& state, DsmPattern p, DsmLoad load, int size) {
  if (skip_unsupported(state, size)) return;
  guarded(state, [&] {
    const std::uint32_t iterations = calibrate_dsm_bandwidth_iterations(p, load, size);
    // throws SelfCheckError on a wrong sum
    const std::vector<DsmBandwidth> runs = timed_runs(
        state, [&] { return measure_dsm_bandwidth(p, load, size, iterations); },
        [](const DsmBandwidth& m) { return m.summary.gpu_window_ns * 1e-9; });
    state.counters["bytes_per_clk_per_sm"] = median_of(runs, [](const auto& m) { return m.bytes_per_clk_per_sm; });
    state.counters["bytes_per_clk_per_sm_min"] =
        median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_min; });
    state.counters["bytes_per_clk_per_cluster"] =
        median_of(runs, [](const auto& m) { return m.bytes_per_clk_per_cluster; });
    state.counters["bytes_per_second"] = median_of(runs, [](const auto& m) { return m.bytes_per_second; });
    const DsmBandwidth& last = runs.back();
    state.counters["cluster_size"] = size;
    state.counters["clusters"] = last.clusters;
    state.counters["reading_blocks_per_cluster"] = last.reading_blocks_per_cluster;
    state.counters["sms"] = last.summary.sms_used;
    state.counters["warps_per_sm"] = last.summary.max_warps_per_sm;
    state.counters["iterations"] = iterations;
    state.counters["self_checked"] = 1;
    report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
  });
}

void register_dsm(const SuiteConfig& cfg) {
  std::vector<BenchmarkPoint> points;
  const std::vector<int> sizes =
      cfg.quick ? std::vector<int>{2, 16} : std::vector<int>(std::begin(kClusterSizes), std::end(kClusterSizes));
  for (int size : sizes)
    points.push_back(
        {bench_name("Dsm/latency", {{"cluster", size}}), [size](benchmark::State& st) { latency(st, size); }});
  for (int size : sizes)
    for (DsmPattern p : kDsmPatterns)
      for (DsmLoad load : kDsmLoads)
        points.push_back(
            {bench_name("Dsm/bandwidth",
                        {{"cluster", size}, {"pattern", dsm_pattern_name(p)}, {"load", dsm_load_name(load)}}),
             [p, load, size](benchmark::State& st) { bandwidth(st, p, load, size); }});
  register_points("Dsm", points, kIterations,
                  {{"Dsm/latency/", {lower("remote_cycles")}}, {"Dsm/bandwidth/", {higher("bytes_per_clk_per_sm")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Dsm, archbench::register_dsm);
