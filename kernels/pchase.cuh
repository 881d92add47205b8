// Pointer-chase kernels (Mei & Chu): one thread follows j = a[j] through a chase array built on
// the host (fixtures/chase_builder.hpp). Each load's address depends on the previous load's value,
// so accesses are serialised and time per step is the load-to-use latency.
//
// What one step costs in SASS: IMAD.WIDE.U32 (address = base + 4*j) then LDG. The address
// arithmetic is part of the chain; the fine-grained form measures the timer sequence separately.
#pragma once
#include <cstdint>

#include "kernels/clock.cuh"

namespace archbench::dev {

// One tag type per cache operator: the exact PTX load, so the variant is a template parameter.
struct LoadCa {
  static __device__ __forceinline__ std::uint32_t load(const std::uint32_t* p) {
    std::uint32_t v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
  }
};
struct LoadCg {
  static __device__ __forceinline__ std::uint32_t load(const std::uint32_t* p) {
    std::uint32_t v;
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
  }
};
struct LoadNc {
  static __device__ __forceinline__ std::uint32_t load(const std::uint32_t* p) {
    std::uint32_t v;
    asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
  }
};

struct ChainOut {
  std::uint64_t cycles, ns;
  std::uint32_t final_index, smid;
};

struct FineOut {
  std::uint64_t window_cycles, window_ns;
  std::uint32_t final_index, smid;
};

// Averaged long chain. The warm-up loop is not unrolled (1 LDG), the timed loop is unrolled
// kUnroll times (kUnroll LDGs): the SASS test counts exactly 1 + kUnroll loads.
template <class Load, unsigned kUnroll>
__global__ void __launch_bounds__(1) pchase_chain(const std::uint32_t* __restrict__ a, std::uint32_t j,
                                                  std::uint32_t warm_steps, std::uint32_t timed_blocks,
                                                  ChainOut* out) {
#pragma unroll 1
  for (std::uint32_t i = 0; i < warm_steps; ++i) j = Load::load(a + j);
  st_global_u32(&out->final_index, j);  // the first timed load must not overlap the warm-up
  const std::uint64_t c0 = clock64_ordered();
  const std::uint64_t g0 = globaltimer_ns();
#pragma unroll 1
  for (std::uint32_t b = 0; b < timed_blocks; ++b) {
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) j = Load::load(a + j);
  }
  st_global_u32(&out->final_index, j);  // waits for the last load before the clock is read
  const std::uint64_t c1 = clock64_ordered();
  const std::uint64_t g1 = globaltimer_ns();
  out->cycles = c1 - c0;
  out->ns = g1 - g0;
  out->smid = smid();
}

// Fine-grained chase: each access is timed on its own as clock; load; st.shared of the loaded
// value; clock. The store cannot issue before the load returns, so the second clock waits for it.
// With kTimerOnly the load is left out: the same sequence measures the timer overhead.
template <class Load, unsigned kSamples, bool kTimerOnly = false>
__global__ void __launch_bounds__(1) pchase_fine(const std::uint32_t* __restrict__ a, std::uint32_t j,
                                                 std::uint32_t warm_steps, std::uint32_t* __restrict__ cycles_out,
                                                 FineOut* out) {
  __shared__ std::uint32_t s_cycles[kSamples];
  __shared__ std::uint32_t s_sink;
  if constexpr (!kTimerOnly) {
#pragma unroll 1
    for (std::uint32_t i = 0; i < warm_steps; ++i) j = Load::load(a + j);
  }
  st_shared_u32(&s_sink, j);
  const std::uint64_t c0 = clock64_ordered();
  const std::uint64_t g0 = globaltimer_ns();
#pragma unroll 1
  for (unsigned k = 0; k < kSamples; ++k) {
    const std::uint64_t t0 = clock64_ordered();
    if constexpr (!kTimerOnly) j = Load::load(a + j);
    st_shared_u32(&s_sink, j);
    const std::uint64_t t1 = clock64_ordered();
    s_cycles[k] = static_cast<std::uint32_t>(t1 - t0);
    if constexpr (kTimerOnly) j += k;  // keep j a run-time value
  }
  const std::uint64_t c1 = clock64_ordered();
  const std::uint64_t g1 = globaltimer_ns();
  for (unsigned k = 0; k < kSamples; ++k) cycles_out[k] = s_cycles[k];
  out->window_cycles = c1 - c0;
  out->window_ns = g1 - g0;
  out->final_index = j;
  out->smid = smid();
}

}  // namespace archbench::dev
