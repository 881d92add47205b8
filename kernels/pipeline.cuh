// The Pipeline kernel: every thread runs kIlp independent dependent chains of one op, kBody steps
// per loop iteration (kBody / kIlp per chain, unrolled, chains interleaved so that consecutive
// instructions are independent). Lane 0 of each warp records its clocks and a fold of its results.
#pragma once
#include <cstdint>

#include "analysis/warp_timing.hpp"
#include "kernels/clock.cuh"
#include "kernels/warp_clock.cuh"
#include "kernels/pipeline_ops.cuh"

namespace archbench::dev {

// operands: raw 64-bit words, each holding one operand's bit pattern in its low bytes:
// [0] = b, [1] = c (shared by every chain: ptxas marks them for the operand-reuse cache, so the
// three-source FMAs read one register from the banked register file), then the start of chain j
// of lane l at [2 + l kIlp + j]. The starts are loaded per lane, so the chains are not warp-uniform
// and ptxas cannot move integer chains to the uniform datapath (UIMAD, UIADD3); the host gives
// every lane the same starts, so every warp must end with the same result.
template <class Op, int kIlp, int kBody>
__global__ void __launch_bounds__(1024) pipeline_kernel(const std::uint64_t* __restrict__ operands,
                                                        std::uint32_t iterations, WarpTiming* __restrict__ out) {
  static_assert(kBody % kIlp == 0, "the loop body holds whole steps of every chain");
  using T = typename Op::T;
  const auto load = [&](unsigned k) { return *reinterpret_cast<const T*>(&operands[k]); };
  const unsigned lane = threadIdx.x % 32;
  const T b = load(0), c = load(1);
  T x[kIlp];
#pragma unroll
  for (int j = 0; j < kIlp; ++j) x[j] = load(2 + lane * kIlp + j);
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  // A store of the operands, overwritten below, keeps their loads out of the timed window: ptxas
  // would otherwise sink them to their first use, after the start clock.
  std::uint64_t fold = 0;
#pragma unroll
  for (int j = 0; j < kIlp; ++j) fold ^= bits_of(x[j]);
  fold ^= bits_of(b) ^ bits_of(c);
  if (lane == 0) st_global_u64(&mine->check, fold);
  __syncthreads();  // the warps of a block start together
  const WarpClock clock = warp_clock_start();
#pragma unroll 1
  for (std::uint32_t i = 0; i < iterations; ++i) {
#pragma unroll
    for (int u = 0; u < kBody / kIlp; ++u) {
#pragma unroll
      for (int j = 0; j < kIlp; ++j) x[j] = Op::step(x[j], b, c);
    }
  }
  fold = 0;
#pragma unroll
  for (int j = 0; j < kIlp; ++j) fold ^= bits_of(x[j]);
  warp_clock_stop(mine, clock, fold);
}

}  // namespace archbench::dev
