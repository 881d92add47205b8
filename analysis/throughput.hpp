// Rates from per-warp timings (pure C++, unit-tested on synthetic timings).
//
// Per SM, the busy window is first start to last end of its warps in that SM's own clock64, so
// launch skew between SMs does not count against the SM's pipelines; the GPU-wide window is first
// start to last end in %globaltimer, which is what a user of the whole GPU gets.
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"

namespace archbench {

struct ThroughputSummary {
  int sms_used = 0;
  int max_warps_per_sm = 0;     // warps that ran on the busiest SM
  double per_sm_rate_mean = 0;  // work units per clock per SM, mean over the SMs used
  double per_sm_rate_min = 0, per_sm_rate_median = 0, per_sm_rate_max = 0;
  double total_work = 0;     // work units over the whole grid
  double gpu_window_ns = 0;  // first start .. last end, %globaltimer
  double sm_clock_mhz = 0;   // median over warps of clock64 delta / globaltimer delta
  double work_per_second() const { return gpu_window_ns > 0 ? total_work * 1e9 / gpu_window_ns : 0; }
};

// work_per_warp: units of work each warp did (for example thread-instructions = 32 x steps).
// Throws std::invalid_argument on an empty list or a warp whose end precedes its start.
ThroughputSummary summarize_throughput(const std::vector<WarpTiming>& warps, double work_per_warp);
// Warps that did different amounts of work (work_of_warp[i] for warps[i]: claimed chunks).
ThroughputSummary summarize_throughput(const std::vector<WarpTiming>& warps, const std::vector<double>& work_of_warp);
// Each SM's rate (its work over its own window, work units per clock) by SM id, 0 for an SM with
// no warp; ids at or above sm_count are left out.
std::vector<double> rate_by_sm(const std::vector<WarpTiming>& warps, const std::vector<double>& work_of_warp,
                               std::size_t sm_count);

// Dependent-chain latency by the slope between two loop bodies of different length, so that the
// loop overhead and the timer reads cancel: cycles(n) = iterations x (n x latency + overhead).
struct SlopeLatency {
  double latency_cycles = 0;        // per step
  double loop_overhead_cycles = 0;  // per loop iteration (the intercept)
  double raw_cycles = 0;            // long-body cycles / its steps, overhead included
};
SlopeLatency slope_latency(double short_cycles, double short_steps_per_iteration, double long_cycles,
                           double long_steps_per_iteration, double iterations);

}  // namespace archbench
