// Energy per operation from the board's own energy counter (NVML's total energy, in mJ): pure
// C++, tested on synthetic traces (tests/unit/test_energy.cpp). docs/energy.md says what each figure
// includes.
//
// The counter is not continuous: it steps when the board's firmware updates it (every 100 ms on
// an H200), so a window's energy is read between two of its updates, never between two arbitrary
// reads. A window's power is the energy between the first and the last update inside it over the
// time between them, each update placed at the middle of the two reads that saw it happen.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace archbench {

// One read of the counter: the host's time (s) and the counter's value (mJ).
struct EnergyRead {
  double t_s = 0;
  double energy_mj = 0;
};

// When the counter changed, from a series of reads in time order.
struct CounterUpdates {
  std::vector<double> t_s;            // each update's estimated time: midway between the reads around it
  std::vector<double> energy_mj;      // the value it changed to
  std::vector<double> uncertainty_s;  // half the time between the reads around it
  double period_s = 0;                // median time between consecutive updates (0 with fewer than 2)
  double period_p10_s = 0, period_p90_s = 0;
  double min_step_mj = 0;      // smallest change seen (the counter's resolution at most)
  double read_interval_s = 0;  // median time between reads: how well an update's time is known
};
CounterUpdates counter_updates(const std::vector<EnergyRead>& reads);

// A window's power from the updates inside [begin_s + lead_s, end_s]: lead_s keeps out an update
// whose interval began before the window (one update period). Only updates whose time is known
// to within `max_uncertainty_s` bound it (0: the median read interval, for reads back to back;
// a meter that reads in bursts around the updates it expects gives its burst's read interval: an
// update that came early is seen only at the next burst).
struct WindowPower {
  double power_w = 0;
  double seconds = 0;  // first to last update used
  double energy_j = 0;
  int intervals = 0;  // update periods between them
};
// nullopt when fewer than `min_intervals` update periods fit.
std::optional<WindowPower> window_power(const CounterUpdates& updates, double begin_s, double end_s, double lead_s,
                                        int min_intervals = 2, double max_uncertainty_s = 0);

// What the clocks did in a window: NVML samples (SM and memory clock, the clock-event reason mask,
// the board's power reading).
struct ClockRead {
  double t_s = 0;
  double sm_clock_mhz = 0, mem_clock_mhz = 0;
  std::uint64_t clock_event_reasons = 0;
  double power_w = 0;
  double temperature_c = 0;
  double memory_power_w = 0;  // the DRAM's own power where the board reports it (a 1-s average)
  double memory_temperature_c = 0;
};
struct WindowClocks {
  double sm_clock_mhz = 0;  // median
  double sm_clock_min_mhz = 0, sm_clock_max_mhz = 0;
  double mem_clock_mhz = 0;               // median
  std::uint64_t clock_event_reasons = 0;  // every reason seen in the window (OR)
  bool throttled = false;                 // a throttling reason in the mask (power cap, thermal, slowdown)
  double power_sample_min_w = 0, power_sample_median_w = 0, power_sample_max_w = 0;
  double temperature_c = 0;                             // median
  double memory_power_w = 0, memory_temperature_c = 0;  // medians (0 where unknown)
  int samples = 0;
};
// `throttle_mask`: the reason bits that mean the clock was held down (not idle, not the
// application clock setting): fixtures/nvml's kThrottleMask.
WindowClocks window_clocks(const std::vector<ClockRead>& reads, double begin_s, double end_s,
                           std::uint64_t throttle_mask);

// --- The differential method ----------------------------------------------------------------------
// Launches that differ only in how many operations of the measured kind they do (the same kernel,
// shape, clock and occupancy; 1x, 2x and 4x the loop's iterations), each run back to back for a
// window: its power P and its time per launch t give the energy per launch E = P t.
struct EnergyVariant {
  double operations = 0;          // per launch
  double power_w = 0;             // over the window
  double seconds_per_launch = 0;  // host wall time per launch, the gaps between launches included
  double joules() const { return power_w * seconds_per_launch; }
};

// E(n) = c + n e_with_static: the slope e_with_static is what one more operation costs at the
// kernel's own rate, the static and constant power of the time it takes included; the launch's
// fixed costs (its set-up, its gaps, its self-check) are the intercept c and cancel. The dynamic
// (incremental) energy removes the rest power over that time as well: the slope of
// E(n) - P_rest t(n), where P_rest is the power of the same shape of resident warps doing nothing
// that counts, at the same clock (AccelWattch's constant and static parts).
struct DifferentialEnergy {
  double pj_per_op = 0;                // dynamic: least-squares slope of E - P_rest t against n
  double pj_per_op_with_static = 0;    // least-squares slope of E against n
  double pj_per_op_all_in = 0;         // E / n of the largest variant: everything the board drew
  double launch_constant_j = 0;        // intercept of E against n
  std::vector<double> pair_pj_per_op;  // dynamic slope of each pair of variants (i < j, in order)
  double pair_spread_pct = 0;          // (max - min) of the pairs over |pj_per_op|, in %
};
// Throws std::invalid_argument with fewer than two variants, or operations that do not differ.
DifferentialEnergy differential_energy(const std::vector<EnergyVariant>& variants, double rest_power_w);

}  // namespace archbench
