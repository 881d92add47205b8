#include "analysis/energy.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analysis/stats.hpp"

namespace archbench {

CounterUpdates counter_updates(const std::vector<EnergyRead>& reads) {
  CounterUpdates u;
  std::vector<double> read_gaps;
  for (std::size_t i = 1; i < reads.size(); ++i) {
    read_gaps.push_back(reads[i].t_s - reads[i - 1].t_s);
    const double step = reads[i].energy_mj - reads[i - 1].energy_mj;
    if (step == 0) continue;
    u.t_s.push_back(0.5 * (reads[i].t_s + reads[i - 1].t_s));
    u.energy_mj.push_back(reads[i].energy_mj);
    u.uncertainty_s.push_back(0.5 * (reads[i].t_s - reads[i - 1].t_s));
    if (step > 0 && (u.min_step_mj == 0 || step < u.min_step_mj)) u.min_step_mj = step;
  }
  if (!read_gaps.empty()) u.read_interval_s = median(read_gaps);
  std::vector<double> periods;
  for (std::size_t i = 1; i < u.t_s.size(); ++i) periods.push_back(u.t_s[i] - u.t_s[i - 1]);
  if (!periods.empty()) {
    u.period_s = median(periods);
    u.period_p10_s = percentile(periods, 10);
    u.period_p90_s = percentile(periods, 90);
  }
  return u;
}

std::optional<WindowPower> window_power(const CounterUpdates& u, double begin_s, double end_s, double lead_s,
                                        int min_intervals, double max_uncertainty_s) {
  const double max_uncertainty = max_uncertainty_s > 0 ? max_uncertainty_s : u.read_interval_s;
  std::size_t first = u.t_s.size(), last = 0;
  for (std::size_t i = 0; i < u.t_s.size(); ++i) {
    if (u.t_s[i] < begin_s + lead_s || u.t_s[i] > end_s) continue;
    if (i < u.uncertainty_s.size() && u.uncertainty_s[i] > max_uncertainty) continue;
    first = std::min(first, i);
    last = i;
  }
  if (first >= u.t_s.size() || int(last - first) < std::max(min_intervals, 1)) return std::nullopt;
  WindowPower w;
  w.seconds = u.t_s[last] - u.t_s[first];
  w.energy_j = (u.energy_mj[last] - u.energy_mj[first]) * 1e-3;
  w.intervals = int(last - first);
  w.power_w = w.seconds > 0 ? w.energy_j / w.seconds : 0;
  return w;
}

WindowClocks window_clocks(const std::vector<ClockRead>& reads, double begin_s, double end_s,
                           std::uint64_t throttle_mask) {
  WindowClocks c;
  std::vector<double> sm, mem, power, temp, mem_power, mem_temp;
  for (const ClockRead& r : reads) {
    if (r.t_s < begin_s || r.t_s > end_s) continue;
    sm.push_back(r.sm_clock_mhz);
    mem.push_back(r.mem_clock_mhz);
    power.push_back(r.power_w);
    temp.push_back(r.temperature_c);
    mem_power.push_back(r.memory_power_w);
    mem_temp.push_back(r.memory_temperature_c);
    c.clock_event_reasons |= r.clock_event_reasons;
  }
  c.samples = int(sm.size());
  if (sm.empty()) return c;
  c.sm_clock_mhz = median(sm);
  c.sm_clock_min_mhz = *std::min_element(sm.begin(), sm.end());
  c.sm_clock_max_mhz = *std::max_element(sm.begin(), sm.end());
  c.mem_clock_mhz = median(mem);
  c.power_sample_min_w = *std::min_element(power.begin(), power.end());
  c.power_sample_median_w = median(power);
  c.power_sample_max_w = *std::max_element(power.begin(), power.end());
  c.temperature_c = median(temp);
  c.memory_power_w = median(mem_power);
  c.memory_temperature_c = median(mem_temp);
  c.throttled = (c.clock_event_reasons & throttle_mask) != 0;
  return c;
}

namespace {

// Least-squares line y = a + b x.
std::pair<double, double> fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  const double mx = mean(x), my = mean(y);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx <= 0) throw std::invalid_argument("energy: the variants do not differ in their number of operations");
  const double b = sxy / sxx;
  return {my - b * mx, b};
}

}  // namespace

DifferentialEnergy differential_energy(const std::vector<EnergyVariant>& v, double rest_power_w) {
  if (v.size() < 2) throw std::invalid_argument("energy: the differential method needs at least two variants");
  std::vector<double> n, e, dyn;
  for (const EnergyVariant& x : v) {
    n.push_back(x.operations);
    e.push_back(x.joules());
    dyn.push_back(x.joules() - rest_power_w * x.seconds_per_launch);
  }
  DifferentialEnergy d;
  const auto [c, slope] = fit_line(n, e);
  d.launch_constant_j = c;
  d.pj_per_op_with_static = slope * 1e12;
  d.pj_per_op = fit_line(n, dyn).second * 1e12;
  const auto largest = std::max_element(n.begin(), n.end()) - n.begin();
  d.pj_per_op_all_in = n[largest] > 0 ? e[largest] / n[largest] * 1e12 : 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = i + 1; j < v.size(); ++j) {
      if (n[j] == n[i]) throw std::invalid_argument("energy: two variants have the same number of operations");
      d.pair_pj_per_op.push_back((dyn[j] - dyn[i]) / (n[j] - n[i]) * 1e12);
    }
  const auto [lo, hi] = std::minmax_element(d.pair_pj_per_op.begin(), d.pair_pj_per_op.end());
  d.pair_spread_pct = d.pj_per_op != 0 ? (*hi - *lo) / std::fabs(d.pj_per_op) * 100 : 0;
  return d;
}

}  // namespace archbench
