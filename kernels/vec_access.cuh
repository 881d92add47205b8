// Accesses of 4, 8 and 16 bytes per thread, shared by the kernels that sweep the access width:
// the vector type of each width, a fold of its bits into 32, a fill value, and a shared-memory load.
#pragma once
#include <cstdint>

namespace archbench::dev {

template <int kBytes>
struct VecOf;
template <>
struct VecOf<4> {
  using T = std::uint32_t;
};
template <>
struct VecOf<8> {
  using T = uint2;
};
template <>
struct VecOf<16> {
  using T = uint4;
};

__device__ __forceinline__ std::uint32_t fold(std::uint32_t v) { return v; }
__device__ __forceinline__ std::uint32_t fold(uint2 v) { return v.x ^ v.y; }
__device__ __forceinline__ std::uint32_t fold(uint4 v) { return v.x ^ v.y ^ v.z ^ v.w; }
// The sum of the 32-bit words (a check that counts every load, where a xor of equal values cancels).
__device__ __forceinline__ std::uint32_t sum_words(std::uint32_t v) { return v; }
__device__ __forceinline__ std::uint32_t sum_words(uint2 v) { return v.x + v.y; }
__device__ __forceinline__ std::uint32_t sum_words(uint4 v) { return v.x + v.y + v.z + v.w; }
__device__ __forceinline__ void make(std::uint32_t& v, std::uint32_t s) { v = s; }
__device__ __forceinline__ void make(uint2& v, std::uint32_t s) { v = make_uint2(s, ~s); }
__device__ __forceinline__ void make(uint4& v, std::uint32_t s) { v = make_uint4(s, ~s, s ^ 0x55u, s ^ 0xaau); }
// A shared-memory load of kBytes at a shared-window address. PTX-volatile: the same addresses
// repeat within and across a kernel's passes, and ptxas would merge plain loads of one address
// (the SASS tests count them).
template <int kBytes>
__device__ __forceinline__ typename VecOf<kBytes>::T lds(std::uint32_t a) {
  typename VecOf<kBytes>::T v;
  if constexpr (kBytes == 4) {
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
  } else if constexpr (kBytes == 8) {
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v.x), "=r"(v.y) : "r"(a));
  } else {
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(a));
  }
  return v;
}

}  // namespace archbench::dev
