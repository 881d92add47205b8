// Host side of the shared-memory kernels (kernels/smem.cuh): bank conflicts within an SM, and
// distributed shared memory (DSM) across the blocks of a thread-block cluster.
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/host_device.hpp"

namespace archbench {

// --- Bank conflicts. Every 32-bit word of the kernel's shared memory holds its own byte offset,
// so a lane that loads at offset o reads o back: a load chain at a fixed address is a pointer
// chase that returns to its start after every step.

// Timed steps of the bank latency chase per loop iteration, and independent loads per thread per
// iteration of the throughput kernel.
inline constexpr int kSmemChaseUnroll = 16;
inline constexpr int kSmemLoadsPerIteration = 8;

// One warp; lane l chases at byte offset lane_offsets[l] (access_bytes wide) for `steps` steps
// (a multiple of kSmemChaseUnroll). check = the lanes (bit mask) that did not read their own
// offset back (0 when the chase is right).
WarpTiming run_smem_bank_chase(int access_bytes, const std::vector<std::uint32_t>& lane_offsets, std::uint32_t steps);

// `blocks` blocks of `warps_per_block` warps; every warp loads at the pattern's offsets,
// kSmemLoadsPerIteration independent loads per iteration. check = lane 0's sum of the words read.
std::vector<WarpTiming> run_smem_bank_throughput(int access_bytes, const std::vector<std::uint32_t>& lane_offsets,
                                                 std::uint32_t iterations, int blocks, int warps_per_block);

// What run_smem_bank_throughput's check must be for lane 0 at `offset`.
std::uint32_t expected_smem_bank_check(int access_bytes, std::uint32_t offset, std::uint32_t iterations);

// --- Distributed shared memory (sm_90+).
enum class DsmPattern {
  local,       // every block reads its own shared memory through the cluster window
  pairs,       // rank r reads rank r ^ 1
  ring,        // rank r reads rank (r + 1) % size
  one_to_all,  // every other rank reads rank 0 (rank 0 only serves)
  all_to_all,  // warp w of rank r reads rank (r + 1 + w % (size - 1)) % size
};
inline constexpr DsmPattern kDsmPatterns[] = {DsmPattern::local, DsmPattern::pairs, DsmPattern::ring,
                                              DsmPattern::one_to_all, DsmPattern::all_to_all};
const char* dsm_pattern_name(DsmPattern p);

// How the remote loads are made: a weak ld (what C++ code gets), or ld.volatile (strong, system
// scope: LD.E.STRONG.SYS).
enum class DsmLoad { weak, volatile_ };
inline constexpr DsmLoad kDsmLoads[] = {DsmLoad::weak, DsmLoad::volatile_};
const char* dsm_load_name(DsmLoad l);  // "ld", "ld.volatile"

// The rank a warp of `rank` reads, or -1 when it only serves (rank 0 in one_to_all). The kernel
// and the host (which sorts the readers from the servers) share this one definition.
ARCHBENCH_HOST_DEVICE inline int dsm_source_rank(DsmPattern p, int rank, int warp, int cluster_size) {
  switch (p) {
    case DsmPattern::local:
      return rank;
    case DsmPattern::pairs:
      return rank ^ 1;
    case DsmPattern::ring:
      return (rank + 1) % cluster_size;
    case DsmPattern::one_to_all:
      return rank == 0 ? -1 : 0;
    case DsmPattern::all_to_all:
      return (rank + 1 + warp % (cluster_size - 1)) % cluster_size;
  }
  return rank;
}

// Whether this GPU and driver launch clusters of `size` blocks of `threads` threads with `smem_bytes`
// of dynamic shared memory each, and how many such clusters are resident at once (0: none).
int dsm_max_active_clusters(int size, int threads, std::uint32_t smem_bytes);

struct DsmChaseResult {                        // one cluster
  std::vector<std::uint64_t> cycles_per_rank;  // rank 0's chase through each rank's memory (own at 0)
  std::vector<std::uint64_t> ns_per_rank;      // the same windows in %globaltimer
  std::uint64_t lds_cycles = 0, lds_ns = 0;    // the same chase in its own memory with ld.shared
  std::vector<std::uint32_t> smid_per_rank;
  std::vector<std::uint32_t> final_offset;  // per rank, then ld.shared (self-check)
};

// `clusters` clusters of `size` blocks at once, `smem_bytes` of dynamic shared memory per block
// (at least chase_bytes; more keeps a second block off an SM). In each, rank 0's thread 0 chases
// `steps` 4-byte words (a multiple of kSmemChaseUnroll) through each rank's `chase_bytes`,
// `stride_bytes` apart. One result per cluster: the GPCs the clusters land in differ in their
// SM-to-SM latency, so one cluster alone reads differently on each board.
std::vector<DsmChaseResult> run_dsm_chase(int size, int clusters, std::uint32_t smem_bytes, std::uint32_t chase_bytes,
                                          std::uint32_t stride_bytes, std::uint32_t steps);

// `clusters` clusters of `size` blocks of `warps_per_block` warps, `smem_bytes` of dynamic shared
// memory per block (which sets how many blocks share an SM). Every reading warp makes `iterations`
// x kSmemLoadsPerIteration 16-byte loads per thread from its source rank's first `src_bytes`.
// Warps that only serve report start == end. check = lane 0's sum of the words read.
std::vector<WarpTiming> run_dsm_bandwidth(DsmPattern pattern, DsmLoad load, int size, int clusters, int warps_per_block,
                                          std::uint32_t smem_bytes, std::uint32_t src_bytes, std::uint32_t iterations);
// What run_dsm_bandwidth's check must be for lane 0 of reading warp `warp` (threads per block).
std::uint32_t expected_dsm_check(int threads, int warp, std::uint32_t src_bytes, std::uint32_t iterations);

}  // namespace archbench
