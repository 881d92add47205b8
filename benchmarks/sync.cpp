// Sync: how threads synchronise and exchange data.
//   Sync/warp/latency/<op>                                one warp, one dependent chain per thread
//   Sync/warp/throughput/<op>/ilp:I/warps_per_sm:W/sms:S  I chains per thread, W warps on each of S SMs
//   Sync/<bar|mbarrier|fence>/<step>/warps_per_block:W    cycles per barrier or fence step, one block of W warps
//                                                         (steps_per_second: an mbarrier's phase flips per second)
//                                                         GPU- and system-scope fences: the block alone on each SM
//                                                         in turn, the mean over SMs reported (_min_sm, _max_sm beside)
//   Sync/cluster/cluster_barrier/cluster_size:C/warps_per_block:4   one cluster of C blocks
//   Sync/grid/grid_sync/blocks:G/warps_per_block:4        a cooperative grid of G blocks
//   (GPU- and system-scope fences: latency_cycles_context_min/_max, the range over this process's
//   context and 4 fresh ones)
// <op>: shfl_idx shfl_bfly shfl_up shfl_down vote_ballot match_any redux_add redux_max elect
// (elect: a chain through a compare and a branch, its latency against the same step around a shuffle)
// (kernels/shared/pipeline_ops.cpp says what each is in PTX and SASS). They run on the Pipeline kernel:
// inline PTX on runtime operands, the same starts in every lane, every warp's result checked
// against the host's replay, the SASS test counting one collective per step.
#include <benchmark/benchmark.h>

#include "analysis/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/driver_api.hpp"
#include "fixtures/harness/fresh_context.hpp"
#include "fixtures/runners/pipeline_bench.hpp"
#include "fixtures/runners/sync_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

// Launches per barrier or fence step: at least kSyncStepLaunches, then batches of as many more
// until the standard error of their mean is at most kSyncStepTargetSeCycles (or kMaxSyncStepLaunches
// are in); the mean is reported. A step that many warps or blocks contend for lands in one of
// several interleavings or placements per launch: 32 warps spinning on test_wait read 267.7-271.4
// cycles on an H100, a grid sync over 64 blocks scatters by 0.03-0.08 % (sd). A median of 25 jumped
// between such modes from one repetition to the next (by up to 1.56 cycles), and a switch from the
// median to a mean past a threshold of the sd flipped with the sd itself (a grid sync over 64 blocks:
// 2156.8-2159.4). The mean follows the modes' shares smoothly, and a standard error of 0.1 cycle
// keeps five repetitions' means within a cycle.
constexpr int kSyncStepLaunches = 25;
// A quick run's: 10 launches, not extended (a grid sync over every SM took 1.7 of a quick run's
// 6 s in Sync, extended to 200 launches); a grid sync scatters by 0.03-0.08 % (sd) per launch.
constexpr int kQuickSyncStepLaunches = 10;
constexpr int kMaxSyncStepLaunches = 200;
constexpr double kSyncStepTargetSeCycles = 0.1;

// One step's launches: cycles per step and what report_slope_latency reports beside them.
struct StepLaunches {
  std::vector<double> cycles, overhead, raw, mhz;
  std::uint32_t smid = 0;  // block 0's SM in the last launch
  double window_ns = 0;    // the last launch's

  void add(const SyncMeasurement& m) {
    cycles.push_back(m.slope.latency_cycles);
    overhead.push_back(m.slope.loop_overhead_cycles);
    raw.push_back(m.slope.raw_cycles);
    mhz.push_back(m.sm_clock_mhz);
    smid = m.smid;
    window_ns = m.window_ns;
  }
  double standard_error() const {
    return cycles.size() < 2 ? INFINITY : sample_sd(cycles) / std::sqrt(double(cycles.size()));
  }
  // Batches of kSyncStepLaunches until there are at least that many and the mean's standard error
  // is at most kSyncStepTargetSeCycles, or kMaxSyncStepLaunches are in.
  void complete(SyncStep s, int warps, std::uint32_t iterations, int blocks) {
    while (cycles.size() < std::size_t(kSyncStepLaunches) ||
           (cycles.size() < std::size_t(kMaxSyncStepLaunches) && standard_error() > kSyncStepTargetSeCycles))
      for (int k = 0; k < kSyncStepLaunches; ++k) add(measure_sync(s, warps, iterations, blocks));
  }
};

