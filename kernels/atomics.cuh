// Atomics kernels. Every op is inline PTX on an address computed from runtime parameters, so
// ptxas cannot prove that a warp's lanes share it and turn the loop into a warp reduction
// (REDUX + one atomic): with a provably uniform address it does exactly that. The SASS test
// checks that the timed loop holds ATOMG/REDG/ATOMS and no REDUX or VOTE.
#pragma once
#include <cstdint>

#include "analysis/warp_timing.hpp"
#include "kernels/arch_guard.cuh"
#include "kernels/atomic_ops.hpp"
#include "kernels/clock.cuh"
#include "kernels/pinned_launch.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench::dev::at {

// One op on one type: atom/red on global memory at each scope, and on shared memory (.cta).
// RC: the register constraint of the type ("r" for 32 bits, "l" for 64).
#define ARCHBENCH_ATOMIC(Name, T, RC, OPTYPE, OP)                                                        \
  struct Name {                                                                                          \
    using type = T;                                                                                      \
    static constexpr AtomOp kOp = AtomOp::OP;                                                            \
    template <AtomScope C>                                                                               \
    __device__ __forceinline__ static T atom(T* p, T v) {                                                \
      T r;                                                                                               \
      if constexpr (C == AtomScope::cta)                                                                 \
        asm volatile("atom.cta.global." OPTYPE " %0, [%1], %2;" : "=" RC(r) : "l"(p), RC(v) : "memory"); \
      else if constexpr (C == AtomScope::gpu)                                                            \
        asm volatile("atom.gpu.global." OPTYPE " %0, [%1], %2;" : "=" RC(r) : "l"(p), RC(v) : "memory"); \
      else                                                                                               \
        asm volatile("atom.sys.global." OPTYPE " %0, [%1], %2;" : "=" RC(r) : "l"(p), RC(v) : "memory"); \
      return r;                                                                                          \
    }                                                                                                    \
    template <AtomScope C>                                                                               \
    __device__ __forceinline__ static void red(T* p, T v) {                                              \
      if constexpr (C == AtomScope::cta)                                                                 \
        asm volatile("red.cta.global." OPTYPE " [%0], %1;" ::"l"(p), RC(v) : "memory");                  \
      else if constexpr (C == AtomScope::gpu)                                                            \
        asm volatile("red.gpu.global." OPTYPE " [%0], %1;" ::"l"(p), RC(v) : "memory");                  \
      else                                                                                               \
        asm volatile("red.sys.global." OPTYPE " [%0], %1;" ::"l"(p), RC(v) : "memory");                  \
    }                                                                                                    \
    __device__ __forceinline__ static T atom_shared(std::uint32_t a, T v) {                              \
      T r;                                                                                               \
      asm volatile("atom.shared." OPTYPE " %0, [%1], %2;" : "=" RC(r) : "r"(a), RC(v) : "memory");       \
      return r;                                                                                          \
    }                                                                                                    \
    __device__ __forceinline__ static void red_shared(std::uint32_t a, T v) {                            \
      asm volatile("red.shared." OPTYPE " [%0], %1;" ::"r"(a), RC(v) : "memory");                        \
    }                                                                                                    \
  }

