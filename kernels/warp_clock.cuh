// How every throughput kernel times its warps: clocks read at the start of the timed window and
// at its end, the end after a store of the warp's result fold (the store waits for the last
// result, and the volatile clock read issues after it), and lane 0 writes the WarpTiming record.
#pragma once
#include <cstdint>
#include <cstring>

#include "analysis/warp_timing.hpp"
#include "kernels/clock.cuh"

namespace archbench::dev {

struct WarpClock {
  std::uint64_t start_ns, start_cycles;
};

__device__ __forceinline__ WarpClock warp_clock_start() {
  WarpClock c;
  c.start_ns = globaltimer_ns();
  c.start_cycles = clock64_ordered();
  return c;
}

__device__ __forceinline__ void warp_clock_stop(WarpTiming* mine, const WarpClock& c, std::uint64_t fold) {
  const bool lane0 = threadIdx.x % 32 == 0;
  if (lane0) st_global_u64(&mine->check, fold);
  const std::uint64_t end_cycles = clock64_ordered();
  const std::uint64_t end_ns = globaltimer_ns();
  if (lane0) {
    mine->start_cycles = c.start_cycles;
    mine->end_cycles = end_cycles;
    mine->start_ns = c.start_ns;
    mine->end_ns = end_ns;
    mine->smid = smid();
  }
}

// Bit patterns of 2-, 4- and 8-byte values, zero-extended, and back.
template <class T>
__device__ __forceinline__ std::uint64_t bits_of(T v) {
  if constexpr (sizeof(T) == 2) {
    std::uint16_t u;
    memcpy(&u, &v, 2);
    return u;
  } else if constexpr (sizeof(T) == 4) {
    std::uint32_t u;
    memcpy(&u, &v, 4);
    return u;
  } else {
    std::uint64_t u;
    memcpy(&u, &v, 8);
    return u;
  }
}
template <class T>
__device__ __forceinline__ T from_bits(std::uint64_t b) {
  T v;
  if constexpr (sizeof(T) == 4) {
    const auto u = static_cast<std::uint32_t>(b);
    memcpy(&v, &u, 4);
  } else {
    memcpy(&v, &b, 8);
  }
  return v;
}

}  // namespace archbench::dev
