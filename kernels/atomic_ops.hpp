// The atomic operations the Atomics feature measures, and the operand every thread uses in every
// iteration. Shared by device code (kernels/atomics.cuh) and the host's expected final values
// (kernels/shared/atomics_check.cpp), so both sides compute the same operands.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define ARCHBENCH_HD __host__ __device__
#else
#define ARCHBENCH_HD
#endif

namespace archbench {

enum class AtomOp {
  add_u32,
  add_u64,
  add_f32,
  add_f64,
  add_f16x2,
  add_bf16x2,
  min_u32,
  max_u32,
  and_b32,
  or_b32,
  xor_b32,
  exch_b32,
  exch_b64,
  cas_b32,
  cas_b64
};
enum class AtomSpace { global, shared };
enum class AtomScope { cta, gpu, sys };
enum class AtomForm { atom, red };  // atom returns the old value; red does not
// How many threads share one address: every thread of the grid (block for shared memory), one
// per warp, per block, per SM, or none (every thread its own address). near_l2 / far_l2: every
// thread its own address, each warp's 32 addresses in one 128 B line whose L2 home partition is
// near to (far from) the warp's SM, as probed by atomic latency (global memory, 4-byte ops).
enum class Contention { all, warp, block, sm, distinct, near_l2, far_l2 };

// Exchange and min/max operands encode (thread, iteration) in 32 bits: iterations stay below this.
inline constexpr std::uint32_t kAtomMaxIterations = 4096;

// The operand's bit pattern (zero-extended) for thread `gtid` in iteration `it`:
//  add (integers, f32, f64): lane + 1, distinct per lane so that nothing may merge them;
//  add f16x2 / bf16x2: 1.0 in both halves (sums saturate exactly, see kernels/shared/atomics_check.cpp);
//  min / max: (gtid, it) encoded, so the extreme is one known thread's last iteration;
//  and / or: one bit per (gtid + it); xor: one bit per thread; exch: (gtid, it) encoded.
ARCHBENCH_HD inline std::uint64_t atomic_operand(AtomOp op, std::uint32_t gtid, std::uint32_t it) {
  const std::uint32_t lane = gtid % 32;
  const std::uint32_t tag = gtid * kAtomMaxIterations + it % kAtomMaxIterations;
  switch (op) {
    case AtomOp::add_u32:
    case AtomOp::add_u64:
      return lane + 1;
    case AtomOp::add_f32: {
      const float f = float(lane + 1);
      std::uint32_t b;
      __builtin_memcpy(&b, &f, 4);
      return b;
    }
    case AtomOp::add_f64: {
      const double d = double(lane + 1);
      std::uint64_t b;
      __builtin_memcpy(&b, &d, 8);
      return b;
    }
    case AtomOp::add_f16x2:
      return 0x3C003C00u;
    case AtomOp::add_bf16x2:
      return 0x3F803F80u;
    case AtomOp::min_u32:
      return 0xFFFFFFFFu - tag;
    case AtomOp::max_u32:
      return tag;
    case AtomOp::and_b32:
      return ~(1u << ((gtid + it) % 32));
    case AtomOp::or_b32:
      return 1u << ((gtid + it) % 32);
    case AtomOp::xor_b32:
      return 1u << (gtid % 32);
    case AtomOp::exch_b32:
    case AtomOp::exch_b64:
      return tag;
    case AtomOp::cas_b32:
    case AtomOp::cas_b64:
      return 0;  // CAS chains on the value it reads
  }
  return 0;
}

// The value every address holds before a launch.
ARCHBENCH_HD inline std::uint64_t atomic_initial(AtomOp op) {
  switch (op) {
    case AtomOp::min_u32:
    case AtomOp::and_b32:
      return 0xFFFFFFFFu;
    default:
      return 0;
  }
}

}  // namespace archbench
