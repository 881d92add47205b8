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

// Two chases at once on one SM: `a` with ld.ca, `b` with ld.nc (the read-only path), one load
// of each per step, independent. Cycles per step of the pair, and where each ended. If the two
// paths share storage, footprints that each fit alone thrash together.
struct PairChase {
  std::uint64_t cycles = 0, end_a = 0, end_b = 0;
};
// Runs on SM pin_sm (a run's reference SM).
PairChase run_ca_nc_pair(std::uint64_t start_a, std::uint64_t start_b, std::uint32_t warm_steps,
                         std::uint32_t timed_steps, std::uint32_t pin_sm);

// The constant cache: a chase of 32-bit byte offsets, j = word at byte j, through a __constant__
// array of kConstChaseWords words (one 64 KiB constant bank: the most one kernel can address),
// uploaded with cudaMemcpyToSymbol. One thread on every SM at once chases: cycles per step over
// `timed_steps` after `warm_steps`, and the byte offset where it ended, one record per SM that
// ran. Every SM, because the constant caches' latency beyond the SM's own depends on where the
// SM sits (98 cycles from SM 0 of one H100 at 4 KiB, 94 from SM 0 of another); their median is
// the same on every board.
inline constexpr std::uint32_t kConstChaseWords = 16384;
struct ConstChase {
  std::uint64_t cycles = 0, ns = 0;
  std::uint32_t final_index = 0, smid = 0, ran = 0;
};
void upload_const_chase(const std::vector<std::uint32_t>& next);  // at most kConstChaseWords words
std::vector<ConstChase> run_const_chase_every_sm(std::uint32_t start, std::uint32_t warm_steps,
                                                 std::uint32_t timed_steps);

// Every SM reads `bytes` (a multiple of 16) from `data` once, 16 B per ld.global.cg, spread over
// the whole grid: each L2 slice and DRAM channel takes its share of the addresses (the census of
// the memory side's units, measure_unit_census). Untimed.
void run_stream_read(const void* data, std::size_t bytes);

// The SMs of each cluster of one launch of `cluster_size` blocks per cluster (one block per SM
// where `smem_bytes` of dynamic shared memory leave room for one; as many clusters as the
// occupancy API says fit, less `fewer`): one list of SM ids per cluster. Blocks of one cluster run
// in one GPC (CUDA Programming Guide, thread block clusters), so the lists group SMs by GPC.
// Empty when the GPU has no cluster launch or the size does not fit. Throws CudaError.
std::vector<std::vector<std::uint32_t>> run_cluster_sms(int cluster_size, std::uint32_t smem_bytes, int fewer);

}  // namespace archbench
