// Instruction-cache probe (Scheduling/icache): kernels whose loop body is kInstructions
// straight-line FFMAs (8 independent chains per thread, so one warp can issue every cycle). Once
// the body outgrows an instruction cache, every pass refetches it from the next level and the
// cycles per instruction step up: the knees are the caches' capacities.
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"

namespace archbench {

// Body sizes (FFMA instructions; 16 bytes of SASS each): two per octave from 2 KiB to 512 KiB
// (each size is one kernel: the largest take most of the file's compile time).
inline constexpr int kIcacheInstructions[] = {128,  192,  256,  384,  512,   768,   1024,  1536, 2048,
                                              3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768};
inline constexpr int kSassInstructionBytes = 16;  // every SASS instruction since Volta

// Runs `warps` warps in one block on SM `sm` (a run's reference SM), `iterations` passes
// over the body; the first pass (code fetched from DRAM) is outside the timed window. Each warp's
// WarpTiming covers the rest. Throws std::invalid_argument for a size with no kernel or
// iterations < 2.
std::vector<WarpTiming> run_icache(int instructions, int warps, std::uint32_t iterations,
                                   std::uint32_t sm);

}  // namespace archbench
