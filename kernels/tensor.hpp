// Host side of the TensorCore kernels: one launch of mma.sync chains (kernels/mma_sync.cu) or of
// wgmma loops (kernels/wgmma.cu, sm_90a only).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/shared/tensor_ops.hpp"

namespace archbench {

// --- mma.sync: every warp runs `ilp` independent accumulator chains of one op, kMmaBodySteps
// instructions per loop iteration. The operands are per lane and identical in every warp, so
// every warp must end with the same fold (WarpTiming::check).
inline constexpr int kMmaBodySteps = 64;
inline constexpr int kMmaIlps[] = {1, 2, 4};

struct MmaLaunch {
  MmaOp op = MmaOp::f16_m16n8k16_f32;  // dense (mma.sync) or sparse (mma.sp)
  int ilp = 1;
  int blocks = 1;
  int threads_per_block = 32;
  std::uint32_t iterations = 1;
  TensorFill fill = TensorFill::random;  // a sparse op's metadata: a valid pattern per chunk, drawn
  // Per lane (32 x mma_operand_words_per_lane, in the kernel's order: A, B, metadata, the ilp
  // accumulator starts), the same in every warp; empty: drawn from `fill`.
  std::vector<std::uint32_t> operands;
};
// Throws std::invalid_argument for a shape with no kernel, CudaError for a failed launch.
std::vector<WarpTiming> run_mma_sync(const MmaLaunch& launch);
int mma_operand_words_per_lane(MmaOp op, int ilp);
int mma_sync_max_blocks_per_sm(MmaOp op, int ilp, int threads_per_block);
int mma_sync_registers_per_thread(MmaOp op, int ilp);

// --- wgmma: every warpgroup of a block runs 1 + iterations x kWgmmaPerIteration wgmma.mma_async
// into one accumulator, from the A and B images in shared memory (or A in registers), and each
// thread reports the sum of its accumulator registers (f32, s32 or two f16 halves).
enum class WgmmaMode {
  ss,          // A and B from shared memory, kWgmmaPerIteration in flight per commit group
  rs,          // A from registers
  ss_latency,  // one at a time: commit and wait for each
};
const char* wgmma_mode_name(WgmmaMode m);

struct WgmmaLaunch {
  WgmmaType type = WgmmaType::f16_f32;
  int n = 256;
  WgmmaMode mode = WgmmaMode::ss;
  int blocks = 1;
  int warpgroups_per_block = 1;  // 1..kWgmmaMaxWarpgroupsPerBlock
  std::uint32_t iterations = 1;
  std::vector<std::uint8_t> a_image, b_image;  // wgmma_operand_image(64 rows), (n rows)
  // wgmma.mma_async.sp (every mode): a_image holds A's nonzeros (64 x 32 bytes),
  // b_image N x kWgmmaSparseBBytes; every thread's metadata is `metadata` rotated by whole chunks.
  bool sparse = false;
  std::uint32_t metadata = 0;
};
inline constexpr int kWgmmaMaxWarpgroupsPerBlock = 3;  // __launch_bounds__(384): 168 registers for N = 256

struct WgmmaResult {
  std::vector<WarpTiming> warps;           // one per warp; check = the warp's lane-0 sum bits
  std::vector<std::uint32_t> thread_sums;  // per thread of the grid: its accumulators' sum, raw bits
};

// Why wgmma cannot run here (not sm_90, or the binary holds no sm_90a code), or nullopt.
std::optional<std::string> wgmma_unsupported();
// What a GPU of compute capability `cc` (e.g. 100) says alone: wgmma is sm_90a's, or this binary
// has no sm_90a code. wgmma_unsupported() adds the device's own check.
std::optional<std::string> wgmma_unsupported_on(int cc);
WgmmaResult run_wgmma(const WgmmaLaunch& launch);
int wgmma_registers_per_thread(WgmmaType type, int n, WgmmaMode mode, bool sparse = false);

}  // namespace archbench
