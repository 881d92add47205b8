// mma.sync kernels: every thread holds kIlp independent accumulators of one op, each the D and C
// of a chain of kMmaBodySteps / kIlp instructions per loop iteration (interleaved, so consecutive
// instructions are independent). A and B are runtime registers loaded per lane; asm volatile keeps
// every instruction. Lane data is the same in every warp, so every warp's fold must agree.
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/arch_guard.cuh"
#include "kernels/tensor.hpp"
#include "kernels/warp_clock.cuh"

namespace archbench {
namespace dev::mma {

// One asm per register-count signature: D (also C), A, B; PTX is the instruction's name.
#define AB_MMA_4_4_2(PTX)                                                   \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};" \
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])             \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define AB_MMA_4_2_1(PTX)                                          \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};" \
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])    \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]))
#define AB_MMA_2_4_2(PTX)                                       \
  asm volatile(PTX " {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};" \
               : "+r"(d[0]), "+r"(d[1])                         \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
#define AB_MMA_2_2_1(PTX) \
  asm volatile(PTX " {%0,%1}, {%2,%3}, {%4}, {%0,%1};" : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]))
#define AB_MMA_2_1_1(PTX) \
  asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%0,%1};" : "+r"(d[0]), "+r"(d[1]) : "r"(a[0]), "r"(b[0]))
#define AB_MMA_F64_2_1_1(PTX) \
  asm volatile(PTX " {%0,%1}, {%2}, {%3}, {%0,%1};" : "+l"(d[0]), "+l"(d[1]) : "l"(a[0]), "l"(b[0]))

// mma.sp: the metadata register e after C, sparsity selector 0 (the lanes that hold the metadata;
// every lane holds a valid word, so any selector reads one).
#define AB_MMA_SP_4_2_2(PTX)                                                   \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5}, {%6,%7}, {%0,%1,%2,%3}, %8, 0x0;" \
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                \
               : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(e))
#define AB_MMA_SP_4_4_4(PTX)                                                                  \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9,%10,%11}, {%0,%1,%2,%3}, %12, 0x0;" \
               : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                               \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(b[2]), "r"(b[3]), "r"(e))

// An op: register type, counts in registers of that type, the minimum architecture, one step
// (e: the metadata word, read by sparse ops only).
#define AB_MMA_OP_OF(NAME, SPARSE, REG, D, A, B, ARCH, ASM, PTX)                                   \
  struct NAME {                                                                                    \
    using Reg = REG;                                                                               \
    static constexpr int kD = D, kA = A, kB = B;                                                   \
    static constexpr bool kSparse = SPARSE;                                                        \
    static __device__ __forceinline__ void step(Reg (&d)[D], const Reg (&a)[A], const Reg (&b)[B], \
                                                [[maybe_unused]] std::uint32_t e) {                \
      ARCHBENCH_IF_ARCH_BELOW(ARCH, __trap(), ASM(PTX));                                           \
    }                                                                                              \
  }
