// Straight-line FFMA bodies of growing size (kernels/icache.hpp). The body is unrolled in full,
// so its code is kInstructions FFMAs in a row, executed once per loop iteration.
#include "kernels/icache.hpp"

#include <stdexcept>
#include <string>
#include <iterator>
#include <utility>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/clock.cuh"
#include "kernels/pinned_launch.cuh"

namespace archbench {
namespace {

constexpr int kChains = 8;
constexpr int kBlock = 64;  // instructions per inlined block: every size is a whole number of them

__device__ __forceinline__ void ffma_block(float (&x)[kChains], float b, float c) {
#pragma unroll
  for (int s = 0; s < kBlock / kChains; ++s) {
#pragma unroll
    for (int j = 0; j < kChains; ++j) x[j] = fmaf(x[j], b, c);
  }
}

// The body as kInstructions / kBlock inlined blocks: one "#pragma unroll" of the whole body
// stops unrolling fully above about 24 Ki instructions and leaves a loop in it.
template <int... kBlocks>
__device__ __forceinline__ void ffma_body(float (&x)[kChains], float b, float c,
                                          std::integer_sequence<int, kBlocks...>) {
  ((ffma_block(x, b, c), (void)kBlocks), ...);
}

// One block runs, on the reference SM: refills come from caches outside the SM, whose latency
// depends on where the SM sits (2.23 cycles per instruction from one H100's SM 0, 2.02 from
// another's, at 64 KiB of code).
template <int kInstructions>
__global__ void __launch_bounds__(1024)
    icache_kernel(float b, float c, std::uint32_t iterations, WarpTiming* __restrict__ out, std::uint32_t pin_sm,
                  std::uint32_t* claim) {
  static_assert(kInstructions % kBlock == 0, "whole blocks");
  __shared__ bool chosen;
  if (threadIdx.x == 0) chosen = dev::claim_pinned_sm(pin_sm, claim);
  __syncthreads();
  if (!chosen) return;
  float x[kChains];
#pragma unroll
  for (int j = 0; j < kChains; ++j) x[j] = float(threadIdx.x + j) * 1e-3f;
  std::uint64_t start_ns = 0, start_cycles = 0;
#pragma unroll 1
  for (std::uint32_t it = 0; it < iterations; ++it) {
    if (it == 1) {  // the first pass brought the code from memory: time the rest
      start_ns = dev::globaltimer_ns();
      start_cycles = dev::clock64_ordered();
    }
    ffma_body(x, b, c, std::make_integer_sequence<int, kInstructions / kBlock>{});
  }
  float acc = 0;
#pragma unroll
  for (int j = 0; j < kChains; ++j) acc += x[j];
  WarpTiming* mine = &out[threadIdx.x / 32];
  const bool lane0 = threadIdx.x % 32 == 0;
  if (lane0) dev::st_global_u64(&mine->check, __float_as_uint(acc));
  const std::uint64_t end_cycles = dev::clock64_ordered();
  const std::uint64_t end_ns = dev::globaltimer_ns();
  if (lane0) {
    mine->start_cycles = start_cycles;
    mine->end_cycles = end_cycles;
    mine->start_ns = start_ns;
    mine->end_ns = end_ns;
    mine->smid = dev::smid();
  }
}

using KernelFn = void (*)(float, float, std::uint32_t, WarpTiming*, std::uint32_t, std::uint32_t*);

__device__ std::uint32_t g_icache_claim;

template <std::size_t... I>
KernelFn kernel_for(int instructions, std::index_sequence<I...>) {
  KernelFn fn = nullptr;
  ((instructions == kIcacheInstructions[I] ? (fn = icache_kernel<kIcacheInstructions[I]>, 0) : 0), ...);
  return fn;
}

}  // namespace

std::vector<WarpTiming> run_icache(int instructions, int warps, std::uint32_t iterations, std::uint32_t pin_sm) {
  const KernelFn kernel = kernel_for(instructions, std::make_index_sequence<std::size(kIcacheInstructions)>{});
  if (!kernel) throw std::invalid_argument("icache: no kernel of " + std::to_string(instructions) + " instructions");
  if (warps < 1 || warps > 32 || iterations < 2)
    throw std::invalid_argument("icache: 1..32 warps and at least 2 iterations");
  DeviceBuffer<WarpTiming> out(static_cast<std::size_t>(warps));
  // b and c keep the chains finite (x -> c / (1 - b)) and are not constants the compiler could fold.
  std::uint32_t* claim = nullptr;
  ARCHBENCH_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&claim), g_icache_claim));
  launch_pinned(
      "icache", claim,
      [&](int blocks, std::uint32_t sm) {
        kernel<<<blocks, 32 * warps>>>(0.999f, 1e-4f, iterations, out.get(), sm, claim);
      },
      pin_sm);
  return out.download();
}

}  // namespace archbench