// Compare-and-swap: atom(p, v) means cas(p, compare = v, swap = v + 1).
#define ARCHBENCH_CAS(Name, T, RC, TYPE, OP)                                                                          \
  struct Name {                                                                                                       \
    using type = T;                                                                                                   \
    static constexpr AtomOp kOp = AtomOp::OP;                                                                         \
    template <AtomScope C>                                                                                            \
    __device__ __forceinline__ static T atom(T* p, T v) {                                                             \
      T r;                                                                                                            \
      const T w = v + 1;                                                                                              \
      if constexpr (C == AtomScope::cta)                                                                              \
        asm volatile("atom.cta.global.cas." TYPE " %0, [%1], %2, %3;" : "=" RC(r) : "l"(p), RC(v), RC(w) : "memory"); \
      else if constexpr (C == AtomScope::gpu)                                                                         \
        asm volatile("atom.gpu.global.cas." TYPE " %0, [%1], %2, %3;" : "=" RC(r) : "l"(p), RC(v), RC(w) : "memory"); \
      else                                                                                                            \
        asm volatile("atom.sys.global.cas." TYPE " %0, [%1], %2, %3;" : "=" RC(r) : "l"(p), RC(v), RC(w) : "memory"); \
      return r;                                                                                                       \
    }                                                                                                                 \
    template <AtomScope C>                                                                                            \
    __device__ __forceinline__ static void red(T*, T) {}                                                              \
    __device__ __forceinline__ static T atom_shared(std::uint32_t a, T v) {                                           \
      T r;                                                                                                            \
      const T w = v + 1;                                                                                              \
      asm volatile("atom.shared.cas." TYPE " %0, [%1], %2, %3;" : "=" RC(r) : "r"(a), RC(v), RC(w) : "memory");       \
      return r;                                                                                                       \
    }                                                                                                                 \
    __device__ __forceinline__ static void red_shared(std::uint32_t, T) {}                                            \
  }

