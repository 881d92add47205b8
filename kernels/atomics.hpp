// Host side of the Atomics kernels (kernels/atomics.cuh).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/atomic_ops.hpp"

namespace archbench {

struct AtomicLaunch {
  AtomOp op = AtomOp::add_u32;
  AtomSpace space = AtomSpace::global;
  AtomScope scope = AtomScope::gpu;  // global memory only; shared memory is .cta
  AtomForm form = AtomForm::atom;
  Contention contention = Contention::distinct;
  std::uint32_t spacing_bytes = 0;  // between addresses; 0: the operand size (packed)
  int blocks = 1, threads_per_block = 32;
  std::uint32_t iters = 1;  // atomics per thread
  // near_l2 / far_l2 only: the probed lines (device memory of l2_home_probe) and the line of
  // warp w on SM s, line_of[s * 32 + w] (device memory, 32 entries per SM id).
  std::uint32_t* probed_lines = nullptr;
  std::uint32_t probed_line_count = 0;
  const std::uint32_t* line_of = nullptr;
  // Global memory only: the addresses live here (e.g. another GPU's memory, for P2P) instead of
  // in an allocation of the running GPU; target_bytes must cover every address.
  void* target = nullptr;
  std::size_t target_bytes = 0;
  // Global memory without a target: the addresses start this many bytes into a fresh allocation,
  // so that successive launches put them on other pages and other L2 slices (the benchmarks take
  // the median over placements: with few lines, which slices they hash to moves the rate).
  std::size_t placement_bytes = 0;
};

struct AtomicRun {
  std::vector<WarpTiming> warps;
  std::uint32_t slots_per_group = 0;         // addresses per grid (global) or per block (shared)
  std::vector<std::uint64_t> finals;         // final bit pattern per address (blocks x slots for shared)
  std::vector<std::uint64_t> cas_successes;  // per address, CAS only
  std::uint32_t shift = 0, mask = 0;         // slot = (id >> shift) & mask, id = gtid or tid
  bool by_sm = false;                        // slot = the warp's SM
  std::vector<std::uint32_t> probed_finals;  // near_l2 / far_l2: every element of the probed lines
};

// Runs the throughput kernel once and reads back the timings and every address's final value.
// Throws std::invalid_argument for a combination without a kernel, CudaError on failure.
AtomicRun run_atomics(const AtomicLaunch& launch);
// Cycles and ns of `iters` dependent atomics (atom form, .gpu scope) on one address, one thread.
struct AtomicChainTiming {
  std::uint64_t cycles = 0, ns = 0;
};
// The thread runs on SM pin_sm (a run's reference SM). With lines / line_of (global memory): on
// line `line_index` (0-31) of that SM's row of the table (see probe_l2_home), so the address's L2
// home is known to be near or far.
AtomicChainTiming run_atomic_latency(AtomOp op, AtomSpace space, std::uint32_t iters, std::uint32_t pin_sm,
                                     std::uint32_t* lines = nullptr,
                                     const std::uint32_t* line_of = nullptr, std::uint32_t line_index = 0);

// Probes which L2 partition is home to each of `n_lines` lines of 128 B at `lines` (device
// memory), from every SM: cycles per dependent atom.add, indexed [sm id][line], the faster of two
// passes (a chain queued behind another SM's reads slow). One block per SM (the blocks' SMs are
// read back, so a doubled SM is visible).
struct L2HomeProbe {
  std::vector<std::vector<std::uint32_t>> cycles_by_sm;  // empty for SM ids no block ran on
};
L2HomeProbe probe_l2_home(std::uint32_t* lines, std::uint32_t n_lines, int blocks);
inline constexpr std::uint32_t kProbeLineBytes = 128;

}  // namespace archbench
