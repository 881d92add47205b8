// wgmma kernels (Hopper, sm_90a only; this file is built for sm_90a alone, see CMakeLists.txt).
// Every warpgroup of a block runs one accumulator through 1 + iterations x kWgmmaPerIteration
// wgmma.mma_async of one type and N, from the A and B images the block copied to shared memory
// (A from registers in the RS mode). The accumulators live in registers declared inside the asm,
// so the whole timed loop is one block of PTX: nothing the compiler could fold, move or split.
//   ss:          8 wgmma per commit group, one group left in flight (wait_group 1), as GEMMs run
//   rs:          the same with A from registers
//   ss_latency:  every wgmma committed and waited for alone (wait_group 0)
// At the end each thread sums its accumulator registers (f32, s32, or f16x2 pairs) and writes the
// raw bits: every warpgroup computed the same product, and the host knows its exact sum for
// integer data.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/tensor.hpp"
#include "kernels/warp_clock.cuh"
#include "kernels/wgmma_descriptor.cuh"
#include "kernels/shared/enum_names.hpp"

namespace archbench {
namespace dev::wgmma {

// Register lists d0..d{R-1} and per-register statements, built by the preprocessor: AB_FOR_<R>(M)
// expands M(1) ... M(R-1); AB_TEN pastes a tens digit onto 0..9.
#define AB_TEN(M, t) M(t##0) M(t##1) M(t##2) M(t##3) M(t##4) M(t##5) M(t##6) M(t##7) M(t##8) M(t##9)
#define AB_FOR_2(M) M(1)
#define AB_FOR_4(M) M(1) M(2) M(3)
#define AB_FOR_8(M) AB_FOR_4(M) M(4) M(5) M(6) M(7)
#define AB_FOR_10(M) AB_FOR_8(M) M(8) M(9)
#define AB_FOR_16(M) AB_FOR_10(M) M(10) M(11) M(12) M(13) M(14) M(15)
#define AB_FOR_32(M) AB_FOR_10(M) AB_TEN(M, 1) AB_TEN(M, 2) M(30) M(31)
#define AB_FOR_64(M) \
  AB_FOR_10(M) AB_TEN(M, 1) AB_TEN(M, 2) AB_TEN(M, 3) AB_TEN(M, 4) AB_TEN(M, 5) M(60) M(61) M(62) M(63)
#define AB_FOR_128(M)                                                                                     \
  AB_FOR_10(M)                                                                                            \
  AB_TEN(M, 1)                                                                                            \
  AB_TEN(M, 2) AB_TEN(M, 3) AB_TEN(M, 4) AB_TEN(M, 5) AB_TEN(M, 6) AB_TEN(M, 7) AB_TEN(M, 8) AB_TEN(M, 9) \
      AB_TEN(M, 10) AB_TEN(M, 11) M(120) M(121) M(122) M(123) M(124) M(125) M(126) M(127)

#define AB_REG(i) ", d" #i
#define AB_ADD_F32(i) "add.f32 s, s, d" #i ";\n"
#define AB_ADD_S32(i) "add.s32 s, s, d" #i ";\n"
#define AB_ADD_F16X2(i) "add.rn.f16x2 s, s, d" #i ";\n"
#define AB_X8(S) S S S S S S S S

// One wgmma with scale-d predicate P. A is "%1" (a descriptor) or "{%3, %4, %5, %6}" (registers).
#define AB_INSTR(SHAPE_TYPES, R, A, B, P, TAIL) \
  "wgmma.mma_async.sync.aligned." SHAPE_TYPES " {d0" AB_FOR_##R(AB_REG) "}, " A ", " B ", " P TAIL ";\n"

// The whole timed sequence: the first wgmma overwrites D (pz false), the loop accumulates.
#define AB_BODY(R, INSTR_PZ, INSTR_PT, ITERS, LOOP, ADD) \
  "{\n.reg .b32 d<" #R ">;\n.reg .b32 it, s;\n.reg .pred pz, pt, pl;\n"               \
  "mov.b32 it, 0;\nsetp.ne.b32 pz, it, 0;\nsetp.eq.b32 pt, it, 0;\n"                  \
  "mov.b32 it, " ITERS ";\n"                                                          \
  "wgmma.fence.sync.aligned;\n" INSTR_PZ "ab_wgmma_loop:\nwgmma.fence.sync.aligned;\n" LOOP(INSTR_PT) \
  "sub.u32 it, it, 1;\nsetp.ne.u32 pl, it, 0;\n@pl bra ab_wgmma_loop;\n"              \
  "wgmma.wait_group.sync.aligned 0;\n"                                                \
  "mov.b32 s, d0;\n" AB_FOR_##R(ADD) "mov.b32 %0, s;\n}\n"
#define AB_LOOP_THROUGHPUT(I) AB_X8(I) "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 1;\n"
#define AB_LOOP_LATENCY(I) AB_X8(I "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n")

template <WgmmaType T, int N>
struct Asm;

// SS operands: %0 sum, %1 A descriptor, %2 B descriptor, %3 iterations.
// RS operands: %0 sum, %1 B descriptor, %2 iterations, %3..%6 A registers.
#define AB_WGMMA(T, N, K, R, TYPES, SS_TAIL, RS_TAIL, ADD)                                                             \
  template <>                                                                                                          \
  struct Asm<WgmmaType::T, N> {                                                                                        \
    static __device__ __forceinline__ std::uint32_t ss(std::uint64_t da, std::uint64_t db, std::uint32_t n) {          \
      std::uint32_t s;                                                                                                 \
      asm volatile(                                                                                                    \
          AB_BODY(R, AB_INSTR("m64n" #N "k" #K TYPES, R, "%1", "%2", "pz", SS_TAIL),                                   \
                  AB_INSTR("m64n" #N "k" #K TYPES, R, "%1", "%2", "pt", SS_TAIL), "%3", AB_LOOP_THROUGHPUT, ADD)       \
          : "=r"(s)                                                                                                    \
          : "l"(da), "l"(db), "r"(n)                                                                                   \
          : "memory");                                                                                                 \
      return s;                                                                                                        \
    }                                                                                                                  \
    static __device__ __forceinline__ std::uint32_t ss_latency(std::uint64_t da, std::uint64_t db, std::uint32_t n) {  \
      std::uint32_t s;                                                                                                 \
      asm volatile(AB_BODY(R, AB_INSTR("m64n" #N "k" #K TYPES, R, "%1", "%2", "pz", SS_TAIL),                          \
                           AB_INSTR("m64n" #N "k" #K TYPES, R, "%1", "%2", "pt", SS_TAIL), "%3", AB_LOOP_LATENCY, ADD) \
                   : "=r"(s)                                                                                           \
                   : "l"(da), "l"(db), "r"(n)                                                                          \
                   : "memory");                                                                                        \
      return s;                                                                                                        \
    }                                                                                                                  \
    static __device__ __forceinline__ std::uint32_t rs(const std::uint32_t (&a)[4], std::uint64_t db,                  \
                                                       std::uint32_t n) {                                              \
      std::uint32_t s;                                                                                                 \
      asm volatile(AB_BODY(R, AB_INSTR("m64n" #N "k" #K TYPES, R, "{%3, %4, %5, %6}", "%1", "pz", RS_TAIL),            \
                           AB_INSTR("m64n" #N "k" #K TYPES, R, "{%3, %4, %5, %6}", "%1", "pt", RS_TAIL), "%2",         \
                           AB_LOOP_THROUGHPUT, ADD)                                                                    \
                   : "=r"(s)                                                                                           \
                   : "l"(db), "r"(n), "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])                                       \
                   : "memory");                                                                                        \
      return s;                                                                                                        \
    }                                                                                                                  \
  };

// Sparse (wgmma.mma_async.sp): the metadata word and sparsity selector 0 after B.
// SS operands: %0 sum, %1 A descriptor (the nonzeros), %2 B descriptor, %3 iterations, %4 metadata.
// RS operands: %0 sum, %1 B descriptor, %2 iterations, %3..%6 A registers (the nonzeros), %7 metadata.
#define AB_INSTR_SP(SHAPE_TYPES, R, A, B, E, P, TAIL) \
  "wgmma.mma_async.sp.sync.aligned." SHAPE_TYPES " {d0" AB_FOR_##R(AB_REG) "}, " A ", " B ", " E ", 0, " P TAIL ";\n"
#define AB_SP_SS(SHAPE_TYPES, R, P, TAIL) AB_INSTR_SP(SHAPE_TYPES, R, "%1", "%2", "%4", P, TAIL)
#define AB_SP_RS(SHAPE_TYPES, R, P, TAIL) AB_INSTR_SP(SHAPE_TYPES, R, "{%3, %4, %5, %6}", "%1", "%7", P, TAIL)
// A sparse SS method: LOOP throughput (one commit group left in flight) or latency (each alone).
#define AB_SP_SS_METHOD(NAME, N, K, R, TYPES, TAIL, LOOP, ADD)                                         \
  static __device__ __forceinline__ std::uint32_t NAME(std::uint64_t da, std::uint64_t db, std::uint32_t n, \
                                                       std::uint32_t e) {                              \
    std::uint32_t s;                                                                                   \
    asm volatile(AB_BODY(R, AB_SP_SS("m64n" #N "k" #K TYPES, R, "pz", TAIL),                          \
                         AB_SP_SS("m64n" #N "k" #K TYPES, R, "pt", TAIL), "%3", LOOP, ADD)             \
                 : "=r"(s)                                                                             \
                 : "l"(da), "l"(db), "r"(n), "r"(e)                                                    \
                 : "memory");                                                                          \
    return s;                                                                                          \
  }
#define AB_WGMMA_SP(T, N, K, R, TYPES, SS_TAIL, RS_TAIL, ADD)                                                 \
  template <>                                                                                                 \
  struct AsmSp<WgmmaType::T, N> {                                                                             \
    AB_SP_SS_METHOD(ss, N, K, R, TYPES, SS_TAIL, AB_LOOP_THROUGHPUT, ADD)                                     \
    AB_SP_SS_METHOD(ss_latency, N, K, R, TYPES, SS_TAIL, AB_LOOP_LATENCY, ADD)                                \
    static __device__ __forceinline__ std::uint32_t rs(const std::uint32_t (&a)[4], std::uint64_t db,         \
                                                       std::uint32_t n, std::uint32_t e) {                    \
      std::uint32_t s;                                                                                        \
      asm volatile(AB_BODY(R, AB_SP_RS("m64n" #N "k" #K TYPES, R, "pz", RS_TAIL),                             \
                           AB_SP_RS("m64n" #N "k" #K TYPES, R, "pt", RS_TAIL), "%2", AB_LOOP_THROUGHPUT, ADD) \
                   : "=r"(s)                                                                                  \
                   : "l"(db), "r"(n), "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(e)                      \
                   : "memory");                                                                               \
      return s;                                                                                               \
    }                                                                                                         \
  };

// Every N of one type through the per-shape macro M (AB_WGMMA or AB_WGMMA_SP): registers per thread
// are N/2 (32-bit accumulators) or N/4 (f16x2).
#define AB_EVERY_N_32BIT(M, T, K, TYPES, SS_TAIL, RS_TAIL, ADD) \
  M(T, 8, K, 4, TYPES, SS_TAIL, RS_TAIL, ADD)                   \
  M(T, 16, K, 8, TYPES, SS_TAIL, RS_TAIL, ADD)                  \
  M(T, 32, K, 16, TYPES, SS_TAIL, RS_TAIL, ADD)                 \
  M(T, 64, K, 32, TYPES, SS_TAIL, RS_TAIL, ADD)                 \
  M(T, 128, K, 64, TYPES, SS_TAIL, RS_TAIL, ADD)                \
  M(T, 256, K, 128, TYPES, SS_TAIL, RS_TAIL, ADD)
#define AB_EVERY_N_16BIT(M, T, K, TYPES, SS_TAIL, RS_TAIL, ADD) \
  M(T, 8, K, 2, TYPES, SS_TAIL, RS_TAIL, ADD)                   \
  M(T, 16, K, 4, TYPES, SS_TAIL, RS_TAIL, ADD)                  \
  M(T, 32, K, 8, TYPES, SS_TAIL, RS_TAIL, ADD)                  \
  M(T, 64, K, 16, TYPES, SS_TAIL, RS_TAIL, ADD)                 \
  M(T, 128, K, 32, TYPES, SS_TAIL, RS_TAIL, ADD)                \
  M(T, 256, K, 64, TYPES, SS_TAIL, RS_TAIL, ADD)

// The types: K dense and sparse (twice: A holds half of it), the PTX types, the tails after
// scale-d (16-bit types take scale-a, scale-b and the transposes, none: both K-major; tf32 and fp8
// the scales only; s8 nothing), the accumulators' sum and their width.
#define AB_WGMMA_TYPES(X)                                                                      \
  X(f16_f32, 16, 32, ".f32.f16.f16", ", 1, 1, 0, 0", ", 1, 1, 0", AB_ADD_F32, 32BIT)           \
  X(f16_f16, 16, 32, ".f16.f16.f16", ", 1, 1, 0, 0", ", 1, 1, 0", AB_ADD_F16X2, 16BIT)         \
  X(bf16_f32, 16, 32, ".f32.bf16.bf16", ", 1, 1, 0, 0", ", 1, 1, 0", AB_ADD_F32, 32BIT)        \
  X(tf32_f32, 8, 16, ".f32.tf32.tf32", ", 1, 1", ", 1, 1", AB_ADD_F32, 32BIT)                  \
  X(e4m3_f32, 32, 64, ".f32.e4m3.e4m3", ", 1, 1", ", 1, 1", AB_ADD_F32, 32BIT)                 \
  X(e5m2_f32, 32, 64, ".f32.e5m2.e5m2", ", 1, 1", ", 1, 1", AB_ADD_F32, 32BIT)                 \
  X(s8_s32, 32, 64, ".s32.s8.s8", "", "", AB_ADD_S32, 32BIT)
#define AB_DENSE(T, K, K_SPARSE, TYPES, SS_TAIL, RS_TAIL, ADD, WIDTH) \
  AB_EVERY_N_##WIDTH(AB_WGMMA, T, K, TYPES, SS_TAIL, RS_TAIL, ADD)
#define AB_SPARSE(T, K, K_SPARSE, TYPES, SS_TAIL, RS_TAIL, ADD, WIDTH) \
  AB_EVERY_N_##WIDTH(AB_WGMMA_SP, T, K_SPARSE, TYPES, SS_TAIL, RS_TAIL, ADD)

template <WgmmaType T, int N>
struct AsmSp;
AB_WGMMA_TYPES(AB_DENSE)
AB_WGMMA_TYPES(AB_SPARSE)

constexpr int kMaxThreads = 128 * kWgmmaMaxWarpgroupsPerBlock;

// The block copies A's and B's images to shared memory; the generic-proxy stores must be visible
// to wgmma's async proxy before it reads them.
__device__ __forceinline__ void stage_operands(uint4* smem, const uint4* __restrict__ a_image, int a_words,
                                               const uint4* __restrict__ b_image, int b_words) {
  for (int i = threadIdx.x; i < a_words + b_words; i += blockDim.x)
    smem[i] = i < a_words ? a_image[i] : b_image[i - a_words];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
}

// This thread's A register fragment (wgmma ...RS) from the K-major image at the start of smem.
__device__ __forceinline__ void load_a_fragment(const uint4* smem, std::uint32_t (&a)[4]) {
  const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32;
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(smem);
#pragma unroll
  for (int r = 0; r < 4; ++r)
    a[r] = *reinterpret_cast<const std::uint32_t*>(
        bytes + wgmma_operand_offset(wgmma_a_register_row(warp, lane, r), wgmma_a_register_kbyte(lane, r)));
}

template <WgmmaType T, int N, WgmmaMode M>
__global__ void __launch_bounds__(kMaxThreads)
    wgmma_kernel(const uint4* __restrict__ a_image, const uint4* __restrict__ b_image, std::uint32_t iterations,
                 WarpTiming* __restrict__ out, std::uint32_t* __restrict__ sums) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ alignas(128) uint4 smem[(kWgmmaABytes + N * kWgmmaKBytes) / 16];
  constexpr int kAWords = kWgmmaABytes / 16, kBWords = N * kWgmmaKBytes / 16;
  stage_operands(smem, a_image, kAWords, b_image, kBWords);
  const std::uint64_t da = wgmma_descriptor(smem), db = wgmma_descriptor(smem + kAWords);
  std::uint32_t a[4];
  load_a_fragment(smem, a);
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  __syncthreads();  // the warpgroups of a block start together
  const WarpClock clock = warp_clock_start();
  std::uint32_t s;
  if constexpr (M == WgmmaMode::ss)
    s = Asm<T, N>::ss(da, db, iterations);
  else if constexpr (M == WgmmaMode::ss_latency)
    s = Asm<T, N>::ss_latency(da, db, iterations);
  else
    s = Asm<T, N>::rs(a, db, iterations);
  warp_clock_stop(mine, clock, s);
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
#else
  (void)a_image, (void)b_image, (void)iterations, (void)out, (void)sums;
  __trap();
#endif
}

// Sparse: A (the nonzeros, 64 x 32 bytes; RS: then in registers) and B (N x 64 bytes) in shared memory; thread t's
// metadata is `metadata` rotated by whole 4-bit chunks (every chunk stays a valid pattern; a
// uniform word stays itself, which the exact check uses).
template <WgmmaType T, int N, WgmmaMode M>
__global__ void __launch_bounds__(kMaxThreads)
    wgmma_sp_kernel(const uint4* __restrict__ a_image, const uint4* __restrict__ b_image, std::uint32_t iterations,
                    std::uint32_t metadata, WarpTiming* __restrict__ out, std::uint32_t* __restrict__ sums) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ alignas(128) uint4 smem[(kWgmmaABytes + N * kWgmmaSparseBBytes) / 16];
  constexpr int kAWords = kWgmmaABytes / 16, kBWords = N * kWgmmaSparseBBytes / 16;
  stage_operands(smem, a_image, kAWords, b_image, kBWords);
  const std::uint64_t da = wgmma_descriptor(smem), db = wgmma_descriptor(smem + kAWords, 8 * kWgmmaSparseBBytes);
  const std::uint32_t e = __funnelshift_l(metadata, metadata, 4 * (threadIdx.x % 8));
  std::uint32_t a[4];  // RS: A's nonzeros (64 x 32 bytes) in the dense form's register fragment
  load_a_fragment(smem, a);
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  __syncthreads();
  const WarpClock clock = warp_clock_start();
  std::uint32_t s;
  if constexpr (M == WgmmaMode::ss)
    s = AsmSp<T, N>::ss(da, db, iterations, e);
  else if constexpr (M == WgmmaMode::ss_latency)
    s = AsmSp<T, N>::ss_latency(da, db, iterations, e);
  else
    s = AsmSp<T, N>::rs(a, db, iterations, e);
  warp_clock_stop(mine, clock, s);
  sums[blockIdx.x * blockDim.x + threadIdx.x] = s;
#else
  (void)a_image, (void)b_image, (void)iterations, (void)metadata, (void)out, (void)sums;
  __trap();
#endif
}

}  // namespace dev::wgmma

namespace {

using KernelFn = void (*)(const uint4*, const uint4*, std::uint32_t, WarpTiming*, std::uint32_t*);
using SparseKernelFn = void (*)(const uint4*, const uint4*, std::uint32_t, std::uint32_t, WarpTiming*, std::uint32_t*);

template <WgmmaType T, int N, WgmmaMode M>
using Kernel = std::integral_constant<KernelFn, dev::wgmma::wgmma_kernel<T, N, M>>;
template <WgmmaType T, int N, WgmmaMode M>
using SparseKernel = std::integral_constant<SparseKernelFn, dev::wgmma::wgmma_sp_kernel<T, N, M>>;

// The kernel K<T, N, M> of a runtime type, N and mode: one dispatch for the dense and sparse tables.
template <template <WgmmaType, int, WgmmaMode> class K, WgmmaType T, int N>
auto pick_mode(WgmmaMode m) {
  switch (m) {
    case WgmmaMode::ss:
      return K<T, N, WgmmaMode::ss>::value;
    case WgmmaMode::rs:
      return K<T, N, WgmmaMode::rs>::value;
    case WgmmaMode::ss_latency:
      return K<T, N, WgmmaMode::ss_latency>::value;
  }
  throw std::invalid_argument("wgmma: unknown mode");
}

template <template <WgmmaType, int, WgmmaMode> class K, WgmmaType T>
auto pick_n(int n, WgmmaMode m) {
  switch (n) {
    case 8:
      return pick_mode<K, T, 8>(m);
    case 16:
      return pick_mode<K, T, 16>(m);
    case 32:
      return pick_mode<K, T, 32>(m);
    case 64:
      return pick_mode<K, T, 64>(m);
    case 128:
      return pick_mode<K, T, 128>(m);
    case 256:
      return pick_mode<K, T, 256>(m);
    default:
      break;
  }
  throw std::invalid_argument("wgmma: no kernel for N = " + std::to_string(n) + " (8, 16, 32, 64, 128 or 256)");
}

template <template <WgmmaType, int, WgmmaMode> class K>
auto pick(WgmmaType t, int n, WgmmaMode m) {
  switch (t) {
    case WgmmaType::f16_f32:
      return pick_n<K, WgmmaType::f16_f32>(n, m);
    case WgmmaType::f16_f16:
      return pick_n<K, WgmmaType::f16_f16>(n, m);
    case WgmmaType::bf16_f32:
      return pick_n<K, WgmmaType::bf16_f32>(n, m);
    case WgmmaType::tf32_f32:
      return pick_n<K, WgmmaType::tf32_f32>(n, m);
    case WgmmaType::e4m3_f32:
      return pick_n<K, WgmmaType::e4m3_f32>(n, m);
    case WgmmaType::e5m2_f32:
      return pick_n<K, WgmmaType::e5m2_f32>(n, m);
    case WgmmaType::s8_s32:
      return pick_n<K, WgmmaType::s8_s32>(n, m);
  }
  throw std::invalid_argument("wgmma: unknown type");
}

KernelFn kernel_for(WgmmaType t, int n, WgmmaMode m) { return pick<Kernel>(t, n, m); }
SparseKernelFn sparse_kernel_for(WgmmaType t, int n, WgmmaMode m) { return pick<SparseKernel>(t, n, m); }

}  // namespace

constexpr EnumName<WgmmaMode> kWgmmaModeNames[] = {
    {WgmmaMode::ss, "ss"}, {WgmmaMode::rs, "rs"}, {WgmmaMode::ss_latency, "ss_latency"}};
const char* wgmma_mode_name(WgmmaMode m) { return name_of(kWgmmaModeNames, m); }

std::optional<std::string> wgmma_unsupported_on(int cc) {
#if !ARCHBENCH_HAVE_WGMMA
  (void)cc;
  return std::string("this binary was built without sm_90a (CUDA 12 or later is needed for wgmma)");
#else
  if (cc != 90)
    return "wgmma is Hopper's (sm_90a; Blackwell's tensor cores take tcgen05 instead); this GPU is sm_" +
           std::to_string(cc);
  return std::nullopt;
#endif
}

std::optional<std::string> wgmma_unsupported() {
#if !ARCHBENCH_HAVE_WGMMA
  return wgmma_unsupported_on(0);
#else
  int dev = 0, major = 0, minor = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&dev));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  if (auto why = wgmma_unsupported_on(major * 10 + minor)) return why;
  cudaFuncAttributes attr{};
  if (cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel_for(WgmmaType::f16_f32, 8, WgmmaMode::ss))) !=
      cudaSuccess) {
    (void)cudaGetLastError();
    return std::string("this binary holds no sm_90a code for the wgmma kernels");
  }
  return std::nullopt;
#endif
}

int wgmma_registers_per_thread(WgmmaType type, int n, WgmmaMode mode, bool sparse) {
  cudaFuncAttributes attr{};
  const void* kernel = sparse ? reinterpret_cast<const void*>(sparse_kernel_for(type, n, mode))
                              : reinterpret_cast<const void*>(kernel_for(type, n, mode));
  ARCHBENCH_CUDA(cudaFuncGetAttributes(&attr, kernel));
  return attr.numRegs;
}

WgmmaResult run_wgmma(const WgmmaLaunch& l) {
  if (l.blocks <= 0 || l.warpgroups_per_block < 1 || l.warpgroups_per_block > kWgmmaMaxWarpgroupsPerBlock ||
      l.iterations == 0)
    throw std::invalid_argument("wgmma: blocks > 0, 1.." + std::to_string(kWgmmaMaxWarpgroupsPerBlock) +
                                " warpgroups per block and iterations > 0");
  const int b_row_bytes = l.sparse ? kWgmmaSparseBBytes : kWgmmaKBytes;
  if (l.a_image.size() != std::size_t(kWgmmaABytes) || l.b_image.size() != std::size_t(l.n) * b_row_bytes)
    throw std::invalid_argument("wgmma: A must be 64 x 32 bytes and B N x " + std::to_string(b_row_bytes) +
                                " bytes (wgmma_operand_image)");
  const auto words = [](const std::vector<std::uint8_t>& bytes) {
    std::vector<uint4> w(bytes.size() / 16);
    std::memcpy(w.data(), bytes.data(), bytes.size());
    return w;
  };
  DeviceBuffer<uint4> a(words(l.a_image)), b(words(l.b_image));
  const int threads = 128 * l.warpgroups_per_block;
  DeviceBuffer<WarpTiming> out(std::size_t(l.blocks) * threads / 32);
  DeviceBuffer<std::uint32_t> sums(std::size_t(l.blocks) * threads);
  if (l.sparse)
    sparse_kernel_for(l.type, l.n, l.mode)<<<l.blocks, threads>>>(a.get(), b.get(), l.iterations, l.metadata, out.get(),
                                                                  sums.get());
  else
    kernel_for(l.type, l.n, l.mode)<<<l.blocks, threads>>>(a.get(), b.get(), l.iterations, out.get(), sums.get());
  ARCHBENCH_CUDA(cudaGetLastError());
  ARCHBENCH_CUDA(cudaDeviceSynchronize());
  return {out.download(), sums.download()};
}

}  // namespace archbench