ARCHBENCH_ATOMIC(AddU32, std::uint32_t, "r", "add.u32", add_u32);
ARCHBENCH_ATOMIC(AddU64, unsigned long long, "l", "add.u64", add_u64);
ARCHBENCH_ATOMIC(AddF32, float, "f", "add.f32", add_f32);
ARCHBENCH_ATOMIC(AddF64, double, "d", "add.f64", add_f64);
ARCHBENCH_ATOMIC(AddF16x2, std::uint32_t, "r", "add.noftz.f16x2", add_f16x2);
// bf16x2 atomics need sm_90: a struct of its own whose instructions trap on older GPUs.
struct AddBf16x2 {
  using type = std::uint32_t;
  static constexpr AtomOp kOp = AtomOp::add_bf16x2;
  template <AtomScope C>
  __device__ __forceinline__ static std::uint32_t atom(std::uint32_t* p, std::uint32_t v) {
    std::uint32_t r = 0;
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(), (atom_impl<C>(p, v, r)));
    return r;
  }
  template <AtomScope C>
  __device__ __forceinline__ static void red(std::uint32_t* p, std::uint32_t v) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(), (red_impl<C>(p, v)));
  }
  __device__ __forceinline__ static std::uint32_t atom_shared(std::uint32_t a, std::uint32_t v) {
    std::uint32_t r = 0;
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                            asm volatile("atom.shared.add.noftz.bf16x2 %0, [%1], %2;"
                                         : "=r"(r)
                                         : "r"(a), "r"(v)
                                         : "memory"));
    return r;
  }
  __device__ __forceinline__ static void red_shared(std::uint32_t a, std::uint32_t v) {
    ARCHBENCH_IF_ARCH_BELOW(90, __trap(),
                            asm volatile("red.shared.add.noftz.bf16x2 [%0], %1;" ::"r"(a), "r"(v)
                                         : "memory"));
  }

 private:
  template <AtomScope C>
  __device__ __forceinline__ static void atom_impl(std::uint32_t* p, std::uint32_t v, std::uint32_t& r) {
    if constexpr (C == AtomScope::cta)
      asm volatile("atom.cta.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
    else if constexpr (C == AtomScope::gpu)
      asm volatile("atom.gpu.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
    else
      asm volatile("atom.sys.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(p), "r"(v) : "memory");
  }
  template <AtomScope C>
  __device__ __forceinline__ static void red_impl(std::uint32_t* p, std::uint32_t v) {
    if constexpr (C == AtomScope::cta)
      asm volatile("red.cta.global.add.noftz.bf16x2 [%0], %1;" ::"l"(p), "r"(v) : "memory");
    else if constexpr (C == AtomScope::gpu)
      asm volatile("red.gpu.global.add.noftz.bf16x2 [%0], %1;" ::"l"(p), "r"(v) : "memory");
    else
      asm volatile("red.sys.global.add.noftz.bf16x2 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  }
};
ARCHBENCH_ATOMIC(MinU32, std::uint32_t, "r", "min.u32", min_u32);
ARCHBENCH_ATOMIC(MaxU32, std::uint32_t, "r", "max.u32", max_u32);
ARCHBENCH_ATOMIC(AndB32, std::uint32_t, "r", "and.b32", and_b32);
ARCHBENCH_ATOMIC(OrB32, std::uint32_t, "r", "or.b32", or_b32);
ARCHBENCH_ATOMIC(XorB32, std::uint32_t, "r", "xor.b32", xor_b32);
ARCHBENCH_ATOMIC(ExchB32, std::uint32_t, "r", "exch.b32", exch_b32);
ARCHBENCH_ATOMIC(ExchB64, unsigned long long, "l", "exch.b64", exch_b64);
ARCHBENCH_CAS(CasB32, std::uint32_t, "r", "b32", cas_b32);
ARCHBENCH_CAS(CasB64, unsigned long long, "l", "b64", cas_b64);

// Which address a thread updates: slot = (id >> shift) & mask, id the thread's index in the grid
// (global) or block (shared), or its SM for Contention::sm; address = base + slot x spacing.
struct Pattern {
  std::uint32_t shift, mask;
  std::uint32_t by_sm;          // 1: slot = %smid
  std::uint32_t spacing_elems;  // elements between consecutive slots
  // near_l2 / far_l2: the line of warp w (in its block) on SM s is line_of[s * 32 + w]; lane l
  // updates element l of it (line_elems elements per line).
  const std::uint32_t* line_of;
  std::uint32_t line_elems;
};

template <class Op, AtomSpace S, AtomScope C, AtomForm F, bool kCas>
__global__ void __launch_bounds__(1024)
    atomic_throughput_kernel(typename Op::type* global_base, Pattern pat, std::uint32_t iters,
                             WarpTiming* __restrict__ out, std::uint64_t* __restrict__ cas_successes,
                             std::uint32_t shared_slots) {
  using T = typename Op::type;
  constexpr AtomOp op = Op::kOp;  // compile-time: the operands below fold into constants
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* shared_base = reinterpret_cast<T*>(smem_raw);
  const std::uint32_t gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const std::uint32_t id = S == AtomSpace::global ? gtid : threadIdx.x;
  const std::uint32_t slot = pat.by_sm ? smid() : (id >> pat.shift) & pat.mask;
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  if constexpr (S == AtomSpace::shared) {
    for (std::uint32_t i = threadIdx.x; i < shared_slots * pat.spacing_elems; i += blockDim.x)
      shared_base[i] = from_bits<T>(atomic_initial(op));
  }
  T* gaddr = pat.line_of ? global_base + std::size_t(pat.line_of[smid() * 32 + threadIdx.x / 32]) * pat.line_elems +
                               threadIdx.x % 32
                         : global_base + std::size_t(slot) * pat.spacing_elems;
  const auto saddr = static_cast<std::uint32_t>(__cvta_generic_to_shared(shared_base + slot * pat.spacing_elems));
  std::uint64_t acc = 0, successes = 0;
  T expected = from_bits<T>(atomic_initial(op));
  __syncthreads();
  const WarpClock clock = warp_clock_start();
#pragma unroll 4
  for (std::uint32_t it = 0; it < iters; ++it) {
    if constexpr (kCas) {
      // A chain: each CAS compares with the value the last one read; success moves it on by one.
      const T seen = S == AtomSpace::global ? Op::template atom<C>(gaddr, expected) : Op::atom_shared(saddr, expected);
      successes += seen == expected;
      expected = seen == expected ? T(expected + 1) : seen;
    } else {
      const T v = from_bits<T>(atomic_operand(op, gtid, it));
      if constexpr (F == AtomForm::atom) {
        const T r = S == AtomSpace::global ? Op::template atom<C>(gaddr, v) : Op::atom_shared(saddr, v);
        acc ^= bits_of(r);
      } else if constexpr (S == AtomSpace::global) {
        Op::template red<C>(gaddr, v);
      } else {
        Op::red_shared(saddr, v);
      }
    }
  }
  warp_clock_stop(mine, clock, acc ^ successes);
  if constexpr (kCas)
    atomicAdd(reinterpret_cast<unsigned long long*>(
                  &cas_successes[S == AtomSpace::global ? slot : blockIdx.x * shared_slots + slot]),
              successes);
  if constexpr (S == AtomSpace::shared) {  // hand the block's final values to the host
    __syncthreads();
    for (std::uint32_t i = threadIdx.x; i < shared_slots; i += blockDim.x)
      global_base[std::size_t(blockIdx.x) * shared_slots + i] = shared_base[i * pat.spacing_elems];
  }
}

// Latency: one thread, a chain where each atomic's operand depends on the value the last one
// returned (through `zero`, a runtime 0), on one address.
// With line_of (global memory), the chain runs on the first line of the running SM's table: a
// line whose L2 home partition is near to (or far from) that SM.
template <class Op, AtomSpace S>
__global__ void atomic_latency_kernel(typename Op::type* global_base, std::uint32_t iters, std::uint64_t zero,
                                      std::uint64_t* cycles_out, const std::uint32_t* line_of, std::uint32_t line_bytes,
                                      std::uint32_t line_index, std::uint32_t pin_sm, std::uint32_t* claim) {
  using T = typename Op::type;
  constexpr AtomOp op = Op::kOp;
  if (!claim_pinned_sm(pin_sm, claim)) return;  // one SM: its near and far lines, every launch
  if (line_of) {
    global_base = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(global_base) +
                                       std::size_t(line_of[smid() * 32 + line_index]) * line_bytes);
    *global_base = from_bits<T>(atomic_initial(op));
  }
  __shared__ T shared_cell;
  shared_cell = from_bits<T>(atomic_initial(op));
  __syncthreads();
  const auto saddr = static_cast<std::uint32_t>(__cvta_generic_to_shared(&shared_cell));
  std::uint64_t dep = 0;
  const std::uint64_t start_ns = globaltimer_ns();
  const std::uint64_t start = clock64_ordered();
  for (std::uint32_t it = 0; it < iters; ++it) {
    const T v = from_bits<T>(atomic_operand(op, 0, it) | (dep & zero));
    const T r = S == AtomSpace::global ? Op::template atom<AtomScope::gpu>(global_base, v) : Op::atom_shared(saddr, v);
    dep = bits_of(r);
  }
  st_global_u64(cycles_out + 1, dep);  // the clock waits for the last atomic
  const std::uint64_t end = clock64_ordered();
  const std::uint64_t end_ns = globaltimer_ns();
  cycles_out[0] = end - start;
  cycles_out[2] = end_ns - start_ns;
}

// Home-partition probe: block b (lane 0 only) times a short chain of dependent atom.add on every
// line, starting at a different line per block so that no two SMs hit one line at a time.
// cycles[b * n_lines + line] = cycles per atomic; sm_of_block[b] = the block's SM.
__global__ void l2_home_probe_kernel(std::uint32_t* lines, std::uint32_t n_lines, std::uint32_t line_words,
                                     std::uint32_t chain, std::uint32_t zero, std::uint32_t pass, std::uint32_t* cycles,
                                     std::uint32_t* sm_of_block) {
  if (threadIdx.x != 0) return;
  const std::uint32_t b = blockIdx.x;
  // Each block starts at its own line (pass 1: half an offset further on).
  const std::uint32_t offset = n_lines / gridDim.x;
  for (std::uint32_t k = 0; k < n_lines; ++k) {
    const std::uint32_t line = (k + b * offset + pass * (offset / 2)) % n_lines;
    std::uint32_t* p = lines + std::size_t(line) * line_words;
    std::uint32_t dep = AddU32::atom<AtomScope::gpu>(p, 1u);  // warm the line's home
    const std::uint64_t t0 = clock64_ordered();
    for (std::uint32_t c = 0; c < chain; ++c) dep = AddU32::atom<AtomScope::gpu>(p + (dep & zero), 1u);
    st_global_u32(&sm_of_block[gridDim.x + b], dep);  // the clock waits for the chain
    const std::uint64_t t1 = clock64_ordered();
    cycles[std::size_t(b) * n_lines + line] = static_cast<std::uint32_t>((t1 - t0) / chain);
  }
  sm_of_block[b] = smid();
}

}  // namespace archbench::dev::at