// A GPU- or system-scope fence's cost also follows the CUDA context: where the driver puts the
// context's structures and __device__ variables, homed in L2 partitions at different distances. In
// six contexts of one process on an H100, fence.sc.sys's median SM read 1611-1661 cycles (each
// context's within 1), while fence.sc.gpu read 643.9 in every one. So each fence step is swept
// again in kSurveyContexts fresh contexts (the same ones for every step), once per process and
// before its first repetition (the repetitions share it, and all run after it), and the range
// over those and the run's own context is reported: latency_cycles_context_min/_max and contexts.
// latency_cycles stays the figure of the run's own context, which repeats within a cycle; the
// range is how far another process may read it, and compare.py takes it as the least noise
// between runs.
// A grid sync's cost follows the context too (over 4 blocks: 2104.85 or 2108.5 in those six), but a
// context of cuCtxCreate's is not a runtime's primary one for it: over 64 blocks such contexts read
// 2045-2163 where six primary contexts read 2160.1-2160.3. Its range is not surveyed.
constexpr int kSurveyContexts = 4;

// The survey's contexts, created by the first survey and shared by every surveyed step: creating a
// context and loading the suite's module into it took most of a survey, 40 times over. The last
// surveyed benchmark destroys them (release_survey_contexts), so that nothing after Sync runs
// beside them.
std::vector<std::unique_ptr<FreshContext>>& survey_contexts() {
  static std::vector<std::unique_ptr<FreshContext>> contexts;
  return contexts;
}
void release_survey_contexts() { survey_contexts().clear(); }

const std::vector<double>& fresh_context_figures(SyncStep s, int warps, const std::function<double()>& measure) {
  static std::map<std::pair<SyncStep, int>, std::vector<double>> surveyed;  // per process
  auto it = surveyed.find({s, warps});
  if (it == surveyed.end()) {
    std::vector<double> figures;
    try {
      auto& contexts = survey_contexts();
      while (contexts.size() < std::size_t(kSurveyContexts)) contexts.push_back(std::make_unique<FreshContext>());
      for (const auto& context : contexts) {
        const FreshContext::Current current(*context);
        figures.push_back(measure());
      }
    } catch (const DriverApiError& e) {
      // A GPU in exclusive-process mode takes one context per process: no range, said once.
      static bool said = false;
      if (!said)
        std::fprintf(stderr, "Sync: no fresh CUDA context (%s); fences report no range over contexts\n", e.what());
      said = true;
      figures.clear();
    }
    it = surveyed.emplace(std::make_pair(s, warps), std::move(figures)).first;
  }
  return it->second;
}

void report_context_range(benchmark::State& state, const std::vector<double>& fresh_figures) {
  if (fresh_figures.empty()) return;
  const double own = state.counters["latency_cycles"].value;
  double lo = own, hi = own;
  for (double f : fresh_figures) lo = std::min(lo, f), hi = std::max(hi, f);
  state.counters["latency_cycles_context_min"] = lo;
  state.counters["latency_cycles_context_max"] = hi;
  state.counters["contexts"] = double(1 + fresh_figures.size());
}

void sync_step(benchmark::State& state, SyncStep s, int warps, int blocks, bool quick) {
  const SyncStepInfo& info = sync_step_info(s);
  if (const auto why = sync_step_unsupported(info, Gpu::current().info())) {
    skip(state, *why);
    return;
  }
  guarded(state, [&] {
    const std::uint32_t iterations = calibrate_sync_iterations(s, warps, blocks);
    StepLaunches launches;
    timed_loop(state, [&] {
      launches.add(measure_sync(s, warps, iterations, blocks));
      return launches.window_ns * 1e-9;
    });
    if (!quick) launches.complete(s, warps, iterations, blocks);
    state.counters["warps_per_block"] = warps;
    state.counters["blocks"] = blocks;
    state.counters["iterations"] = iterations;
    state.counters["smid"] = launches.smid;
    report_slope_latency(state, launches.cycles, launches.overhead, launches.raw, launches.mhz,
                         Centre::mean);  // per step, block 0's window
    // Steps per second at the measured clock (for an mbarrier: phase flips per second).
    const double step_cycles = state.counters["latency_cycles"].value;
    if (step_cycles > 0) state.counters["steps_per_second"] = median(launches.mhz) * 1e6 / step_cycles;
  });
}