#define AB_MMA_OP(NAME, REG, D, A, B, ARCH, ASM, PTX) AB_MMA_OP_OF(NAME, false, REG, D, A, B, ARCH, ASM, PTX)
#define AB_MMA_SP_OP(NAME, A, ARCH, PTX) \
  AB_MMA_OP_OF(NAME, true, std::uint32_t, 4, A, A, ARCH, AB_MMA_SP_4_##A##_##A, PTX)

AB_MMA_OP(f16_m16n8k8_f32, std::uint32_t, 4, 2, 1, 75, AB_MMA_4_2_1,
          "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32");
AB_MMA_OP(f16_m16n8k8_f16, std::uint32_t, 2, 2, 1, 75, AB_MMA_2_2_1,
          "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16");
AB_MMA_OP(f16_m16n8k16_f32, std::uint32_t, 4, 4, 2, 80, AB_MMA_4_4_2,
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
AB_MMA_OP(f16_m16n8k16_f16, std::uint32_t, 2, 4, 2, 80, AB_MMA_2_4_2,
          "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16");
AB_MMA_OP(bf16_m16n8k8_f32, std::uint32_t, 4, 2, 1, 80, AB_MMA_4_2_1,
          "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32");
AB_MMA_OP(bf16_m16n8k16_f32, std::uint32_t, 4, 4, 2, 80, AB_MMA_4_4_2,
          "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
AB_MMA_OP(tf32_m16n8k4_f32, std::uint32_t, 4, 2, 1, 80, AB_MMA_4_2_1,
          "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32");
AB_MMA_OP(tf32_m16n8k8_f32, std::uint32_t, 4, 4, 2, 80, AB_MMA_4_4_2,
          "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
AB_MMA_OP(s8_m8n8k16_s32, std::uint32_t, 2, 1, 1, 75, AB_MMA_2_1_1, "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32");
AB_MMA_OP(s8_m16n8k16_s32, std::uint32_t, 4, 2, 1, 80, AB_MMA_4_2_1, "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32");
AB_MMA_OP(s8_m16n8k32_s32, std::uint32_t, 4, 4, 2, 80, AB_MMA_4_4_2, "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
AB_MMA_OP(e4m3_m16n8k32_f32, std::uint32_t, 4, 4, 2, 89, AB_MMA_4_4_2,
          "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32");
AB_MMA_OP(e5m2_m16n8k32_f32, std::uint32_t, 4, 4, 2, 89, AB_MMA_4_4_2,
          "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32");
AB_MMA_OP(f64_m8n8k4_f64, std::uint64_t, 2, 1, 1, 80, AB_MMA_F64_2_1_1,
          "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64");

// Sparse: the struct is the op's kernel_tag() (tensor_ops.hpp), A and B the same register count.
AB_MMA_SP_OP(sp_f16_m16n8k16_f32, 2, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32");
AB_MMA_SP_OP(sp_f16_m16n8k32_f32, 4, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32");
AB_MMA_SP_OP(sp_bf16_m16n8k16_f32, 2, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
AB_MMA_SP_OP(sp_bf16_m16n8k32_f32, 4, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.bf16.bf16.f32");
AB_MMA_SP_OP(sp_tf32_m16n8k8_f32, 2, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
AB_MMA_SP_OP(sp_tf32_m16n8k16_f32, 4, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32");
AB_MMA_SP_OP(sp_s8_m16n8k32_s32, 2, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32");
AB_MMA_SP_OP(sp_s8_m16n8k64_s32, 4, 80, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.s32.s8.s8.s32");
AB_MMA_SP_OP(sp_e4m3_m16n8k64_f32, 4, 89, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e4m3.e4m3.f32");
AB_MMA_SP_OP(sp_e5m2_m16n8k64_f32, 4, 89, "mma.sp::ordered_metadata.sync.aligned.m16n8k64.row.col.f32.e5m2.e5m2.f32");

// operands: per lane, kA registers of A, kB of B, a sparse op's metadata word, then kIlp x kD
// accumulator starts.
template <class Op, int kIlp>
__global__ void __launch_bounds__(1024) mma_sync_kernel(const typename Op::Reg* __restrict__ operands,
                                                        std::uint32_t iterations, WarpTiming* __restrict__ out) {
  static_assert(kMmaBodySteps % kIlp == 0, "the loop body holds whole steps of every chain");
  using Reg = typename Op::Reg;
  constexpr int kMeta = Op::kSparse ? 1 : 0;
  constexpr int kPerLane = Op::kA + Op::kB + kMeta + kIlp * Op::kD;
  const unsigned lane = threadIdx.x % 32;
  const Reg* mine_in = operands + lane * kPerLane;
  Reg a[Op::kA], b[Op::kB], d[kIlp][Op::kD];
  std::uint32_t meta = 0;
#pragma unroll
  for (int i = 0; i < Op::kA; ++i) a[i] = mine_in[i];
#pragma unroll
  for (int i = 0; i < Op::kB; ++i) b[i] = mine_in[Op::kA + i];
  if constexpr (Op::kSparse) meta = std::uint32_t(mine_in[Op::kA + Op::kB]);
#pragma unroll
  for (int j = 0; j < kIlp; ++j)
#pragma unroll
    for (int i = 0; i < Op::kD; ++i) d[j][i] = mine_in[Op::kA + Op::kB + kMeta + j * Op::kD + i];
  WarpTiming* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  // Store a fold of the operands (overwritten below) so their loads stay before the start clock.
  std::uint64_t fold = 0;
#pragma unroll
  for (int i = 0; i < Op::kA; ++i) fold ^= a[i];
#pragma unroll
  for (int i = 0; i < Op::kB; ++i) fold ^= b[i];
#pragma unroll
  for (int j = 0; j < kIlp; ++j)
#pragma unroll
    for (int i = 0; i < Op::kD; ++i) fold ^= d[j][i];
  if constexpr (Op::kSparse) fold ^= meta;
  if (lane == 0) dev::st_global_u64(&mine->check, fold);
  __syncthreads();
  const dev::WarpClock clock = dev::warp_clock_start();
#pragma unroll 1
  for (std::uint32_t it = 0; it < iterations; ++it) {
#pragma unroll
    for (int u = 0; u < kMmaBodySteps / kIlp; ++u) {
#pragma unroll
      for (int j = 0; j < kIlp; ++j) Op::step(d[j], a, b, meta);
    }
  }
  fold = 0;
#pragma unroll
  for (int j = 0; j < kIlp; ++j)
#pragma unroll
    for (int i = 0; i < Op::kD; ++i) fold = fold * 31 + d[j][i];
#pragma unroll
  for (int off = 16; off > 0; off /= 2) fold ^= __shfl_xor_sync(0xffffffffu, fold, off);
  dev::warp_clock_stop(mine, clock, fold);
}

}  // namespace dev::mma

namespace {

template <class F>
decltype(auto) with_mma_op(MmaOp op, F&& f) {
  namespace m = dev::mma;
  switch (op) {
    case MmaOp::f16_m16n8k8_f32:
      return f(m::f16_m16n8k8_f32{});
    case MmaOp::f16_m16n8k8_f16:
      return f(m::f16_m16n8k8_f16{});
    case MmaOp::f16_m16n8k16_f32:
      return f(m::f16_m16n8k16_f32{});
    case MmaOp::f16_m16n8k16_f16:
      return f(m::f16_m16n8k16_f16{});
    case MmaOp::bf16_m16n8k8_f32:
      return f(m::bf16_m16n8k8_f32{});
    case MmaOp::bf16_m16n8k16_f32:
      return f(m::bf16_m16n8k16_f32{});
    case MmaOp::tf32_m16n8k4_f32:
      return f(m::tf32_m16n8k4_f32{});
    case MmaOp::tf32_m16n8k8_f32:
      return f(m::tf32_m16n8k8_f32{});
    case MmaOp::s8_m8n8k16_s32:
      return f(m::s8_m8n8k16_s32{});
    case MmaOp::s8_m16n8k16_s32:
      return f(m::s8_m16n8k16_s32{});
    case MmaOp::s8_m16n8k32_s32:
      return f(m::s8_m16n8k32_s32{});
    case MmaOp::e4m3_m16n8k32_f32:
      return f(m::e4m3_m16n8k32_f32{});
    case MmaOp::e5m2_m16n8k32_f32:
      return f(m::e5m2_m16n8k32_f32{});
    case MmaOp::f64_m8n8k4_f64:
      return f(m::f64_m8n8k4_f64{});
    case MmaOp::sp_f16_m16n8k16_f32:
      return f(m::sp_f16_m16n8k16_f32{});
    case MmaOp::sp_f16_m16n8k32_f32:
      return f(m::sp_f16_m16n8k32_f32{});
    case MmaOp::sp_bf16_m16n8k16_f32:
      return f(m::sp_bf16_m16n8k16_f32{});
    case MmaOp::sp_bf16_m16n8k32_f32:
      return f(m::sp_bf16_m16n8k32_f32{});
    case MmaOp::sp_tf32_m16n8k8_f32:
      return f(m::sp_tf32_m16n8k8_f32{});
    case MmaOp::sp_tf32_m16n8k16_f32:
      return f(m::sp_tf32_m16n8k16_f32{});
    case MmaOp::sp_s8_m16n8k32_s32:
      return f(m::sp_s8_m16n8k32_s32{});
    case MmaOp::sp_s8_m16n8k64_s32:
      return f(m::sp_s8_m16n8k64_s32{});
    case MmaOp::sp_e4m3_m16n8k64_f32:
      return f(m::sp_e4m3_m16n8k64_f32{});
    case MmaOp::sp_e5m2_m16n8k64_f32:
      return f(m::sp_e5m2_m16n8k64_f32{});
  }
  throw std::invalid_argument("mma.sync: unknown op");
}

template <class Op>
const void* kernel_for(int ilp) {
  switch (ilp) {
    case 1:
      return reinterpret_cast<const void*>(dev::mma::mma_sync_kernel<Op, 1>);
    case 2:
      return reinterpret_cast<const void*>(dev::mma::mma_sync_kernel<Op, 2>);
    case 4:
      return reinterpret_cast<const void*>(dev::mma::mma_sync_kernel<Op, 4>);
    default:
      break;
  }
  throw std::invalid_argument("mma.sync: no kernel for ilp " + std::to_string(ilp) + " (1, 2 or 4)");
}

const void* kernel_for(MmaOp op, int ilp) {
  return with_mma_op(op, [&](auto o) { return kernel_for<decltype(o)>(ilp); });
}

}  // namespace

std::vector<WarpTiming> run_mma_sync(const MmaLaunch& l) {
  if (l.threads_per_block <= 0 || l.threads_per_block % 32 != 0 || l.threads_per_block > 1024 || l.blocks <= 0 ||
      l.iterations == 0)
    throw std::invalid_argument(
        "mma.sync: threads per block must be a multiple of 32 in 32..1024, blocks and "
        "iterations > 0");
  const MmaOpInfo& info = mma_op_info(l.op);
  const void* kernel = kernel_for(l.op, l.ilp);
  // Per lane: A, B, a sparse op's metadata and ilp accumulators, as 32-bit words (an f64 register is two).
  const int meta_words = info.sparse ? 1 : 0;
  const int words_per_lane = mma_operand_words_per_lane(l.op, l.ilp);
  if (!l.operands.empty() && l.operands.size() != std::size_t(32) * words_per_lane)
    throw std::invalid_argument("mma.sync: the given operands must be 32 lanes x " + std::to_string(words_per_lane) +
                                " words");
  std::vector<std::uint32_t> words(std::size_t(32) * words_per_lane);
  const std::vector<SparsePattern> patterns = mma_sparse_patterns(info);
  std::mt19937_64 rng(0x7e450c0de);
  const int eb = tensor_element_bytes(info.dtype);
  const bool float_accumulator = info.dtype != TensorDtype::s8;
  for (int lane = 0; lane < 32 && l.operands.empty(); ++lane) {
    std::uint32_t* w = &words[std::size_t(lane) * words_per_lane];
    // A and B: elements packed little-endian into the registers.
    auto* bytes = reinterpret_cast<std::uint8_t*>(w);
    for (int i = 0; i < (info.a_regs + info.b_regs) * 4; i += eb) {
      const std::uint64_t e = tensor_element(info.dtype, l.fill, rng);
      std::memcpy(bytes + i, &e, std::size_t(eb));
    }
    // Metadata: a valid pattern, drawn for each 4-bit chunk.
    if (info.sparse) {
      std::uint32_t& e = w[info.a_regs + info.b_regs];
      e = 0;
      for (int chunk = 0; chunk < 8; ++chunk) e |= patterns[rng() % patterns.size()].nibble << (4 * chunk);
    }
    // Accumulator starts: small values of the accumulator type (f16 pairs, f32, s32, f64).
    for (int i = info.a_regs + info.b_regs + meta_words; i < words_per_lane; ++i) {
      if (l.fill == TensorFill::zero) {
        w[i] = 0;
      } else if (!float_accumulator) {
        w[i] = std::uint32_t(rng() % 1000);
      } else if (info.op == MmaOp::f16_m16n8k8_f16 || info.op == MmaOp::f16_m16n8k16_f16) {
        w[i] = std::uint32_t(tensor_element(TensorDtype::f16, TensorFill::random, rng)) |
               std::uint32_t(tensor_element(TensorDtype::f16, TensorFill::random, rng)) << 16;
      } else if (info.dtype == TensorDtype::f64) {
        const std::uint64_t e = tensor_element(TensorDtype::f64, TensorFill::random, rng);
        std::memcpy(&w[i], &e, 8);
        ++i;
      } else {
        w[i] = std::uint32_t(tensor_element(TensorDtype::tf32, TensorFill::random, rng));
      }
    }
  }
  DeviceBuffer<std::uint32_t> operands(l.operands.empty() ? words : l.operands);
  const int warps = l.blocks * l.threads_per_block / 32;
  DeviceBuffer<WarpTiming> out(static_cast<std::size_t>(warps));
  const void* operand_ptr = operands.get();
  WarpTiming* out_ptr = out.get();
  std::uint32_t iterations = l.iterations;
  void* args[] = {&operand_ptr, &iterations, &out_ptr};
  ARCHBENCH_CUDA(cudaLaunchKernel(kernel, dim3(l.blocks), dim3(l.threads_per_block), args, 0, nullptr));
  ARCHBENCH_CUDA(cudaGetLastError());
  ARCHBENCH_CUDA(cudaDeviceSynchronize());
  return out.download();
}

int mma_operand_words_per_lane(MmaOp op, int ilp) {
  const MmaOpInfo& info = mma_op_info(op);
  return info.a_regs + info.b_regs + (info.sparse ? 1 : 0) + ilp * info.d_regs;
}

int mma_sync_max_blocks_per_sm(MmaOp op, int ilp, int threads_per_block) {
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_for(op, ilp), threads_per_block, 0));
  return blocks;
}

int mma_sync_registers_per_thread(MmaOp op, int ilp) {
  cudaFuncAttributes attr{};
  ARCHBENCH_CUDA(cudaFuncGetAttributes(&attr, kernel_for(op, ilp)));
  return attr.numRegs;
}

}  // namespace archbench
