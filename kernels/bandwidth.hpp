// Host side of the bandwidth kernels (kernels/bandwidth.cuh).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/host_device.hpp"

namespace archbench {

enum class BwKind { read, write, copy, rmw };
// none: the kernel does not load. evict_last: a plain load whose line gets the L2's evict_last
// priority (createpolicy + L2::cache_hint, what cuda::annotated_ptr's persisting property makes).
enum class BwLoad { none, def, ca, cg, cs, lu, cv, nc, na, evict_last };
enum class BwStore { none, def, wb, cg, cs, wt, na };  // none: the kernel does not store

// How the footprint is handed out: equal static slices (a block per slice), chunks claimed
// from a global ticket by each warp or by each block (fast SMs do more of the work), or grid
// order: a block per `unroll` accesses of each thread, many more blocks than fit, taken in the
// hardware's dispatch order (a plain elementwise kernel's order; kernels/bandwidth.cuh).
enum class BwDist { static_slices, dynamic_chunks, dynamic_blocks, grid_order };
// Whose data a block reads: its own slice (every kernel), the whole footprint (every SM reads
// every line once per pass), or per-SM lists of 128 B lines (the L2 partition cases).
enum class BwData { own_slice, shared_by_all, line_lists };

const char* bw_kind_name(BwKind k);     // "read"
const char* bw_dist_name(BwDist d);     // "static", "dynamic", "dynamic-block", "grid"
const char* bw_load_name(BwLoad op);    // "ld", "ld.ca", ..., "ld.na" (.L1::no_allocate), "ld.evict_last"
const char* bw_store_name(BwStore op);  // "st", "st.wb", ..., "st.na"

// The combinations that have a kernel: read x every load, write x every store, copy and rmw
// with matched pairs (ld+st, ld.cg+st.cg, ld.cs+st.cs).
struct BwVariant {
  BwKind kind;
  BwLoad load;
  BwStore store;
  std::string name() const;  // "read/ld.cg", "write/st.cs", "copy/ld.cs+st.cs"
  // Bytes moved per element and pass (read + written).
  int accesses() const { return (load != BwLoad::none) + (store != BwStore::none); }
  // Arrays of footprint bytes each that a pass touches: copy has a source and a destination.
  int arrays() const { return kind == BwKind::copy ? 2 : 1; }
  // Evict-first loads keep part of a cyclic footprint in L2 (analysis/memory_levels.hpp).
  bool loads_keep_in_l2() const { return load == BwLoad::cs; }
  // Whether its loads allocate in L1 (stores never do: L1 is write-through).
  bool loads_via_l1() const {
    return load == BwLoad::def || load == BwLoad::ca || load == BwLoad::cs || load == BwLoad::nc ||
           load == BwLoad::evict_last;
  }
  // Whether its loads leave lines of raised priority in the L2, which must be demoted after the
  // launch (run_bandwidth does): a later kernel would hit them where it should miss.
  bool loads_leave_priority_lines() const { return load == BwLoad::evict_last; }
};
const std::vector<BwVariant>& bw_variants();
inline constexpr int kBwWidths[] = {4, 8, 16};

// Blocks on chosen SMs (BwLaunch::spread_sms): the n chosen of sm_count SMs are SM floor(r *
// sm_count / n), r = 0..n-1, spread evenly over the SM ids. The rank r of SM s, or -1 when s is
// not chosen.
ARCHBENCH_HOST_DEVICE inline int spread_rank(std::uint32_t s, std::uint32_t n, std::uint32_t sm_count) {
  if (n == 0 || sm_count == 0 || s >= sm_count) return -1;
  const std::uint64_t r = (std::uint64_t(s) * n + sm_count - 1) / sm_count;
  return r < n && r * sm_count / n == s ? int(r) : -1;
}

// The threads of a block that stream a static slice of `elements`: the whole block, or for a
// slice of fewer than `unroll` elements per thread (a few KiB per SM) just enough whole warps that
// each has `unroll`, so every footprint keeps `unroll` accesses in flight per thread. A pass of one
// access per thread and its loop is issue-bound: 8 KiB per SM read at 40, then 23.6 B/clk/SM.
ARCHBENCH_HOST_DEVICE inline std::size_t bw_streaming_threads(std::size_t elements, int unroll,
                                                              std::size_t block_threads) {
  const std::size_t needed = ((elements + unroll - 1) / unroll + 31) / 32 * 32;
  return needed < block_threads ? needed : block_threads;
}

// What a pinned launch's blocks need: every block that lands on chosen SM r takes a ticket from
// tickets[r]; the first blocks_per_sm run as blocks r * blocks_per_sm + ticket, the rest return.
struct BwPin {
  std::uint32_t spread_sms = 0, sm_count = 0, blocks_per_sm = 0;
  std::uint32_t* tickets = nullptr;
};

struct BwLaunch {
  BwVariant variant;
  int width = 16;                   // bytes per thread per access
  const void* src = nullptr;        // read, copy
  void* dst = nullptr;              // write, copy, rmw
  std::size_t footprint_bytes = 0;  // per array; a multiple of width
  std::uint32_t passes = 1;
  int blocks = 1, threads_per_block = 1024;
  // > 0: the blocks run on this many SMs spread over the SM ids (spread_rank), blocks / spread_sms
  // on each, whatever the block scheduler does with a small grid (which differs between boards of
  // one model: 8 blocks read the L2 at 69 B/clk/SM on two H100s and 93 on a third).
  int spread_sms = 0;
  int unroll = 4;  // accesses in flight per thread (bw_has_kernel says which exist)
  BwDist dist = BwDist::static_slices;
  std::uint32_t chunk_bytes = 0;  // dynamic: a multiple of 32 (warps) or threads (blocks) x unroll x width
  // grid order (run_bandwidth sets them): thread groups per pass, and the first and last blocks
  // that time themselves.
  std::uint32_t grid_groups = 0, grid_edge = 0;
  // grid order: 1, or the groups read in this many pieces of the array (kernels/bandwidth.cuh).
  std::uint32_t grid_pieces = 1;
  BwData data = BwData::own_slice;
  // line_lists (read, width 16, one block per SM): SM s reads lines[offsets[s] .. offsets[s+1])
  // of src (device memory), at most max_lines_per_sm each.
  const std::uint32_t* lines = nullptr;
  const std::uint32_t* line_offsets = nullptr;
  std::uint32_t max_lines_per_sm = 0;
};

// Dynamic shared memory of a line-list launch: its longest list, and more than half the SM's
// shared memory so that one block runs per SM (which leaves the L1 that much smaller).
inline std::size_t bw_lines_shared_bytes(std::size_t max_lines_per_sm, std::size_t smem_per_sm) {
  return max_lines_per_sm * 4 > smem_per_sm / 2 + 1024 ? max_lines_per_sm * 4 : smem_per_sm / 2 + 1024;
}

// Dynamic distribution hands out at least kMinChunksPerClaimer chunks per claimer (warp or block)
// in a pass: a chunk is done long before its next pass's turn comes, so nobody reads it while it
// is in flight (an L2 hit that a DRAM figure must not contain). The one statement of the rule: the
// launch (run_bandwidth), the runner's chunk choice and the tuning sweep ask it.
inline constexpr std::size_t kMinChunksPerClaimer = 4;
inline bool enough_chunks_per_claimer(std::size_t footprint_bytes, std::size_t chunk_bytes, std::size_t claimers) {
  return footprint_bytes / chunk_bytes >= kMinChunksPerClaimer * claimers;
}

// Whether a kernel exists for this variant, width, unroll, distribution and data (the defaults,
// static slices of 4 accesses, exist for every variant and width).
bool bw_has_kernel(const BwLaunch& l);
// Bytes each warp moved, from its timing record: equal slices, or its claimed chunks / lines.
double bw_bytes_of_warp(const BwLaunch& l, const WarpTiming& w, std::size_t warps);

// The L2 partition probe (kernels/bandwidth.cuh, l2_side_probe_kernel) over n_lines 128 B lines
// at `lines` (device memory, its first words are incremented): the reference map from one SM,
// and `samples` lines every sample_step (odd) from every SM. cycles_by_sm is indexed by SM id.
struct L2SideProbe {
  std::vector<double> map_cycles;
  std::vector<std::vector<double>> sample_cycles_by_sm;
  int reference_sm = -1;
  std::uint32_t sample_step = 1;  // sample i is line i * sample_step
};
L2SideProbe probe_l2_sides(std::uint32_t* lines, std::uint32_t n_lines, std::uint32_t samples);

// Runs the kernel once; one timing per warp (grid order: per SM, its first block's start to its
// last block's end, for each SM that ran blocks at both ends of the grid). Throws
// std::invalid_argument (no such kernel, bad shape) or CudaError.
std::vector<WarpTiming> run_bandwidth(const BwLaunch& launch);
int bandwidth_max_blocks_per_sm(const BwVariant& v, int width, int threads_per_block);
int bandwidth_max_blocks_per_sm(const BwLaunch& l, int threads_per_block);  // its unroll, distribution, data

// Shared memory read bandwidth: each thread reads kSmemReadsPerThreadPerPass elements of its
// block's `bytes` of shared memory per pass (the kernel's unroll).
inline constexpr int kSmemReadsPerThreadPerPass = 8;
std::vector<WarpTiming> run_smem_read(int width, std::uint32_t bytes, std::uint32_t passes, int blocks,
                                      int threads_per_block);
int smem_read_max_blocks_per_sm(int width, int threads_per_block, std::uint32_t bytes);

// L1 read bandwidth (kernels/bandwidth.cuh, l1_read_kernel): each block reads its own `bytes` of
// src (block b at b x bytes; src holds blocks x bytes; bytes a multiple of kSmemReadsPerThreadPerPass x 32 x width) kSmemReadsPerThreadPerPass elements per
// thread per pass, after one untimed pass. op: ld, ld.ca or ld.nc (else std::invalid_argument).
std::vector<WarpTiming> run_l1_read(BwLoad op, int width, const void* src, std::uint32_t bytes, std::uint32_t passes,
                                    int blocks, int threads_per_block);
int l1_read_max_blocks_per_sm(BwLoad op, int width, int threads_per_block);

}  // namespace archbench
