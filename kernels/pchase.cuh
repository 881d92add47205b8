// Pointer-chase kernels (Mei & Chu): one thread follows a chase built on the host
// (fixtures/harness/chase_builder.hpp). Each load's address depends on the previous load's value, so
// accesses are serialised and the time per step is the load-to-use latency.
//
// Two element forms, chosen for what each measures:
//  - chain: 64-bit absolute pointers, p = *p. One step is one LDG and nothing else, so the
//    average over a long chain is the pure load-to-use latency. Strides are multiples of 8 B.
//  - fine: 32-bit indices, j = a[j] (Mei & Chu), any stride from 4 B. One step is IMAD.WIDE
//    (address = base + 4*j) then LDG, inside the timer sequence; the timer-only variant measures
//    the sequence without the load, which is reported beside the raw latency.
#pragma once
#include <cstdint>

#include "kernels/clock.cuh"
#include "kernels/pinned_launch.cuh"

namespace archbench::dev {

// One tag type per cache operator: the exact PTX load (32-bit for index chases, 64-bit for
// pointer chases), so the variant is a template parameter. PTX needs the qualifier inside a string
// literal, hence the macro.
#define ARCHBENCH_DEFINE_LOAD(Tag, qualifier)                                              \
  struct Tag {                                                                             \
    static __device__ __forceinline__ std::uint32_t load(const std::uint32_t* p) {         \
      std::uint32_t v;                                                                     \
      asm volatile("ld.global." qualifier ".u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory"); \
      return v;                                                                            \
    }                                                                                      \
    static __device__ __forceinline__ std::uint64_t load(const std::uint64_t* p) {         \
      std::uint64_t v;                                                                     \
      asm volatile("ld.global." qualifier ".u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory"); \
      return v;                                                                            \
    }                                                                                      \
  }
ARCHBENCH_DEFINE_LOAD(LoadCa, "ca");
ARCHBENCH_DEFINE_LOAD(LoadCg, "cg");
ARCHBENCH_DEFINE_LOAD(LoadNc, "nc");
#undef ARCHBENCH_DEFINE_LOAD

struct ChainOut {
  std::uint64_t cycles, ns, final_pointer;
  std::uint32_t smid;
};

struct FineOut {
  std::uint64_t window_cycles, window_ns;
  std::uint32_t final_index, smid;
};

// Averaged long chain of absolute pointers. The warm-up loop is not unrolled (1 LDG), the timed
// loop is unrolled kUnroll times (kUnroll LDGs): the SASS test counts exactly 1 + kUnroll loads.
template <class Load, unsigned kUnroll>
__global__ void __launch_bounds__(1) pchase_chain(std::uint64_t p, std::uint32_t warm_steps, std::uint32_t timed_blocks,
                                                  ChainOut* out, std::uint32_t pin_sm, std::uint32_t* claim) {
  if (!claim_pinned_sm(pin_sm, claim)) return;
#pragma unroll 1
  for (std::uint32_t i = 0; i < warm_steps; ++i) p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
  st_global_u64(&out->final_pointer, p);  // the first timed load must not overlap the warm-up
  const std::uint64_t c0 = clock64_ordered();
  const std::uint64_t g0 = globaltimer_ns();
#pragma unroll 1
  for (std::uint32_t b = 0; b < timed_blocks; ++b) {
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u) p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
  }
  st_global_u64(&out->final_pointer, p);  // waits for the last load before the clock is read
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
__global__ void __launch_bounds__(1)
    pchase_fine(const std::uint32_t* __restrict__ a, std::uint32_t j, std::uint32_t warm_steps,
                std::uint32_t* __restrict__ cycles_out, FineOut* out, std::uint32_t pin_sm, std::uint32_t* claim) {
  __shared__ std::uint32_t s_cycles[kSamples];
  __shared__ std::uint32_t s_sink;
  if (!claim_pinned_sm(pin_sm, claim)) return;
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

// The L2 latency of each of a list of lines, from one SM or from every SM at once (the L2 map).
// Each line's first 8 bytes hold its own address, so p = *p stays on the line: kSteps dependent
// loads, timed, after two untimed ones that bring the line (and its translation) to the SM. Each
// SM starts at a line of its own (its number times lines / sms) so that no two SMs ask one slice
// for one line at once; every SM at once read within 0.3 cycles of one SM alone on an H200. A
// block claims its SM through claims[smid] (pin_sm < 0: every SM; else that one).
// out[smid * lines + line]: cycles per load, within 0.3 cycles of a chain through the same lines.
template <class Load, unsigned kSteps>
__global__ void __launch_bounds__(32)
    line_latency(const std::uint64_t* __restrict__ addresses, std::uint32_t lines, float* out, std::uint32_t* claims,
                 int pin_sm, std::uint32_t sms, std::uint64_t* sink) {
  __shared__ std::uint32_t won;
  const std::uint32_t sm = smid();
  if (threadIdx.x == 0) won = (pin_sm < 0 || sm == std::uint32_t(pin_sm)) && atomicExch(&claims[sm], 1u) == 0u;
  __syncthreads();
  if (!won || threadIdx.x != 0) return;
  const std::uint32_t first = std::uint32_t(std::uint64_t(sm) * lines / sms);
#pragma unroll 1
  for (std::uint32_t k = 0; k < lines; ++k) {
    const std::uint32_t line = (first + k) % lines;
    std::uint64_t p = addresses[line];
    p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
    p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
    st_global_u64(sink, p);  // the first timed load must not overlap the untimed ones
    const std::uint64_t c0 = clock64_ordered();
#pragma unroll
    for (unsigned u = 0; u < kSteps; ++u) p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
    st_global_u64(sink, p);  // waits for the last load before the clock is read
    const std::uint64_t c1 = clock64_ordered();
    out[std::uint64_t(sm) * lines + line] = float(c1 - c0) / float(kSteps);
  }
}

}  // namespace archbench::dev
