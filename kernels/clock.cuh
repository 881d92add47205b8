// Timers and identity registers, as inline PTX so that the compiler keeps them in program order
// (every asm here is volatile with a "memory" clobber: it is never moved across another).
#pragma once
#include <cstdint>

namespace archbench::dev {

// SM cycle counter (CS2R SR_CLOCKLO in SASS: fixed, low latency).
__device__ __forceinline__ std::uint64_t clock64_ordered() {
  std::uint64_t c;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c)::"memory");
  return c;
}

// Global nanosecond timer, comparable across SMs (CS2R SR_GLOBALTIMERLO).
__device__ __forceinline__ std::uint64_t globaltimer_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
  return t;
}

__device__ __forceinline__ std::uint32_t smid() {
  std::uint32_t s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// A store that cannot be issued before `v` has arrived: placed before a clock read, it makes the
// clock wait for the load that produced v (Mei & Chu's trick).
__device__ __forceinline__ void st_global_u32(std::uint32_t* p, std::uint32_t v) {
  asm volatile("st.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ void st_global_u64(std::uint64_t* p, std::uint64_t v) {
  asm volatile("st.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void st_shared_u32(std::uint32_t* p, std::uint32_t v) {
  const auto a = static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
  asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}

}  // namespace archbench::dev
