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

namespace {

// Each SM's window (its first warp's start to its last warp's end, in its own clock) and work.
struct SmWindow {
  std::uint64_t first = std::numeric_limits<std::uint64_t>::max(), last = 0;
  int warps = 0;
  double work = 0;
  double rate() const { return last > first ? work / double(last - first) : 0.0; }
};

std::map<std::uint32_t, SmWindow> sm_windows(const std::vector<WarpTiming>& warps,
                                             const std::vector<double>& work_of_warp) {
  if (warps.empty()) throw std::invalid_argument("summarize_throughput: no warp timings");
  if (work_of_warp.size() != warps.size())
    throw std::invalid_argument("summarize_throughput: one work figure per warp");
  std::map<std::uint32_t, SmWindow> sms;
  for (std::size_t i = 0; i < warps.size(); ++i) {
    const WarpTiming& w = warps[i];
    if (w.end_cycles < w.start_cycles || w.end_ns < w.start_ns)
      throw std::invalid_argument("summarize_throughput: a warp ends before it starts");
    SmWindow& s = sms[w.smid];
    s.first = std::min(s.first, w.start_cycles);
    s.last = std::max(s.last, w.end_cycles);
    ++s.warps;
    s.work += work_of_warp[i];
  }
  return sms;
}

}  // namespace

std::vector<double> rate_by_sm(const std::vector<WarpTiming>& warps, const std::vector<double>& work_of_warp,
                               std::size_t sm_count) {
  std::vector<double> rates(sm_count, 0.0);
  for (const auto& [id, s] : sm_windows(warps, work_of_warp))
    if (id < sm_count) rates[id] = s.rate();
  return rates;
}

ThroughputSummary summarize_throughput(const std::vector<WarpTiming>& warps, const std::vector<double>& work_of_warp) {
  const std::map<std::uint32_t, SmWindow> sms = sm_windows(warps, work_of_warp);
  std::uint64_t first_ns = std::numeric_limits<std::uint64_t>::max(), last_ns = 0;
  std::vector<double> clocks;
  double total = 0;
  for (std::size_t i = 0; i < warps.size(); ++i) {
    const WarpTiming& w = warps[i];
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
    const double rate = s.rate();
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
