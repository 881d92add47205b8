// Which memory level a bandwidth footprint targets, and the peaks the suite compares against
// (pure C++, unit-tested).
#pragma once
#include <cstddef>
#include <optional>

namespace archbench {

enum class MemLevel { l1 = 1, l2 = 2, dram = 3, between = 0 };
const char* mem_level_name(MemLevel level);  // "L1", "L2", "DRAM", "L2-DRAM"

// The level a footprint fits in, by size alone: its share per SM within `l1_bound_per_sm`
// (the shared-memory capacity per SM, a lower bound of the unified L1), else the whole
// footprint within the L2, else beyond twice the L2 is DRAM; in between is a transition.
MemLevel footprint_level(std::size_t footprint_bytes, int sms, std::size_t l1_bound_per_sm, std::size_t l2_bytes);

// L1 and shared-memory bandwidth per SM per clock by compute capability (10 x major + minor):
// 128 B from Volta on (the CUDA documentation and DESIGN.md); nullopt for an unknown cc.
std::optional<double> l1_bytes_per_clk_per_sm(int cc);

}  // namespace archbench
