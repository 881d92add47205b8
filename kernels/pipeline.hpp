// Host side of the Pipeline kernels (kernels/pipeline.cuh): one launch of one op's chains.
#pragma once
#include <cstdint>
#include <vector>

#include "analysis/warp_timing.hpp"
#include "kernels/shared/pipeline_ops.hpp"

namespace archbench {

// Steps per thread per loop iteration, whatever the ILP: 512 keeps the loop's own three
// instructions under 0.6 % of the issue slots.
inline constexpr int kPipelineBodySteps = 512;
// The latency slope's two bodies (one chain per thread). Both stay small: on an H100 a loop of up
// to 256 instructions costs about 8 cycles per iteration beyond its chain, one of 512 to 1024
// about 18 (instruction fetch), and a slope across that step would add 0.04 cycles per step.
inline constexpr int kLatencyShortBodySteps = 128;
inline constexpr int kLatencyLongBodySteps = 256;
inline constexpr int kPipelineIlps[] = {1, 2, 4, 8};

struct PipelineLaunch {
  PipeOp op = PipeOp::ffma;
  int ilp = 1;                          // one of kPipelineIlps
  int body_steps = kPipelineBodySteps;  // kPipelineBodySteps, or a latency body with ilp 1
  int blocks = 1;
  int threads_per_block = 32;  // a multiple of 32, at most 1024
  std::uint32_t iterations = 1;
};

// Runs the kernel once and returns one timing per warp. Throws std::invalid_argument for a
// combination that has no kernel, CudaError for a failed launch.
std::vector<WarpTiming> run_pipeline(const PipelineLaunch& launch);

// Blocks of `threads_per_block` that fit on one SM at once (cudaOccupancy...), and the
// kernel's registers per thread.
int pipeline_max_blocks_per_sm(PipeOp op, int ilp, int threads_per_block);
int pipeline_registers_per_thread(PipeOp op, int ilp);

}  // namespace archbench
