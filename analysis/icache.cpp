#include "analysis/icache.hpp"

#include <algorithm>
#include <stdexcept>

namespace archbench {

namespace {
// Net cycles per instruction: plateaus within 5 % or 0.03 cycles, two points at least, noise at
// least 0.02 cycles (the plateau of an H100's L0 spreads by about 1 %).
constexpr LevelTolerance kTolerance{0.05, 0.03, 2, 0.02};
}  // namespace

IcacheLevels infer_icache_levels(const std::vector<IcacheSample>& s, double bytes_per_instruction) {
  if (s.size() < 3) throw std::invalid_argument("icache: at least 3 body sizes");
  for (std::size_t i = 1; i < s.size(); ++i)
    if (!(s[i].instructions > s[i - 1].instructions))
      throw std::invalid_argument("icache: body sizes must be strictly ascending");
  const auto per_pass = [&](std::size_t i) { return s[i].instructions * s[i].cycles_per_instruction; };
  IcacheLevels r;
  const double slope = (per_pass(1) - per_pass(0)) / (s[1].instructions - s[0].instructions);
  r.loop_overhead_cycles = std::max(0.0, per_pass(0) - slope * s[0].instructions);
  for (std::size_t i = 0; i < s.size(); ++i)
    r.net.push_back(
        {s[i].instructions * bytes_per_instruction, (per_pass(i) - r.loop_overhead_cycles) / s[i].instructions});
  r.levels = find_levels(r.net, kTolerance);
  return r;
}

}  // namespace archbench
