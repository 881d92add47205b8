#include "analysis/memory_levels.hpp"

namespace archbench {

double mem_level_value(MemLevel level) {
  switch (level) {
    case MemLevel::l1:
      return 1.0;
    case MemLevel::l1_l2:
      return 1.5;
    case MemLevel::l2:
      return 2.0;
    case MemLevel::l2_dram:
      return 2.5;
    case MemLevel::dram:
      return 3.0;
  }
  return 0.0;
}

const char* mem_level_name(MemLevel level) {
  switch (level) {
    case MemLevel::l1:
      return "L1";
    case MemLevel::l1_l2:
      return "L1-L2";
    case MemLevel::l2:
      return "L2";
    case MemLevel::l2_dram:
      return "L2-DRAM";
    case MemLevel::dram:
      return "DRAM";
  }
  return "?";
}

MemLevel footprint_level(std::size_t footprint, int sms, bool via_l1, bool keeps_in_l2, std::size_t l1_bound_per_sm,
                         std::size_t l2_bytes) {
  const double per_sm = sms > 0 ? double(footprint) / sms : double(footprint);
  if (footprint >= 4 * l2_bytes && !keeps_in_l2) return MemLevel::dram;
  if (footprint > l2_bytes) return MemLevel::l2_dram;
  if (!via_l1) return MemLevel::l2;
  if (per_sm <= double(l1_bound_per_sm)) return MemLevel::l1;
  if (per_sm > 2.0 * double(l1_bound_per_sm)) return MemLevel::l2;
  return MemLevel::l1_l2;
}

std::optional<double> l1_bytes_per_clk_per_sm(int cc) {
  switch (cc) {
    case 70:
    case 72:
    case 75:
    case 80:
    case 86:
    case 87:
    case 89:
    case 90:
      return 128.0;
    default:
      return std::nullopt;
  }
}

}  // namespace archbench
