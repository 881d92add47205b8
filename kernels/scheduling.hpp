// Host side of the Scheduling kernels (kernels/scheduling.cu): FFMA on every SM for a given time,
// with the SM clock sampled in-kernel while the host samples beside it (NVML: fixtures/
// sustained_run.hpp); and a grid of FFMA warps that records each warp's start, end, SM and slot
// (timelines).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/timeline.hpp"

namespace archbench {

struct KernelClockSample {
  std::uint64_t ns = 0, cycles = 0;  // %globaltimer and clock64 of the sampling warp's SM
};

// What the kernel of a sustained run records.
struct SustainedKernelRun {
  std::vector<KernelClockSample> samples;  // about every sample_ms, from one warp of block 0
  double flop = 0;                         // FFMA x 2, every thread
  double kernel_seconds = 0;               // first to last in-kernel sample
};

// `blocks` blocks of `threads` threads run 8 independent FFMA chains per thread until `seconds`
// have passed on %globaltimer. While the kernel runs, the host calls beside(seconds since the
// launch) about every sample_ms. Throws std::invalid_argument on a bad shape, CudaError on failure.
SustainedKernelRun run_sustained_ffma(double seconds, double sample_ms, int blocks, int threads,
                                      const std::function<void(double)>& beside);

// The FFMA kernels' shape: kFfmaChains independent chains per thread (enough for one warp to issue
// every cycle), kFfmaStepsPerChunk FFMA per chain between two looks at the timer. The host counts
// FFMA from these, never from retyped numbers.
inline constexpr int kFfmaChains = 8;
inline constexpr int kFfmaStepsPerChunk = 256;

// `blocks` blocks of `threads` threads, each warp `chunks` x 256 steps of 8 FFMA chains; one
// record per warp. Blocks of a size the SM fits `resident_blocks` times at once (occupancy API).
std::vector<WarpRecord> run_ffma_timeline(int blocks, int threads, std::uint32_t chunks);
int ffma_timeline_resident_blocks(int threads);

// One block of `warps` warps on one SM in which only warps a and b run `chunks` x 256 steps of 8
// FFMA chains (a == b: that warp alone). Cycles of each, and its %warpid.
struct WarpPairTiming {
  double cycles_a = 0, cycles_b = 0;
  std::uint32_t warpid_a = 0, warpid_b = 0;
};
WarpPairTiming run_ffma_pair(int warps, int warp_a, int warp_b, std::uint32_t chunks);

}  // namespace archbench
