#include "analysis/throughput.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>

#include "analysis/stats.hpp"

namespace archbench {

ThroughputSummary summarize_throughput(const std::vector<WarpTiming>& warps, double work_per_warp) {
  return summarize_throughput(warps, std::vector<double>(warps.size(), work_per_warp));
}

ThroughputSummary summarize_throughput(const std::vector<WarpTiming>& warps, const std::vector<double>& work_of_warp) {
  if (warps.empty()) throw std::invalid_argument("summarize_throughput: no warp timings");
  if (work_of_warp.size() != warps.size())
    throw std::invalid_argument("summarize_throughput: one work figure per warp");
  struct SmWindow {
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
    int warps = 0;
    double work = 0;
  };
  std::map<std::uint32_t, SmWindow> sms;
  std::uint64_t first_ns = std::numeric_limits<std::uint64_t>::max(), last_ns = 0;
  std::vector<double> clocks;
  double total = 0;
  for (std::size_t i = 0; i < warps.size(); ++i) {
    const WarpTiming& w = warps[i];
    if (w.end_cycles < w.start_cycles || w.end_ns < w.start_ns)
      throw std::invalid_argument("summarize_throughput: a warp ends before it starts");
    SmWindow& s = sms[w.smid];
    s.first = std::min(s.first, w.start_cycles);
    s.last = std::max(s.last, w.end_cycles);
    ++s.warps;
    s.work += work_of_warp[i];
    total += work_of_warp[i];
    first_ns = std::min(first_ns, w.start_ns);
    last_ns = std::max(last_ns, w.end_ns);
    if (w.end_ns > w.start_ns)
      clocks.push_back(double(w.end_cycles - w.start_cycles) * 1e3 / double(w.end_ns - w.start_ns));
  }
  ThroughputSummary r;
  r.sms_used = static_cast<int>(sms.size());
  r.total_work = total;
  r.gpu_window_ns = double(last_ns - first_ns);
  r.sm_clock_mhz = clocks.empty() ? 0.0 : median(clocks);
  r.per_sm_rate_min = std::numeric_limits<double>::infinity();
  double sum = 0;
  std::vector<double> rates;
  for (const auto& [id, s] : sms) {
    r.max_warps_per_sm = std::max(r.max_warps_per_sm, s.warps);
    const double cycles = double(s.last - s.first);
    const double rate = cycles > 0 ? s.work / cycles : 0.0;
    sum += rate;
    rates.push_back(rate);
    r.per_sm_rate_min = std::min(r.per_sm_rate_min, rate);
    r.per_sm_rate_max = std::max(r.per_sm_rate_max, rate);
  }
  r.per_sm_rate_mean = sum / double(sms.size());
  r.per_sm_rate_median = median(rates);
  return r;
}

SlopeLatency slope_latency(double short_cycles, double short_steps, double long_cycles, double long_steps,
                           double iterations) {
  if (!(long_steps > short_steps) || !(iterations > 0))
    throw std::invalid_argument("slope_latency: needs long_steps > short_steps and iterations > 0");
  SlopeLatency r;
  r.latency_cycles = (long_cycles - short_cycles) / ((long_steps - short_steps) * iterations);
  r.loop_overhead_cycles = short_cycles / iterations - short_steps * r.latency_cycles;
  r.raw_cycles = long_cycles / (long_steps * iterations);
  return r;
}

}  // namespace archbench
