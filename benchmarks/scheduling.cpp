// Scheduling: how the GPU runs work over time.
//   Scheduling/timeline/ffma/waves:W/warps_per_block:N   per-warp start/end of W waves of FFMA blocks
//   Scheduling/warp_schedulers/ffma/warps_per_block:32   which warps share an issue scheduler
//   Scheduling/sustained_clock/ffma/seconds:T            FFMA on every SM for T seconds (quick: 1)
//   Scheduling/sustained_clock/wgmma_f16/seconds:T       wgmma f16 on every SM for T seconds (sm_90a)
//   Scheduling/icache/ffma/instructions:S/warps_per_sm:W  a straight-line body of S FFMAs, W warps on one SM
//   Scheduling/icache_geometry/ffma/warps_per_sm:W        the instruction-cache knees of that sweep
// Timelines: every warp records %globaltimer and clock64 at its start and end, %smid, %warpid and
// its block; the counters summarise them (analysis/timeline.hpp) and ARCHBENCH_TIMELINE_CSV=PATH
// writes the raw records (scripts/plot_timeline.py draws one SM). The sustained clock is sampled
// in the kernel every 100 ms (clock64 against %globaltimer) and NVML (clock, power, temperature,
// clock-event reasons) beside it from the host.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/clock_trace.hpp"
#include "analysis/scheduler_map.hpp"
#include "analysis/stats.hpp"
#include "analysis/timeline.hpp"
#include "analysis/icache.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/runners/scheduling_side_files.hpp"
#include "fixtures/runners/sustained_run.hpp"
#include "kernels/icache.hpp"
#include "fixtures/runners/tensor_runner.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "kernels/scheduling.hpp"

