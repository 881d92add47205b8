// Launch: what a kernel launch costs, as the host sees it and in the GPU's own timeline.
//   Launch/back_to_back/path:P/stream:S/params:B   512 empty kernels launched back to back behind a
//       kernel that holds the stream until all are queued, then one synchronise: the host's time
//       per launch call, and the gap on the GPU between one kernel's last %globaltimer read and
//       the next one's first (from a full queue: the GPU's cost, not the host's pace)
//   Launch/end_to_end/path:P/stream:S/params:B     each launch followed by a synchronise: the
//       host's time for the pair
// P: stream (<<<>>>), graph (captured once, launched), cluster (cudaLaunchKernelEx, a cluster of
// 2 blocks), pdl (programmatic dependent launch); S: legacy, per_thread, created (non-blocking);
// B: parameter bytes beyond the stamp pointer (0 .. 4000). Every figure is the median of many
// launches (per iteration the median of its launches, then the median of the iterations), with
// the 10th and 90th percentiles over every launch beside it.
#include <benchmark/benchmark.h>
#include <sched.h>

#include <chrono>
#include <string>
#include <vector>

#include "analysis/stats.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "kernels/launch.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
constexpr int kLaunches = kMaxLaunchBatch;  // per iteration

void spread(benchmark::State& state, const std::string& name, const std::vector<double>& v) {
  state.counters[name + "_p10"] = percentile(v, 10);
  state.counters[name + "_p90"] = percentile(v, 90);
}

std::string launch_name(const std::string& family, LaunchPath path, StreamKind stream, int bytes) {
  return bench_name(family,
                    {{"path", launch_path_name(path)}, {"stream", stream_kind_name(stream)}, {"params", bytes}});
}

// Host-side costs move with where and how warm the launching thread is: three runs in a row on
// one board read launch-and-synchronise at 14.6, 11.1 and 9.1 us. The thread stays on the CPU it
// is on for the benchmark (no migration in the middle of a batch), and launches for 100 ms first.
class HostPinned {
 public:
  HostPinned() {
    if (sched_getaffinity(0, sizeof old_, &old_) != 0) return;
    const int cpu = sched_getcpu();
    if (cpu < 0) return;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    pinned_ = sched_setaffinity(0, sizeof one, &one) == 0;
  }
  ~HostPinned() {
    if (pinned_) sched_setaffinity(0, sizeof old_, &old_);
  }
  HostPinned(const HostPinned&) = delete;
  HostPinned& operator=(const HostPinned&) = delete;

 private:
  cpu_set_t old_{};
  bool pinned_ = false;
};

// How long a benchmark launches before it measures: 100 ms (module load, its stream and path, the
// host's clocks). In a quick run, only the process's first Launch benchmark warms that long and the
// rest 20 ms (their path's first use): they follow a benchmark that was launching already, and the
// warm-ups were 1.6 of a quick run's 1.7 s in Launch.
double warm_seconds(bool quick) {
  static bool warmed = false;
  const double seconds = quick && warmed ? 0.02 : 0.1;
  warmed = true;
  return seconds;
}

template <class F>
void warm_for(double seconds, F&& f) {
  const auto t0 = std::chrono::steady_clock::now();
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) f();
}

bool skip_unsupported(benchmark::State& state, LaunchPath path) {
  if (const std::string why = launch_path_unsupported(path); !why.empty()) {
    skip(state, why);
    return true;
  }
  return false;
}

