// Which memory level a bandwidth footprint targets, and the peaks the suite compares against
// (pure C++, unit-tested).
#pragma once
#include <cstddef>
#include <optional>

namespace archbench {

// Ordered levels; the numeric value is what the `level` counter reports (plots sort by it).
enum class MemLevel { l1, l1_l2, l2, l2_dram, dram };
double mem_level_value(MemLevel level);      // 1, 1.5, 2, 2.5, 3
const char* mem_level_name(MemLevel level);  // "L1", "L1-L2", "L2", "L2-DRAM", "DRAM"

// The level a footprint targets, by size alone, for loads that allocate in L1 (`via_l1`) or not
// (stores, ld.cg/.cv/.lu/.L1::no_allocate):
//  - L1: via L1 and its share per SM within `l1_bound_per_sm` (the shared-memory capacity per SM,
//    a lower bound of the unified L1);
//  - L2: within the L2, and for loads via L1 a share per SM of more than 2 x l1_bound_per_sm (L1
//    replacement is not LRU on every GPU: a footprint just above L1 still hits in part);
//  - DRAM: 4 x the L2 or more, except for evict-first loads (`keeps_in_l2`, ld.cs): they keep
//    part of a cyclic footprint in L2 at any size swept (an H100 reads 100 % of the DRAM peak
//    with ld.cs at 4 x the L2), so beyond the L2 they stay L2-DRAM;
//  - in between: a transition, L1-L2 or L2-DRAM.
MemLevel footprint_level(std::size_t footprint_bytes, int sms, bool via_l1, bool keeps_in_l2,
                         std::size_t l1_bound_per_sm, std::size_t l2_bytes);

// L1 and shared-memory bandwidth per SM per clock by compute capability (10 x major + minor):
// 128 B from Volta on (the CUDA documentation and DESIGN.md); nullopt for an unknown cc.
std::optional<double> l1_bytes_per_clk_per_sm(int cc);

}  // namespace archbench
