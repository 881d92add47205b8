#include "analysis/timeline.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "analysis/stats.hpp"

namespace archbench {

TimelineSummary summarize_timeline(const std::vector<WarpRecord>& warps) {
  if (warps.empty()) throw std::invalid_argument("timeline: no warps");
  TimelineSummary s;
  std::uint64_t first = UINT64_MAX, last = 0, first_end = UINT64_MAX;
  std::map<std::uint32_t, std::uint64_t> sm_first_start;
  struct Span {
    std::uint64_t start = UINT64_MAX, end = 0, first_end = UINT64_MAX;
    std::uint32_t smid = 0;
  };
  std::map<std::uint32_t, Span> blocks;
  for (const WarpRecord& w : warps) {
    if (w.end_ns < w.start_ns) throw std::invalid_argument("timeline: a warp ends before it starts");
    first = std::min(first, w.start_ns);
    last = std::max(last, w.end_ns);
    first_end = std::min(first_end, w.end_ns);
    auto [it, fresh] = sm_first_start.emplace(w.smid, w.start_ns);
    if (!fresh) it->second = std::min(it->second, w.start_ns);
    Span& b = blocks[w.block];
    b.start = std::min(b.start, w.start_ns);
    b.end = std::max(b.end, w.end_ns);
    b.first_end = std::min(b.first_end, w.end_ns);
    b.smid = w.smid;
  }
  s.makespan_ns = double(last - first);
  s.last_warp_finish_spread_ns = double(last - first_end);
  s.sms_used = int(sm_first_start.size());
  std::uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& [sm, t] : sm_first_start) {
    lo = std::min(lo, t);
    hi = std::max(hi, t);
  }
  s.sm_start_skew_ns = double(hi - lo);
  std::vector<double> spreads;
  // Co-residency per SM: sweep the blocks' start (+1) and end (-1) events in time order.
  std::map<std::uint32_t, std::vector<std::pair<std::uint64_t, int>>> events;
  for (const auto& [id, b] : blocks) {
    spreads.push_back(double(b.end - b.first_end));
    events[b.smid].push_back({b.start, +1});
    events[b.smid].push_back({b.end, -1});
  }
  s.block_finish_spread_ns = median(spreads);
  s.block_finish_spread_max_ns = *std::max_element(spreads.begin(), spreads.end());
  for (auto& [sm, ev] : events) {
    std::sort(ev.begin(), ev.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    int running = 0;
    for (const auto& e : ev)
      s.max_coresident_blocks_per_sm = std::max(s.max_coresident_blocks_per_sm, running += e.second);
  }
  s.waves = double(blocks.size()) / double(s.sms_used * std::max(1, s.max_coresident_blocks_per_sm));
  return s;
}

}  // namespace archbench
