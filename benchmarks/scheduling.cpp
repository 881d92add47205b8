// Scheduling: how the GPU runs work over time. So far the clock under sustained load:
//   Scheduling/sustained_clock/ffma/seconds:T     FFMA on every SM for T seconds (quick: 3)
// The SM clock is sampled in the kernel every 100 ms (clock64 against %globaltimer) and NVML
// (clock, power, temperature, clock-event reasons) beside it from the host.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/clock_trace.hpp"
#include "fixtures/registry.hpp"
#include "fixtures/report.hpp"
#include "kernels/sustained.hpp"

namespace archbench {
namespace {

constexpr double kSampleMs = 100;

void sustained_clock(benchmark::State& state, double seconds) {
  guarded(state, [&] {
    const GpuInfo& g = Gpu::current().info();
    SustainedRun run;
    for (auto _ : state) {
      run = run_sustained_ffma(seconds, kSampleMs, g.sm_count * 2, 1024);  // 64 warps per SM
      state.SetIterationTime(run.kernel_seconds);
    }
    std::vector<ClockPoint> points;
    for (const auto& s : run.samples) points.push_back({s.ns, s.cycles});
    const ClockTrace t = summarize_clock(points);
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
  });
}

void register_scheduling(const SuiteConfig& cfg) {
  const double seconds = cfg.quick ? 3 : 30;
  const std::string name = "Scheduling/sustained_clock/ffma/seconds:" + std::to_string(int(seconds));
  register_points("Scheduling", {{name, [seconds](benchmark::State& st) { sustained_clock(st, seconds); }}}, 1);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Scheduling, archbench::register_scheduling);
