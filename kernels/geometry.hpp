// Host side of the Geometry kernels (kernels/geometry.cu): pointer chases whose elements sit at
// arbitrary byte offsets of one buffer, written on the device, and a chase that runs on one
// chosen SM (or on every SM at once) for the per-SM L2 latency map.
#pragma once
#include <cstdint>
#include <vector>

#include "kernels/pchase.hpp"

namespace archbench {

// At base + offsets[i] (8-byte aligned) store the address base + offsets[i + 1 mod n]: a single
// cycle through the n offsets in their order. d_offsets is a device array of n offsets.
void write_offset_chase(std::uint8_t* base, const std::uint64_t* d_offsets, std::uint32_t n);

struct SmChase {
  std::uint64_t cycles = 0, ns = 0, final_pointer = 0;
  std::uint32_t smid = 0, ran = 0;  // ran: 1 when a block of this SM chased
};

// One thread per SM chases from `start` (a device address of a written chase): warm_steps
// untimed, then timed_steps (a multiple of kChainUnroll) timed. target_sm >= 0: only that SM
// (the first of its blocks to arrive); -1: every SM at once. Returns one record per SM.
std::vector<SmChase> run_sm_chase(CacheOp op, std::uint64_t start, std::uint32_t warm_steps, std::uint32_t timed_steps,
                                  int target_sm, int sm_count);

}  // namespace archbench
