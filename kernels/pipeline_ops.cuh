// One step of each dependent chain the Pipeline feature times (kernels/shared/pipeline_ops.hpp lists
// them as data). Every step is inline PTX on runtime operands, so the front end can neither
// fold nor reassociate it; `volatile` keeps the steps in program order. The SASS test checks that
// ptxas emitted one instruction per step.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "kernels/shared/pipeline_ops.hpp"
#include "kernels/arch_guard.cuh"
#include "kernels/warp_clock.cuh"

namespace archbench::dev {

// Types of the 16-bit and packed operands are their bit patterns (PTX .b16 / .b32 registers).
template <class T>
__host__ __device__ inline T from_double(double v);
template <>
__host__ __device__ inline float from_double<float>(double v) {
  return float(v);
}
template <>
__host__ __device__ inline double from_double<double>(double v) {
  return v;
}
template <>
__host__ __device__ inline std::uint32_t from_double<std::uint32_t>(double v) {
  return std::uint32_t(std::int64_t(v));
}
template <>
__host__ __device__ inline std::int32_t from_double<std::int32_t>(double v) {
  return std::int32_t(v);
}

struct Half {  // f16 in a .b16 register
  using T = std::uint16_t;
  static T make(double v) { return __half_as_ushort(__double2half(v)); }
};
struct Half2 {  // f16x2 in a .b32 register: both halves the same value
  using T = std::uint32_t;
  static T make(double v) { return T(Half::make(v)) * 0x10001u; }
};
struct Bf16 {
  using T = std::uint16_t;
  static T make(double v) { return __bfloat16_as_ushort(__double2bfloat16(v)); }
};
struct Bf16x2 {
  using T = std::uint32_t;
  static T make(double v) { return T(Bf16::make(v)) * 0x10001u; }
};
template <class V>
struct Plain {
  using T = V;
  static T make(double v) { return from_double<V>(v); }
};
struct Packed16x2 {  // two 16-bit integers in a .b32 register, both the same value
  using T = std::uint32_t;
  static T make(double v) { return (std::uint32_t(std::int32_t(v)) & 0xffffu) * 0x10001u; }
};

// An op: its operand encoding (Enc) and one step x <- f(x, b, c).
#define ARCHBENCH_PIPE_OP(Name, Enc, MinArch, Body)                                             \
  struct Name {                                                                                 \
    using Encoding = Enc;                                                                       \
    using T = typename Enc::T;                                                                  \
    static constexpr PipeOp kOp = PipeOp::Name;                                                 \
    __device__ __forceinline__ static T step(T x, [[maybe_unused]] T b, [[maybe_unused]] T c) { \
      if constexpr (MinArch > 0) {                                                              \
        ARCHBENCH_IF_ARCH_BELOW(MinArch, __trap(), Body);                                       \
      } else {                                                                                  \
        Body;                                                                                   \
      }                                                                                         \
      return x;                                                                                 \
    }                                                                                           \
  }

namespace ops {
ARCHBENCH_PIPE_OP(hfma, Half, 0, asm volatile("fma.rn.f16 %0, %0, %1, %2;" : "+h"(x) : "h"(b), "h"(c)));
ARCHBENCH_PIPE_OP(hfma2, Half2, 0, asm volatile("fma.rn.f16x2 %0, %0, %1, %2;" : "+r"(x) : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(hfma2_oob, Half2, 90, asm volatile("fma.rn.oob.f16x2 %0, %0, %1, %2;" : "+r"(x) : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(bf16_fma, Bf16, 80, asm volatile("fma.rn.bf16 %0, %0, %1, %2;" : "+h"(x) : "h"(b), "h"(c)));
ARCHBENCH_PIPE_OP(bf16x2_fma, Bf16x2, 80, asm volatile("fma.rn.bf16x2 %0, %0, %1, %2;" : "+r"(x) : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(bf16x2_oob, Bf16x2, 90, asm volatile("fma.rn.oob.bf16x2 %0, %0, %1, %2;" : "+r"(x) : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(ffma, Plain<float>, 0, asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(x) : "f"(b), "f"(c)));
// x * b + b: with three source registers, ptxas drops the operand-reuse flag on every sixth DFMA
// and the register-bank conflict caps DFMA at 92 % of its rate on an H100; two sources don't.
ARCHBENCH_PIPE_OP(dfma, Plain<double>, 0, asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(x) : "d"(b)));
ARCHBENCH_PIPE_OP(imad, Plain<std::uint32_t>, 0, asm volatile("mad.lo.s32 %0, %0, %1, %2;" : "+r"(x) : "r"(b), "r"(c)));
// Two PTX adds that ptxas fuses into one three-input IADD3.
ARCHBENCH_PIPE_OP(iadd3, Plain<std::uint32_t>, 0,
                  asm volatile("add.s32 %0, %0, %1;\n\tadd.s32 %0, %0, %2;"
                               : "+r"(x)
                               : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(mufu_rsq, Plain<float>, 0, asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x)));
// ex2 of -x keeps the chain in (0, 1]; the negation is an operand modifier of MUFU.EX2.
ARCHBENCH_PIPE_OP(mufu_ex2, Plain<float>, 0,
                  asm volatile("{ .reg .f32 t; neg.f32 t, %0; ex2.approx.ftz.f32 %0, t; }"
                               : "+f"(x)));
ARCHBENCH_PIPE_OP(mufu_sin, Plain<float>, 0, asm volatile("sin.approx.ftz.f32 %0, %0;" : "+f"(x)));
// DPX has no PTX instruction; the intrinsic is one VIADDMNMX on sm_90.
ARCHBENCH_PIPE_OP(dpx_viaddmax, Plain<std::int32_t>, 90, x = __viaddmax_s32(x, b, c));
// Warp collectives over the full warp (membermask 0xffffffff), b and c runtime operands.
ARCHBENCH_PIPE_OP(shfl_idx, Plain<std::uint32_t>, 70,
                  asm volatile("shfl.sync.idx.b32 %0, %0, %1, %2, 0xffffffff;"
                               : "+r"(x)
                               : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(shfl_bfly, Plain<std::uint32_t>, 70,
                  asm volatile("shfl.sync.bfly.b32 %0, %0, %1, %2, 0xffffffff;"
                               : "+r"(x)
                               : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(shfl_up, Plain<std::uint32_t>, 70,
                  asm volatile("shfl.sync.up.b32 %0, %0, %1, %2, 0xffffffff;"
                               : "+r"(x)
                               : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(shfl_down, Plain<std::uint32_t>, 70,
                  asm volatile("shfl.sync.down.b32 %0, %0, %1, %2, 0xffffffff;"
                               : "+r"(x)
                               : "r"(b), "r"(c)));
ARCHBENCH_PIPE_OP(vote_ballot, Plain<std::uint32_t>, 70,
                  asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, %1; vote.sync.ballot.b32 %0, p, 0xffffffff; }"
                               : "+r"(x)
                               : "r"(b)));
ARCHBENCH_PIPE_OP(match_any, Plain<std::uint32_t>, 70,
                  asm volatile("match.any.sync.b32 %0, %0, 0xffffffff;"
                               : "+r"(x)));
ARCHBENCH_PIPE_OP(redux_add, Plain<std::uint32_t>, 80,
                  asm volatile("redux.sync.add.u32 %0, %0, 0xffffffff;"
                               : "+r"(x)));
ARCHBENCH_PIPE_OP(redux_max, Plain<std::uint32_t>, 80,
                  asm volatile("redux.sync.max.u32 %0, %0, 0xffffffff;"
                               : "+r"(x)));
// A chain through control (kernels/shared/pipeline_ops.cpp says why): x is never 0xffffffff, so the
// branch is never taken, but the election cannot issue before the compare of the last x is done.
// A label is local to its { } scope, so every step may use the same one.
ARCHBENCH_PIPE_OP(elect, Plain<std::uint32_t>, 90,
                  asm volatile("{ .reg .pred p, q; setp.eq.u32 p, %0, 0xffffffff; @p bra.uni SKIP;"
                               " elect.sync %0|q, 0xffffffff; SKIP: }"
                               : "+r"(x)));
ARCHBENCH_PIPE_OP(shfl_idx_branch, Plain<std::uint32_t>, 70,
                  asm volatile("{ .reg .pred p; setp.eq.u32 p, %0, 0xffffffff; @p bra.uni SKIP;"
                               " shfl.sync.idx.b32 %0, %0, %1, %2, 0xffffffff; SKIP: }"
                               : "+r"(x)
                               : "r"(b), "r"(c)));
}  // namespace ops

// The DPX table (kernels/shared/pipeline_ops.hpp lists the intrinsics): one op per intrinsic, named
// as it is without "__". The intrinsic is the step, so that what is measured is what users call:
// one DPX instruction from sm_90, the header's emulation before. Its operands are runtime values;
// an empty volatile asm after each step hides x from the front end, which would otherwise fold a
// chain of idempotent steps (max(max(x, b, c), b, c) is max(x, b, c)); it emits no instruction.
#define ARCHBENCH_DPX_ENCODING_s32 Plain<std::int32_t>
#define ARCHBENCH_DPX_ENCODING_u32 Plain<std::uint32_t>
#define ARCHBENCH_DPX_ENCODING_s16x2 Packed16x2
#define ARCHBENCH_DPX_ENCODING_u16x2 Packed16x2
#define ARCHBENCH_DPX_STEP_add(name, minmax, type) x = __##name(x, b, c)
#define ARCHBENCH_DPX_STEP_three(name, minmax, type) x = __##name(x, b, c)
#define ARCHBENCH_DPX_STEP_pred(name, minmax, type) ARCHBENCH_DPX_PRED_##type(name)
// A two-operand step is the intrinsic and its mirror (max then min, or min then max): ptxas fuses
// two dependent steps of one kind into one three-operand VIMNMX3.
#define ARCHBENCH_DPX_STEP_two(name, minmax, type) ARCHBENCH_DPX_TWO_##minmax(name, type)
#define ARCHBENCH_DPX_TWO_max(name, type) \
  x = __##name(x, b);                     \
  x = __vimin_##type##_relu(x, c)
#define ARCHBENCH_DPX_TWO_min(name, type) \
  x = __##name(x, b);                     \
  x = __vimax_##type##_relu(x, c)
// The predicates are folded into the chain (the host replays the same: pipeline_ops.cpp, dpx_step).
#define ARCHBENCH_DPX_PRED_32(name)  \
  {                                  \
    bool p;                          \
    const T r = __##name(x, b, &p);  \
    x = r ^ T(p);                    \
  }
#define ARCHBENCH_DPX_PRED_16x2(name)          \
  {                                            \
    bool hi, lo;                               \
    const T r = __##name(x, b, &hi, &lo);      \
    x = r ^ (T(hi) << 16) ^ T(lo);             \
  }
#define ARCHBENCH_DPX_PRED_s32 ARCHBENCH_DPX_PRED_32
#define ARCHBENCH_DPX_PRED_u32 ARCHBENCH_DPX_PRED_32
#define ARCHBENCH_DPX_PRED_s16x2 ARCHBENCH_DPX_PRED_16x2
#define ARCHBENCH_DPX_PRED_u16x2 ARCHBENCH_DPX_PRED_16x2
#define ARCHBENCH_DPX_DEVICE_OP(name, kind, minmax, type, relu)                               \
  struct name {                                                                               \
    using Encoding = ARCHBENCH_DPX_ENCODING_##type;                                           \
    using T = typename Encoding::T;                                                           \
    static constexpr PipeOp kOp = PipeOp::dpx_##name;                                         \
    __device__ __forceinline__ static T step(T x, T b, [[maybe_unused]] T c) {                \
      ARCHBENCH_DPX_STEP_##kind(name, minmax, type);                                          \
      asm volatile("" : "+r"(x));                                                             \
      return x;                                                                               \
    }                                                                                         \
  };
namespace ops {
ARCHBENCH_DPX_INTRINSICS(ARCHBENCH_DPX_DEVICE_OP)
}  // namespace ops
#undef ARCHBENCH_DPX_DEVICE_OP

}  // namespace archbench::dev
