#include "analysis/memory_levels.hpp"

namespace archbench {

const char* mem_level_name(MemLevel level) {
  switch (level) {
    case MemLevel::l1: return "L1";
    case MemLevel::l2: return "L2";
    case MemLevel::dram: return "DRAM";
    case MemLevel::between: return "L2-DRAM";
  }
  return "?";
}

MemLevel footprint_level(std::size_t footprint, int sms, std::size_t l1_bound_per_sm, std::size_t l2_bytes) {
  if (sms > 0 && footprint <= l1_bound_per_sm * std::size_t(sms)) return MemLevel::l1;
  if (footprint <= l2_bytes) return MemLevel::l2;
  if (footprint >= 2 * l2_bytes) return MemLevel::dram;
  return MemLevel::between;
}

std::optional<double> l1_bytes_per_clk_per_sm(int cc) {
  switch (cc) {
    case 70: case 72: case 75: case 80: case 86: case 87: case 89: case 90:
      return 128.0;
    default:
      return std::nullopt;
  }
}

}  // namespace archbench