void back_to_back(benchmark::State& state, LaunchPath path, StreamKind stream, int bytes, bool quick) {
  if (skip_unsupported(state, path)) return;
  guarded(state, [&] {
    const HostPinned pinned;
    warm_for(warm_seconds(quick), [&] { launch_batch(path, stream, bytes, 64); });
    std::vector<double> host, gaps, host_medians, gap_medians;
    double wall = 0;
    timed_loop(state, [&] {
      const LaunchBatch b = launch_batch(path, stream, bytes, kLaunches);  // throws if a kernel did not run
      std::vector<double> g;
      for (std::size_t i = 0; i + 1 < b.start_ns.size(); ++i)
        g.push_back(double(std::int64_t(b.start_ns[i + 1] - b.end_ns[i])));
      host.insert(host.end(), b.host_ns.begin() + 1, b.host_ns.end());
      gaps.insert(gaps.end(), g.begin(), g.end());
      host_medians.push_back(median(std::vector<double>(b.host_ns.begin() + 1, b.host_ns.end())));
      gap_medians.push_back(median(g));
      wall += b.wall_ns;
      return b.wall_ns * 1e-9;
    });
    // The figure: the median over iterations of each one's median launch, with the iterations'
    // spread (the noise compare.py reads); p10 and p90 over every launch beside it.
    report_sampled(state, "host_launch_ns", host_medians);
    spread(state, "host_launch_ns", host);
    report_sampled(state, "gpu_gap_ns", gap_medians);
    spread(state, "gpu_gap_ns", gaps);
    state.counters["launches_per_second"] = double(kLaunches) * double(state.iterations()) / (wall * 1e-9);
    state.counters["launches"] = double(kLaunches);
    state.counters["param_bytes"] = bytes;
    state.counters["self_checked"] = 1;
    report_clocks(state, 0);
  });
}

void end_to_end(benchmark::State& state, LaunchPath path, StreamKind stream, int bytes, bool quick) {
  if (skip_unsupported(state, path)) return;
  guarded(state, [&] {
    const HostPinned pinned;
    warm_for(warm_seconds(quick), [&] { launch_and_sync_ns(path, stream, bytes, 16); });
    std::vector<double> all, medians;
    timed_loop(state, [&] {
      const std::vector<double> ns = launch_and_sync_ns(path, stream, bytes, kLaunches / 4);
      all.insert(all.end(), ns.begin(), ns.end());
      medians.push_back(median(ns));
      double sum = 0;
      for (double x : ns) sum += x;
      return sum * 1e-9;
    });
    report_sampled(state, "end_to_end_ns", medians);
    spread(state, "end_to_end_ns", all);
    state.counters["launches"] = double(kLaunches / 4);
    state.counters["param_bytes"] = bytes;
    state.counters["self_checked"] = 1;
    report_clocks(state, 0);
  });
}

const std::vector<MetricRule> kLaunchMetrics = {
    // The host's time per call is reported beside the gap, not compared: it moved by up to 2x
    // between runs in a row on one board (docs/regression.md, section 7); the GPU's gap did not.
    {"Launch/back_to_back/", {lower("gpu_gap_ns")}},
    {"Launch/end_to_end/", {lower("end_to_end_ns")}}};

void register_launch(const SuiteConfig& cfg) {
  struct Case {
    LaunchPath path;
    StreamKind stream;
    int bytes;
  };
  std::vector<Case> cases;
  // A quick run: the smallest and largest parameters. Not fewer cases: the GPU's gap between
  // programmatic (PDL) launches depends on what the process launched before it (on one H200
  // 864 ns after these cases, 512 ns in a quick run without the per-thread stream and the
  // 4000-byte parameters; results/nvidia-h200/speed/2026-11-28-README.txt), so a quick run keeps
  // the full run's history up to the PDL case.
  const std::vector<int> all_bytes = cfg.quick
                                         ? std::vector<int>{0, 4000}
                                         : std::vector<int>(std::begin(kLaunchParamBytes), std::end(kLaunchParamBytes));
  for (StreamKind s : {StreamKind::legacy_default, StreamKind::per_thread_default, StreamKind::created})
    cases.push_back({LaunchPath::stream, s, 0});
  for (int b : all_bytes)
    if (b != 0) cases.push_back({LaunchPath::stream, StreamKind::created, b});
  for (int b : all_bytes) cases.push_back({LaunchPath::graph, StreamKind::created, b});
  cases.push_back({LaunchPath::cluster, StreamKind::created, 0});
  cases.push_back({LaunchPath::pdl, StreamKind::created, 0});
  std::vector<BenchmarkPoint> points;
  for (const Case& c : cases)
    points.push_back({launch_name("Launch/back_to_back", c.path, c.stream, c.bytes),
                      [c, q = cfg.quick](benchmark::State& st) { back_to_back(st, c.path, c.stream, c.bytes, q); }});
  for (const Case& c : cases)
    points.push_back({launch_name("Launch/end_to_end", c.path, c.stream, c.bytes),
                      [c, q = cfg.quick](benchmark::State& st) { end_to_end(st, c.path, c.stream, c.bytes, q); }});
  register_points("Launch", points, kIterations, kLaunchMetrics);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Launch, archbench::register_launch);