// Sweeps over every SM per step whose cost depends on the SM (the mean over SMs reported); a quick
// run's one sweep gives the figure without its spread over sweeps.
constexpr int kSyncSweeps = 5;
constexpr int kQuickSyncSweeps = 1;

// A quick run (quick): no survey of fresh contexts (4 of a benchmark's 9 sweeps, and most of a
// quick run's time went to the fences), and kQuickSyncSweepIterations per SM.
void sync_step_every_sm(benchmark::State& state, SyncStep s, int warps, bool quick) {
  const bool survey_contexts = !quick;
  const std::uint32_t iterations = quick ? kQuickSyncSweepIterations : kSyncSweepIterations;
  if (const auto why = sync_step_unsupported(sync_step_info(s), Gpu::current().info())) {
    skip(state, *why);
    return;
  }
  guarded(state, [&] {
    // A copy (a few figures): GCC 13 takes a reference through the ternary for a dangling one.
    const std::vector<double> fresh =
        survey_contexts
            ? fresh_context_figures(s, warps, [&] { return measure_sync_every_sm(s, warps, iterations).mean_cycles; })
            : std::vector<double>{};
    std::vector<double> sweep_means, mhz;
    std::vector<std::vector<double>> per_sm;  // [sweep][SM]
    timed_loop(state, [&] {
      const SyncSmSweep sweep = measure_sync_every_sm(s, warps, iterations);
      sweep_means.push_back(sweep.mean_cycles);
      mhz.push_back(sweep.sm_clock_mhz);
      per_sm.push_back(sweep.latency_cycles);
      return sweep.window_ns * 1e-9;
    });
    // Each SM's median over the sweeps: the spread between SMs beside the mean.
    std::vector<double> sm_cycles;
    for (std::size_t sm = 0; sm < per_sm.front().size(); ++sm) {
      std::vector<double> v;
      for (const auto& sweep : per_sm) v.push_back(sweep[sm]);
      sm_cycles.push_back(median(v));
    }
    report_sampled(state, "latency_cycles", sweep_means);  // the mean over SMs, median over sweeps
    const double clock = median(mhz);
    state.counters["latency_ns"] = clock > 0 ? state.counters["latency_cycles"].value * 1e3 / clock : 0.0;
    state.counters["latency_cycles_min_sm"] = *std::min_element(sm_cycles.begin(), sm_cycles.end());
    state.counters["latency_cycles_max_sm"] = *std::max_element(sm_cycles.begin(), sm_cycles.end());
    state.counters["sms"] = double(sm_cycles.size());
    state.counters["warps_per_block"] = warps;
    state.counters["blocks"] = 1;
    state.counters["iterations"] = iterations;
    report_clocks(state, clock);
    report_context_range(state, fresh);
  });
}

