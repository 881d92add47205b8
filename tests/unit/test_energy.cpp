// Energy's method on synthetic traces (analysis/energy.hpp): a counter that steps every period by
// the energy of the interval, read every few milliseconds; windows around a change of power; a
// throttled window; the differential method on variants with a known cost per operation.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <vector>

#include "analysis/energy.hpp"
#include "fixtures/harness/registry.hpp"

namespace archbench {
namespace {

// A counter that posts, every `period`, the energy up to `delay` before the update (whole mJ, as
// NVML reports it), read every `read_s` from 0 to `until_s`; power_w(t) is the board's power.
std::vector<EnergyRead> counter_trace(const std::function<double(double)>& power_w, double period, double read_s,
                                      double until_s, double delay = 0) {
  constexpr double dt = 1e-4;          // the integration step
  std::vector<double> integral_mj{0};  // at k dt
  for (double t = 0; t <= until_s + dt; t += dt) integral_mj.push_back(integral_mj.back() + power_w(t) * dt * 1e3);
  const auto energy_at = [&](double t) { return t <= 0 ? 0.0 : integral_mj[std::size_t(t / dt)]; };
  std::vector<EnergyRead> reads;
  for (double t = 0; t <= until_s; t += read_s) {
    const double last_update = std::floor(t / period) * period;
    reads.push_back({t, 1e6 + std::floor(energy_at(last_update - delay))});
  }
  return reads;
}

TEST(Energy, CounterUpdatesFindThePeriodAndTheStep) {
  const auto reads = counter_trace([](double) { return 130.0; }, 0.1, 0.0033, 2.0);
  const CounterUpdates u = counter_updates(reads);
  EXPECT_NEAR(u.period_s, 0.1, 0.004);
  EXPECT_NEAR(u.read_interval_s, 0.0033, 1e-4);
  EXPECT_NEAR(u.min_step_mj, 13000, 20);  // 130 W for 100 ms
  EXPECT_GE(u.t_s.size(), 18u);
  // Each update is placed within half a read of when it happened.
  for (double t : u.t_s) EXPECT_NEAR(std::remainder(t, 0.1), 0.0, 0.0033);
}

TEST(Energy, WindowPowerReadsOnlyTheUpdatesInside) {
  // 100 W, then 400 W from 1 s to 3 s, then 100 W again.
  const auto power = [](double t) { return t >= 1.0 && t < 3.0 ? 400.0 : 100.0; };
  // The counter posts the energy up to 80 ms before each update.
  const CounterUpdates u = counter_updates(counter_trace(power, 0.1, 0.003, 4.0, 0.08));
  const auto w = window_power(u, 1.0, 3.0, 0.125);
  ASSERT_TRUE(w.has_value());
  EXPECT_NEAR(w->power_w, 400.0, 4.0);
  EXPECT_GE(w->intervals, 17);
  // Without the lead, the first update's interval began before the window (at 100 W).
  const auto early = window_power(u, 0.99, 3.0, 0.0);
  ASSERT_TRUE(early.has_value());
  EXPECT_LT(early->power_w, 390.0);
  // A window shorter than the updates it needs has no power.
  EXPECT_FALSE(window_power(u, 1.0, 1.25, 0.125, 2).has_value());
}

TEST(Energy, AnUpdateSeenLateDoesNotBoundAWindow) {
  // Read in bursts from 10 ms before each expected update, as the meter does: every update's time
  // is known to a read. Then one is made uncertain, as if it had come early and been seen only at
  // the next burst, a period later.
  const auto power = [](double) { return 200.0; };
  std::vector<EnergyRead> reads;
  const auto dense = counter_trace(power, 0.1, 0.0025, 3.0);
  for (const EnergyRead& r : dense) {
    const double phase = std::remainder(r.t_s, 0.1);
    if (phase > -0.010 && phase < 0.004) reads.push_back(r);
  }
  const CounterUpdates u = counter_updates(reads);
  ASSERT_GE(u.t_s.size(), 25u);
  for (double h : u.uncertainty_s) EXPECT_LT(h, 0.05);
  CounterUpdates gap = u;
  gap.uncertainty_s[gap.uncertainty_s.size() - 1] = 0.045;
  const auto with = window_power(u, 0.0, 3.0, 0.125);
  const auto without = window_power(gap, 0.0, 3.0, 0.125);
  ASSERT_TRUE(with && without);
  EXPECT_EQ(without->intervals, with->intervals - 1);
  EXPECT_NEAR(without->power_w, 200.0, 2.0);
}

TEST(Energy, ThrottledWindowIsFlaggedByItsOwnReasonsOnly) {
  std::vector<ClockRead> reads;
  for (int i = 0; i < 100; ++i) {
    const double t = i * 0.01;
    const bool capped = t >= 0.5;  // from 0.5 s the power cap holds the clock down
    reads.push_back({t, capped ? 1650.0 : 1980.0, 3201, capped ? 0x4u : 0x0u, capped ? 700.0 : 500.0, 60});
  }
  constexpr std::uint64_t kMask = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;
  const WindowClocks cool = window_clocks(reads, 0.0, 0.45, kMask);
  EXPECT_FALSE(cool.throttled);
  EXPECT_DOUBLE_EQ(cool.sm_clock_mhz, 1980);
  const WindowClocks hot = window_clocks(reads, 0.3, 0.99, kMask);
  EXPECT_TRUE(hot.throttled);
  EXPECT_EQ(hot.clock_event_reasons, 0x4u);
  EXPECT_DOUBLE_EQ(hot.sm_clock_min_mhz, 1650);
  EXPECT_DOUBLE_EQ(hot.power_sample_max_w, 700);
  // Idle (0x1) is not throttling.
  reads.assign(10, ClockRead{0.1, 345, 3201, 0x1, 80, 30});
  EXPECT_FALSE(window_clocks(reads, 0, 1, kMask).throttled);
}

// Variants of a kernel at a fixed rate: t(n) = t0 + n / rate; P t = P_rest t + e n + c.
std::vector<EnergyVariant> variants(double e_pj, double rest_w, double constant_j, double rate, double t0,
                                    const std::vector<double>& noise = {0, 0, 0}) {
  std::vector<EnergyVariant> v;
  int i = 0;
  for (double n : {1e12, 2e12, 4e12}) {
    const double t = t0 + n / rate;
    const double joules = (rest_w * t + e_pj * 1e-12 * n + constant_j) * (1 + noise[i++]);
    v.push_back({n, joules / t, t});
  }
  return v;
}

TEST(Energy, DifferentialRecoversTheDynamicCostAndCancelsTheLaunch) {
  const auto v = variants(/*e_pj=*/9.0, /*rest_w=*/150, /*constant_j=*/0.02, /*rate=*/33e12, /*t0=*/2e-4);
  const DifferentialEnergy d = differential_energy(v, 150);
  EXPECT_NEAR(d.pj_per_op, 9.0, 1e-6);
  // With the static part: 150 W over 1/33e12 s per op = 4.55 pJ more.
  EXPECT_NEAR(d.pj_per_op_with_static, 9.0 + 150 / 33e12 * 1e12, 1e-6);
  EXPECT_NEAR(d.launch_constant_j, 0.02 + 150 * 2e-4, 1e-9);
  EXPECT_GT(d.pj_per_op_all_in, d.pj_per_op_with_static);
  ASSERT_EQ(d.pair_pj_per_op.size(), 3u);
  for (double p : d.pair_pj_per_op) EXPECT_NEAR(p, 9.0, 1e-6);
  EXPECT_NEAR(d.pair_spread_pct, 0.0, 1e-6);
}

TEST(Energy, PairSpreadShowsANoisyWindow) {
  // The 2x window read 1 % high: the pairs that use it disagree, the widest pair does not.
  const auto v = variants(9.0, 150, 0.02, 33e12, 2e-4, {0, 0.01, 0});
  const DifferentialEnergy d = differential_energy(v, 150);
  EXPECT_NEAR(d.pair_pj_per_op[1], 9.0, 1e-6);  // 1x and 4x: pairs are (1x,2x), (1x,4x), (2x,4x)
  EXPECT_GT(d.pair_spread_pct, 3.0);
}

TEST(Energy, DifferentialRefusesWhatCannotBeSeparated) {
  EXPECT_THROW(differential_energy({{1e9, 100, 1}}, 50), std::invalid_argument);
  EXPECT_THROW(differential_energy({{1e9, 100, 1}, {1e9, 100, 1}}, 50), std::invalid_argument);
}

TEST(Energy, OnlyARunThatNamesItRegistersAFeatureOnRequest) {
  const Feature energy{"Energy", nullptr, /*on_request=*/true};
  const Feature latency{"MemLatency", nullptr, false};
  EXPECT_FALSE(feature_selected(energy, "", {}, ""));
  EXPECT_TRUE(feature_selected(latency, "", {}, ""));
  EXPECT_TRUE(feature_selected(energy, "", {}, "^Energy/op/"));
  EXPECT_TRUE(feature_selected(energy, "Energy", {}, ""));
  EXPECT_FALSE(feature_selected(energy, "", {"Energy"}, "Energy"));
  EXPECT_FALSE(feature_selected(latency, "Energy", {}, ""));
}

}  // namespace
}  // namespace archbench