namespace archbench {
namespace {

constexpr double kSampleMs = 100;

void report_sustained(benchmark::State& state, const SustainedRun& run, const std::string& kernel) {
  write_clock_trace_csv(run, kernel);
  std::vector<ClockPoint> points;
  for (const auto& s : run.samples) points.push_back({s.ns, s.cycles});
  // The initial clock is the first second's, or the first half's in a run shorter than 2 s (a
  // quick run's 1 s).
  const double run_seconds = points.size() > 1 ? double(points.back().ns - points.front().ns) * 1e-9 : 0;
  const ClockTrace t = summarize_clock(points, std::min(1.0, run_seconds / 2));
  state.counters["sm_clock_initial_mhz"] = t.initial_mhz;
  state.counters["sm_clock_sustained_mhz"] = t.sustained_mhz;
  state.counters["sm_clock_min_mhz"] = t.min_mhz;
  state.counters["sm_clock_max_mhz"] = t.max_mhz;
  state.counters["sm_clock_drop_pct"] = t.drop_pct;
  state.counters["seconds"] = t.seconds;
  state.counters["clock_samples"] = double(run.samples.size());
  state.counters["flops"] = run.kernel_seconds > 0 ? run.flop / run.kernel_seconds : 0;
  if (!run.nvml.empty()) {
    double power_sum = 0, power_max = 0, temp_max = 0, clock_min = 1e300;
    std::uint64_t reasons = 0;
    for (const auto& n : run.nvml) {
      power_sum += n.power_w;
      power_max = std::max(power_max, n.power_w);
      temp_max = std::max(temp_max, n.temperature_c);
      clock_min = std::min(clock_min, n.sm_clock_mhz);
      reasons |= n.clock_event_reasons;
    }
    state.counters["nvml_samples"] = double(run.nvml.size());
    state.counters["power_mean_w"] = power_sum / double(run.nvml.size());
    state.counters["power_max_w"] = power_max;
    state.counters["temp_start_c"] = run.nvml.front().temperature_c;
    state.counters["temp_end_c"] = run.nvml.back().temperature_c;
    state.counters["temp_max_c"] = temp_max;
    state.counters["nvml_sm_clock_min_mhz"] = clock_min;
    state.counters["clock_event_reasons_any"] = double(reasons);
  }
  report_clocks(state, t.sustained_mhz);
}

void sustained_clock(benchmark::State& state, double seconds) {
  guarded(state, [&] {
    const GpuInfo& g = Gpu::current().info();
    SustainedRun run;
    timed_loop(state, [&] {
      // Every SM full in one wave (64 warps per SM on an H100): a second wave would go unsampled.
      run = sustained_ffma_with_nvml(seconds, kSampleMs, g.sm_count * std::max(1, g.max_threads_per_sm / 1024), 1024);
      return run.kernel_seconds;
    });
    report_sustained(state, run, "ffma");
  });
}

// wgmma f16 (m64n256k16, A and B in shared memory, random data, 2 warpgroups on every SM) in
// back-to-back launches of about kSampleMs each: every launch's clock64 / %globaltimer window is
// one sample of the SM clock, NVML is sampled after each.
void sustained_clock_wgmma(benchmark::State& state, double seconds) {
  if (const auto why = wgmma_unsupported()) return skip(state, *why);
  guarded(state, [&] {
    const GpuInfo& g = Gpu::current().info();
    const WgmmaShape shape{WgmmaMode::ss, 2, g.sm_count};
    constexpr int kN = 256;
    const double flop_per_warp_per_iteration = wgmma_flop(WgmmaType::f16_f32, kN) * kWgmmaPerIteration / 4.0;
    constexpr std::uint32_t kTrial = 64;
    const auto trial = run_wgmma(wgmma_throughput_launch(WgmmaType::f16_f32, kN, shape, kTrial, TensorFill::random));
    const double trial_ns = summarize_throughput(trial.warps, 1).gpu_window_ns;
    const auto iterations = std::uint32_t(std::clamp(kTrial * kSampleMs * 1e6 / std::max(trial_ns, 1.0), 1.0, 1e8));
    const WgmmaLaunch launch = wgmma_throughput_launch(WgmmaType::f16_f32, kN, shape, iterations, TensorFill::random);
    SustainedRun run;
    timed_loop(state, [&] {
      run = SustainedRun{};
      const auto start = std::chrono::steady_clock::now();
      double ns = 0, cycles = 0;
      run.samples.push_back({0, 0});
      while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
        const WgmmaResult r = run_wgmma(launch);
        const ThroughputSummary t = summarize_throughput(r.warps, flop_per_warp_per_iteration * iterations);
        ns += t.gpu_window_ns;
        cycles += t.gpu_window_ns * t.sm_clock_mhz * 1e-3;
        run.samples.push_back({std::uint64_t(ns), std::uint64_t(cycles)});
        run.flop += t.total_work;
        if (const auto s = Gpu::current().nvml().sample()) {
          run.nvml.push_back(*s);
          run.host_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
      }
      run.kernel_seconds = ns * 1e-9;
      return run.kernel_seconds;
    });
    state.counters["iterations_per_launch"] = iterations;
    report_sustained(state, run, "wgmma_f16");
  });
}

void timeline(benchmark::State& state, int waves, int warps_per_block) {
  guarded(state, [&] {
    const GpuInfo& g = Gpu::current().info();
    const int threads = 32 * warps_per_block;
    const int resident = ffma_timeline_resident_blocks(threads);
    const int blocks = waves * resident * g.sm_count;
    constexpr std::uint32_t kChunks = 64;  // about 1 ms per wave on a full H100 SM
    std::vector<WarpRecord> warps;
    std::vector<TimelineSummary> runs;
    timed_loop(state, [&] {
      warps = run_ffma_timeline(blocks, threads, kChunks);
      runs.push_back(summarize_timeline(warps));
      return runs.back().makespan_ns * 1e-9;
    });
    write_timeline_csv(warps);
    state.counters["makespan_ns"] = median_of(runs, [](const auto& t) { return t.makespan_ns; });
    state.counters["sm_start_skew_ns"] = median_of(runs, [](const auto& t) { return t.sm_start_skew_ns; });
    state.counters["block_finish_spread_ns"] = median_of(runs, [](const auto& t) { return t.block_finish_spread_ns; });
    state.counters["block_finish_spread_max_ns"] =
        median_of(runs, [](const auto& t) { return t.block_finish_spread_max_ns; });
    state.counters["last_warp_finish_spread_ns"] =
        median_of(runs, [](const auto& t) { return t.last_warp_finish_spread_ns; });
    state.counters["coresident_blocks_per_sm"] =
        median_of(runs, [](const auto& t) { return double(t.max_coresident_blocks_per_sm); });
    state.counters["occupancy_blocks_per_sm"] = resident;
    state.counters["waves_measured"] = median_of(runs, [](const auto& t) { return t.waves; });
    state.counters["blocks"] = blocks;
    state.counters["warps_per_block"] = warps_per_block;
    state.counters["sms"] = runs.back().sms_used;
    double cycles = 0, ns = 0;
    for (const WarpRecord& w : warps) {
      cycles += double(w.end_cycles - w.start_cycles);
      ns += double(w.end_ns - w.start_ns);
    }
    report_clocks(state, ns > 0 ? cycles * 1e3 / ns : 0);
  });
}

// Which warps share an issue scheduler: every pair of a 32-warp block run alone together, each
// able to issue every cycle; a pair that shares a scheduler takes about twice as long.
void warp_schedulers(benchmark::State& state, int warps) {
  guarded(state, [&] {
    constexpr std::uint32_t kChunks = 8;
    std::vector<PairSlowdown> pairs;
    std::vector<double> alone(warps);
    bool warpid_is_index = true;
    double ffma_per_clk = 0;
    timed_loop(state, [&] {
      const auto start = std::chrono::steady_clock::now();
      pairs.clear();
      for (int w = 0; w < warps; ++w) {
        const WarpPairTiming t = run_ffma_pair(warps, w, w, kChunks);
        alone[w] = t.cycles_a;
        warpid_is_index = warpid_is_index && t.warpid_a == std::uint32_t(w);
      }
      for (int a = 0; a < warps; ++a)
        for (int b = a + 1; b < warps; ++b) {
          const WarpPairTiming t = run_ffma_pair(warps, a, b, kChunks);
          pairs.push_back({a, b, std::max(t.cycles_a / alone[a], t.cycles_b / alone[b])});
        }
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
    ffma_per_clk =
        32.0 * kChunks * kFfmaStepsPerChunk * kFfmaChains / median(alone);  // thread FFMA per clock, one warp alone
    write_pairs_csv(pairs);
    const SchedulerMap m = infer_scheduler_map(pairs, warps);
    state.counters["schedulers"] = m.groups;
    state.counters["mapping_modulus"] = m.modulus;
    state.counters["sharing_slowdown"] = m.sharing_slowdown;
    state.counters["separate_slowdown"] = m.separate_slowdown;
    state.counters["confidence"] = m.confidence;
    state.counters["warpid_is_warp_index"] = warpid_is_index ? 1 : 0;
    state.counters["single_warp_ffma_per_clk"] = ffma_per_clk;
    state.counters["pairs"] = double(pairs.size());
    report_clocks(state, 0);
  });
}

// --- Instruction cache ---------------------------------------------------------------------

struct IcachePoint {
  double cycles_per_instruction = 0;  // per warp: its timed passes / their instructions (median over warps, then SMs)
  double cycles_per_instruction_sm_min = 0, cycles_per_instruction_sm_max = 0;  // over the SMs measured
  double instructions_per_clk_per_sm = 0;
  double sm_clock_mhz = 0;
  std::uint32_t iterations = 0;
};

// The SMs an i-cache point runs on, one after the other: 16 spread over the GPU. Bodies that
// outgrow the SM's own instruction caches are fetched from caches shared further out, and the
// cost differs by SM (2.01 against 2.39 cycles per instruction at 48 KiB on two boards' reference
// SMs): the median over SMs is the same on every board.
std::vector<std::uint32_t> icache_sms() {
  const int sms = Gpu::current().info().sm_count;
  std::vector<std::uint32_t> out;
  for (int i = 0; i < std::min(16, sms); ++i) out.push_back(std::uint32_t(i * sms / std::min(16, sms)));
  return out;
}

IcachePoint measure_icache(int instructions, int warps) {
  // About 400k instructions per warp after the untimed first pass (0.2 ms at one per cycle).
  const auto iterations = std::uint32_t(std::max(4, 1 + 400000 / instructions));
  std::vector<double> cpi_per_sm, ipc_per_sm, mhz_per_sm;
  for (std::uint32_t sm : icache_sms()) {
    const auto timings = run_icache(instructions, warps, iterations, sm);
    std::vector<double> cpi, mhz;
    std::uint64_t first = ~std::uint64_t(0), last = 0;
    for (const WarpTiming& w : timings) {
      const double cycles = double(w.end_cycles - w.start_cycles);
      cpi.push_back(cycles / (double(iterations - 1) * instructions));
      if (w.end_ns > w.start_ns) mhz.push_back(cycles * 1e3 / double(w.end_ns - w.start_ns));
      first = std::min(first, w.start_cycles);
      last = std::max(last, w.end_cycles);
    }
    cpi_per_sm.push_back(median(cpi));
    ipc_per_sm.push_back(double(warps) * (iterations - 1) * instructions / double(last - first));
    if (!mhz.empty()) mhz_per_sm.push_back(median(mhz));
  }
  IcachePoint p;
  p.cycles_per_instruction = median(cpi_per_sm);
  p.cycles_per_instruction_sm_min = *std::min_element(cpi_per_sm.begin(), cpi_per_sm.end());
  p.cycles_per_instruction_sm_max = *std::max_element(cpi_per_sm.begin(), cpi_per_sm.end());
  p.instructions_per_clk_per_sm = median(ipc_per_sm);
  p.sm_clock_mhz = mhz_per_sm.empty() ? 0 : median(mhz_per_sm);
  p.iterations = iterations;
  return p;
}

void report_icache_point(benchmark::State& state, int instructions, const std::vector<IcachePoint>& runs) {
  state.counters["cycles_per_instruction"] = median_of(runs, [](const auto& p) { return p.cycles_per_instruction; });
  state.counters["cycles_per_instruction_sm_min"] =
      median_of(runs, [](const auto& p) { return p.cycles_per_instruction_sm_min; });
  state.counters["cycles_per_instruction_sm_max"] =
      median_of(runs, [](const auto& p) { return p.cycles_per_instruction_sm_max; });
  state.counters["sms_measured"] = double(icache_sms().size());
  state.counters["instructions_per_clk_per_sm"] =
      median_of(runs, [](const auto& p) { return p.instructions_per_clk_per_sm; });
  state.counters["body_instructions"] = instructions;
  state.counters["body_bytes"] = double(instructions) * kSassInstructionBytes;
  state.counters["iterations"] = runs.back().iterations;
  report_clocks(state, median_of(runs, [](const auto& p) { return p.sm_clock_mhz; }));
}

void icache(benchmark::State& state, int instructions, int warps) {
  guarded(state, [&] {
    std::vector<IcachePoint> runs;
    timed_loop(state, [&] {
      const auto start = std::chrono::steady_clock::now();
      runs.push_back(measure_icache(instructions, warps));
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
    state.counters["warps_per_sm"] = warps;
    report_icache_point(state, instructions, runs);
  });
}

// Net cycles per instruction against the body's bytes: plateaus while the body fits a cache, a
// step where it outgrows it (analysis/icache.hpp).
void icache_geometry(benchmark::State& state, int warps) {
  guarded(state, [&] {
    std::vector<IcacheSample> samples;
    double mhz = 0;
    timed_loop(state, [&] {
      return wall_seconds([&] {
        samples.clear();
        for (int n : kIcacheInstructions) {
          std::vector<IcachePoint> runs;  // median of 3, as the icache benchmarks report
          for (int i = 0; i < 3; ++i) runs.push_back(measure_icache(n, warps));
          samples.push_back({double(n), median_of(runs, [](const auto& p) { return p.cycles_per_instruction; })});
          mhz = runs.back().sm_clock_mhz;
        }
      });
    });
    const IcacheLevels r = infer_icache_levels(samples, kSassInstructionBytes);
    state.counters["levels"] = double(r.levels.size());
    state.counters["loop_overhead_cycles"] = r.loop_overhead_cycles;
    state.counters["base_cycles_per_instruction"] = r.net.front().y;
    state.counters["largest_body_cycles_per_instruction"] = r.net.back().y;
    for (std::size_t i = 0; i < r.levels.size(); ++i) {
      const std::string l = "level" + std::to_string(i + 1) + "_";
      state.counters[l + "capacity_bytes"] = r.levels[i].reach;
      state.counters[l + "next_body_bytes"] = r.levels[i].next_footprint;
      state.counters[l + "hit_cycles_per_instruction"] = r.levels[i].hit_cycles;
      state.counters[l + "miss_cycles_per_instruction"] = r.levels[i].hit_cycles + r.levels[i].miss_penalty_cycles;
      state.counters[l + "confidence"] = r.levels[i].confidence;
    }
    state.counters["warps_per_sm"] = warps;
    report_clocks(state, mhz);
  });
}

// The timeline's co-residency and the scheduler count are values; the sustained clock is the
// board's own (MHz, higher is better); the instruction cache, cycles per instruction.
const std::vector<MetricRule> kSchedulingMetrics = {
    {"Scheduling/timeline/", {value("coresident_blocks_per_sm", 0)}},
    {"Scheduling/warp_schedulers/", {value("schedulers", 0)}},
    {"Scheduling/sustained_clock/", {higher("sm_clock_sustained_mhz")}},
    {"Scheduling/icache/", {lower("cycles_per_instruction")}},
    {"Scheduling/icache_geometry/", {value("level1_capacity_bytes", 10)}}};

void register_scheduling(const SuiteConfig& cfg) {
  std::vector<BenchmarkPoint> points;
  for (int warps : cfg.quick ? std::vector<int>{8} : std::vector<int>{4, 8, 32})
    points.push_back({bench_name("Scheduling/timeline/ffma", {{"waves", 3}, {"warps_per_block", warps}}),
                      [warps](benchmark::State& st) { timeline(st, 3, warps); }});
  register_points("Scheduling", points, 3, kSchedulingMetrics);
  register_points(
      "Scheduling",
      {{"Scheduling/warp_schedulers/ffma/warps_per_block:32", [](benchmark::State& st) { warp_schedulers(st, 32); }}},
      1, kSchedulingMetrics);
  // One long launch: its own 100 ms intervals are the repetitions.
  const double seconds = cfg.sustained_seconds;
  register_points("Scheduling",
                  {{bench_name("Scheduling/sustained_clock/ffma", {{"seconds", int(seconds)}}),
                    [seconds](benchmark::State& st) { sustained_clock(st, seconds); }},
                   {bench_name("Scheduling/sustained_clock/wgmma_f16", {{"seconds", int(seconds)}}),
                    [seconds](benchmark::State& st) { sustained_clock_wgmma(st, seconds); },
                    {},
                    wgmma_unsupported_on(cfg.gpu.info().cc())}},
                  1, kSchedulingMetrics);
  // Instruction cache: one warp (one scheduler's L0), one per scheduler, and a full SM.
  std::vector<BenchmarkPoint> icache_points;
  for (int warps : cfg.quick ? std::vector<int>{1} : std::vector<int>{1, 4, 32}) {
    for (int n : kIcacheInstructions)
      if (!cfg.quick || n == kIcacheInstructions[0] || n == 16384)
        icache_points.push_back({bench_name("Scheduling/icache/ffma", {{"instructions", n}, {"warps_per_sm", warps}}),
                                 [n, warps](benchmark::State& st) { icache(st, n, warps); }});
  }
  register_points("Scheduling", icache_points, 3, kSchedulingMetrics);
  std::vector<BenchmarkPoint> geometry;
  for (int warps : cfg.quick ? std::vector<int>{1} : std::vector<int>{1, 4})
    geometry.push_back({bench_name("Scheduling/icache_geometry/ffma", {{"warps_per_sm", warps}}),
                        [warps](benchmark::State& st) { icache_geometry(st, warps); }});
  register_points("Scheduling", geometry, 1, kSchedulingMetrics);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Scheduling, archbench::register_scheduling);
