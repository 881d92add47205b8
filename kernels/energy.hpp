// Host side of the Energy feature's own kernels (kernels/energy.cu). Its other kernels are the
// ones that already run each operation at its limit: Pipeline's chains, TensorCore's mma.sync and
// wgmma, Bandwidth's streams, HostLink's copies.
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"

namespace archbench {

// The rest kernel: `blocks` blocks of `threads_per_block` stay resident for `hold_ns` while doing
// nothing that counts (one thread sleeps on %globaltimer, the others wait at the block's barrier),
// so that a window over it reads the power of an occupied GPU at its clock: the static and constant
// parts that the differential method removes. Throws SelfCheckError when a block did not run.
void run_resident_rest(int blocks, int threads_per_block, std::uint64_t hold_ns);

// Shared-memory stores: each thread stores kSmemWritesPerThreadPerPass elements of `width` bytes
// per pass into its block's `bytes` (which must hold them all: no two threads store to one
// element), then reads its last pass back. WarpTiming::check is 1 for a warp that read back
// something else (a store lost), else 0.
inline constexpr int kSmemWritesPerThreadPerPass = 8;
std::vector<WarpTiming> run_smem_write(int width, std::uint32_t bytes, std::uint32_t passes, int blocks,
                                       int threads_per_block);
int smem_write_max_blocks_per_sm(int width, int threads_per_block, std::uint32_t bytes);

}  // namespace archbench
