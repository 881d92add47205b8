// Host side of the AsyncCopy kernels (kernels/async_copy.cu): global <-> shared memory copies by
// every path Hopper has, on a persistent grid, timed per warp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/host_device.hpp"

namespace archbench {

enum class AsyncOp {
  // global -> shared
  ld_st,           // ld.global.cg + st.shared by every thread (the plain path), 4/8/16 B
  cp_async_ca,     // cp.async.ca.shared.global (LDGSTS, sm_80), 4/8/16 B per thread, commit groups
  cp_async_cg,     // cp.async.cg.shared.global, 16 B (L1 bypassed)
  bulk,            // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes (TMA, sm_90), one thread
  bulk_multicast,  // the same with .multicast::cluster: each block of a cluster fetches 1/C of a
                   // stage and every block of the cluster receives all of it
  tensor,          // cp.async.bulk.tensor.<1-5>d.shared::cluster.global.tile (TMA with a tensor map)
  // shared -> global
  st_global,        // ld.shared + st.global by every thread, 16 B
  bulk_store,       // cp.async.bulk.global.shared::cta.bulk_group
  bulk_reduce_add,  // cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32
  tensor_store,     // cp.async.bulk.tensor.<1-5>d.global.shared::cta.bulk_group
};

struct AsyncOpInfo {
  AsyncOp op;
  const char* name;  // AsyncCopy/<load|store>/<name>
  const char* ptx;
  int min_cc;
  bool is_load;     // global -> shared
  bool per_thread;  // every thread copies its part (else lane 0 of a warp issues the stage)
  bool uses_tensor_map;
};
const std::vector<AsyncOpInfo>& async_ops();
const AsyncOpInfo& async_op_info(AsyncOp op);

inline constexpr int kAsyncMaxStages = 64;  // per block: TMA pipelines x stages
inline constexpr int kAsyncMaxDims = 5;
inline constexpr int kAsyncWidths[] = {4, 8, 16};
inline constexpr int kAsyncLdStUnrolls[] = {1, 2, 4, 8};

// Word w (4 B) of a source array, and what a check expects where it lands.
ARCHBENCH_HOST_DEVICE inline std::uint32_t async_pattern(std::uint64_t w) {
  return static_cast<std::uint32_t>(w) * 0x9e3779b1u + 0x7f4a7c15u;
}

// The shape of a tensor map's box over a row-major array of 4-byte words: dims 1-5, box[0] the
// contiguous one. The array is viewed as dims[0] = box[0] x inner_boxes words per row, the middle
// dims exactly one box, and the last dim as many rows as the footprint holds: chunk c is the box at
// (c % inner_boxes) x box[0] in dim 0 and (c / inner_boxes) x box[d-1] in the last dim.
struct TensorBox {
  int dims = 2;
  std::uint32_t box[kAsyncMaxDims] = {64, 64, 1, 1, 1};
  int swizzle_bytes = 0;           // 0 (none), 32, 64, 128
  std::uint32_t inner_boxes = 16;  // boxes along dim 0
  std::uint32_t words() const {
    std::uint32_t n = 1;
    for (int i = 0; i < dims; ++i) n *= box[i];
    return n;
  }
  std::string name() const;  // "64x64", "64x8x8", "32x64/swizzle:128"
};

struct AsyncLaunch {
  AsyncOp op = AsyncOp::bulk;
  int width = 16;       // per-thread paths: bytes per access
  int unroll = 1;       // ld_st: accesses per thread per stage in registers (1/2/4/8)
  void* src = nullptr;  // global source (loads) or destination (stores), footprint bytes
  std::size_t footprint_bytes = 0;
  int blocks = 1;  // persistent grid
  int threads_per_block = 32;
  int cluster = 1;  // bulk_multicast: blocks per cluster
  std::uint32_t stage_bytes = 16384;
  int stages = 4;                    // copies in flight per pipeline: TMA loads, per warp (every warp of the
                                     // block is a pipeline); cp.async, groups per thread; stores, per block
  std::uint32_t passes = 1;          // over the footprint
  bool dynamic = false;              // TMA loads: pipelines claim groups of `stages` chunks from a ticket
  const void* tensor_map = nullptr;  // 128-byte CUtensorMap (tensor, tensor_store)
  TensorBox box;
  bool verify = false;                  // every landed word checked (loads); else one word per stage
  std::uint32_t* mismatches = nullptr;  // device counter, verify loads
};

// Chunks of the footprint (footprint / stage_bytes), and the pipelines of a block: its warps
// for the TMA loads, else 1 (the block).
std::size_t async_chunks(const AsyncLaunch& l);
int async_pipelines_per_block(const AsyncLaunch& l);
// One record per warp (block-major); work_units: the stages its pipeline copied (TMA loads), else
// its block's. Throws std::invalid_argument for a launch the kernels cannot run (the reason),
// CudaError, SelfCheckError (a pipeline that did not copy its share).
std::vector<WarpTiming> run_async_copy(const AsyncLaunch& l);

// Fills `words` words with async_pattern(index) on the GPU.
void fill_async_pattern(std::uint32_t* dst, std::size_t words);
// Words of a store's destination that differ from what `passes` stores (or reductions) of the
// launch's stage content leave: word k of every stage/box holds async_pattern(k), reduced:
// passes x that. Counted on the GPU.
std::uint64_t count_store_mismatches(const AsyncLaunch& l);

// Clusters of `cluster` blocks of the multicast load that run at once (0: none, or no sm_90a
// code in this build), with `smem_per_block` bytes of stages per block.
int async_max_clusters(int cluster, int threads_per_block, std::size_t smem_per_block);

// One copy at a time by one warp (bulk, tensor: one thread issues), cycles from issue to the data
// in shared memory, for `copies` copies `step` bytes apart from src. ld_st and cp_async_cg: 16 B
// per lane access. tensor: `tensor_map` with box `box`, the copy at offset o being box o / bytes.
struct AsyncLatencyLaunch {
  AsyncOp op = AsyncOp::bulk;
  const void* src = nullptr;
  std::uint64_t src_word = 0;  // the source pattern's word index at src (fill_async_pattern's buffer starts at 0)
  std::uint32_t bytes = 16;
  std::uint64_t step = 4096;
  std::uint32_t copies = 32;
  const void* tensor_map = nullptr;
  TensorBox box;
};
struct AsyncLatencyResult {
  std::vector<double> cycles;  // per copy, in order
  double sm_clock_mhz = 0;     // over the whole loop
  double window_ns = 0;
};
// The warp runs on SM pin_sm (a run's reference SM). Throws std::invalid_argument, CudaError,
// SelfCheckError (a word landed wrong).
AsyncLatencyResult run_async_latency(const AsyncLatencyLaunch& l, std::uint32_t pin_sm);

}  // namespace archbench