void register_sync(const SuiteConfig& cfg) {
  const int all_sms = cfg.gpu.info().sm_count;
  const std::vector<int> ilps = cfg.quick ? std::vector<int>{1, 8} : std::vector<int>{1, 2, 4, 8};
  const std::vector<int> one_sm_warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 4, 16, 32};
  std::vector<BenchmarkPoint> points, sweep_points;
  for (const PipeOpInfo& info : pipe_ops())
    if (is_warp_collective(info) && !is_reference_only(info.op))
      points.push_back({std::string("Sync/warp/latency/") + info.name,
                        [op = info.op](benchmark::State& st) { pipeline_latency(st, op); }});
  for (const PipeOpInfo& info : pipe_ops()) {
    if (!is_warp_collective(info) || is_reference_only(info.op)) continue;
    std::vector<PipelineShape> shapes;
    for (int warps : one_sm_warps)
      for (int ilp : ilps) shapes.push_back({ilp, warps, 1});
    shapes.push_back({8, 32, all_sms});
    for (const PipelineShape& s : shapes)
      points.push_back({bench_name(std::string("Sync/warp/throughput/") + info.name,
                                   {{"ilp", s.ilp}, {"warps_per_sm", s.warps_per_sm}, {"sms", s.sms}}),
                        [op = info.op, s](benchmark::State& st) { pipeline_throughput(st, op, s); }});
  }
  // Barriers against the block's warps; fences from one warp and from a full block.
  for (const SyncStepInfo& info : sync_steps()) {
    if (info.step == SyncStep::cluster_barrier || info.step == SyncStep::grid_sync) continue;  // below
    std::vector<int> warps = std::string(info.family) == "fence" ? std::vector<int>{1, 32}
                             : cfg.quick                         ? std::vector<int>{2, 32}
                                                                 : std::vector<int>{1, 2, 4, 8, 16, 32};
    for (int w : warps) {
      if (info.needs_two_warps && w % 2 != 0) continue;
      const std::string name =
          bench_name(std::string("Sync/") + info.family + "/" + info.name, {{"warps_per_block", w}});
      if (sync_step_depends_on_sm(info.step))
        sweep_points.push_back(
            {name, [s = info.step, w, q = cfg.quick](benchmark::State& st) { sync_step_every_sm(st, s, w, q); }});
      else
        points.push_back(
            {name, [s = info.step, w, q = cfg.quick](benchmark::State& st) { sync_step(st, s, w, 1, q); }});
    }
  }
  // A cluster barrier against the cluster size, a grid sync against the cooperative grid (up to
  // one block per SM; the blocks run on as many SMs), blocks of 4 warps.
  for (int c : cfg.quick ? std::vector<int>{2, 8} : std::vector<int>{1, 2, 4, 8, 16})
    points.push_back({bench_name("Sync/cluster/cluster_barrier", {{"cluster_size", c}, {"warps_per_block", 4}}),
                      [c, q = cfg.quick](benchmark::State& st) { sync_step(st, SyncStep::cluster_barrier, 4, c, q); }});
  std::vector<int> grids;
  for (int g = 1; g < all_sms; g *= 4) grids.push_back(g);
  grids.push_back(all_sms);
  for (int g : cfg.quick ? std::vector<int>{all_sms} : grids)
    points.push_back({bench_name("Sync/grid/grid_sync", {{"blocks", g}, {"warps_per_block", 4}}),
                      [g, q = cfg.quick](benchmark::State& st) { sync_step(st, SyncStep::grid_sync, 4, g, q); }});
  std::vector<BenchmarkPoint> warp_points, step_points;
  for (BenchmarkPoint& p : points)
    (p.name.rfind("Sync/warp/", 0) == 0 ? warp_points : step_points).push_back(std::move(p));
  register_points("Sync", warp_points, kPipelineBenchIterations,
                  {{"Sync/warp/latency/", {lower("latency_cycles")}},
                   {"Sync/warp/throughput/", {higher("thread_inst_per_clk_per_sm")}}});
  if (!sweep_points.empty()) {  // benchmarks run in the order registered: the last one gives the contexts back
    BenchmarkPoint& last = sweep_points.back();
    last.run = [run = last.run](benchmark::State& st) {
      run(st);
      release_survey_contexts();
    };
  }
  register_points("Sync", sweep_points, cfg.quick ? kQuickSyncSweeps : kSyncSweeps,
                  {{"Sync/fence/", {lower("latency_cycles")}}});
  register_points("Sync", step_points, cfg.quick ? kQuickSyncStepLaunches : kSyncStepLaunches,
                  {{"Sync/bar/", {lower("latency_cycles")}},
                   {"Sync/mbarrier/", {lower("latency_cycles")}},
                   {"Sync/fence/", {lower("latency_cycles")}},
                   {"Sync/cluster/", {lower("latency_cycles")}},
                   {"Sync/grid/", {lower("latency_cycles")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Sync, archbench::register_sync);
