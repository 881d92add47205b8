// Host calls that launch the Pipeline kernels: one instantiation per op x ILP (and the short
// latency body), looked up at run time.
#include "kernels/pipeline.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/pipeline.cuh"

namespace archbench {
namespace {

using KernelFn = void (*)(const std::uint64_t*, std::uint32_t, WarpTiming*);

template <class Op>
KernelFn kernel_for(int ilp, int body) {
  if (body == kLatencyShortBodySteps && ilp == 1) return dev::pipeline_kernel<Op, 1, kLatencyShortBodySteps>;
  if (body == kLatencyLongBodySteps && ilp == 1) return dev::pipeline_kernel<Op, 1, kLatencyLongBodySteps>;
  if (body == kPipelineBodySteps) {
    if constexpr (is_dpx_table(Op::kOp)) {  // a DPX table op: its one throughput shape
      if (ilp == kDpxTableIlp) return dev::pipeline_kernel<Op, kDpxTableIlp, kPipelineBodySteps>;
    } else {
      switch (ilp) {
        case 1:
          return dev::pipeline_kernel<Op, 1, kPipelineBodySteps>;
        case 2:
          return dev::pipeline_kernel<Op, 2, kPipelineBodySteps>;
        case 4:
          return dev::pipeline_kernel<Op, 4, kPipelineBodySteps>;
        case 8:
          return dev::pipeline_kernel<Op, 8, kPipelineBodySteps>;
        default:
          break;
      }
    }
  }
  throw std::invalid_argument("pipeline: no kernel for ilp " + std::to_string(ilp) + " and body " +
                              std::to_string(body));
}

template <class Op>
std::uint64_t encode(double v) {
  const typename Op::T t = Op::Encoding::make(v);
  std::uint64_t word = 0;
  std::memcpy(&word, &t, sizeof t);  // low bytes (little endian, as the kernel reads them)
  return word;
}

// Calls f(OpType{}) for the op's device type.
template <class F>
decltype(auto) with_op(PipeOp op, F&& f) {
  switch (op) {
    case PipeOp::hfma:
      return f(dev::ops::hfma{});
    case PipeOp::hfma2:
      return f(dev::ops::hfma2{});
    case PipeOp::hfma2_oob:
      return f(dev::ops::hfma2_oob{});
    case PipeOp::bf16_fma:
      return f(dev::ops::bf16_fma{});
    case PipeOp::bf16x2_fma:
      return f(dev::ops::bf16x2_fma{});
    case PipeOp::bf16x2_oob:
      return f(dev::ops::bf16x2_oob{});
    case PipeOp::ffma:
      return f(dev::ops::ffma{});
    case PipeOp::dfma:
      return f(dev::ops::dfma{});
    case PipeOp::imad:
      return f(dev::ops::imad{});
    case PipeOp::iadd3:
      return f(dev::ops::iadd3{});
    case PipeOp::mufu_rsq:
      return f(dev::ops::mufu_rsq{});
    case PipeOp::mufu_ex2:
      return f(dev::ops::mufu_ex2{});
    case PipeOp::mufu_sin:
      return f(dev::ops::mufu_sin{});
    case PipeOp::dpx_viaddmax:
      return f(dev::ops::dpx_viaddmax{});
    case PipeOp::shfl_idx:
      return f(dev::ops::shfl_idx{});
    case PipeOp::shfl_bfly:
      return f(dev::ops::shfl_bfly{});
    case PipeOp::shfl_up:
      return f(dev::ops::shfl_up{});
    case PipeOp::shfl_down:
      return f(dev::ops::shfl_down{});
    case PipeOp::vote_ballot:
      return f(dev::ops::vote_ballot{});
    case PipeOp::match_any:
      return f(dev::ops::match_any{});
    case PipeOp::redux_add:
      return f(dev::ops::redux_add{});
    case PipeOp::redux_max:
      return f(dev::ops::redux_max{});
    case PipeOp::elect:
      return f(dev::ops::elect{});
    case PipeOp::shfl_idx_branch:
      return f(dev::ops::shfl_idx_branch{});
#define ARCHBENCH_DPX_CASE(name, kind, minmax, type, relu) \
  case PipeOp::dpx_##name:                                 \
    return f(dev::ops::name{});
      ARCHBENCH_DPX_INTRINSICS(ARCHBENCH_DPX_CASE)
#undef ARCHBENCH_DPX_CASE
  }
  throw std::invalid_argument("pipeline: unknown op");
}

KernelFn kernel_for(PipeOp op, int ilp, int body) {
  return with_op(op, [&](auto o) { return kernel_for<decltype(o)>(ilp, body); });
}

}  // namespace

std::vector<WarpTiming> run_pipeline(const PipelineLaunch& l) {
  if (l.threads_per_block <= 0 || l.threads_per_block % 32 != 0 || l.threads_per_block > 1024 || l.blocks <= 0)
    throw std::invalid_argument("pipeline: threads per block must be a multiple of 32 in 32..1024, blocks > 0");
  const PipeOpInfo& info = pipe_op_info(l.op);
  const KernelFn kernel = kernel_for(l.op, l.ilp, l.body_steps);

  std::vector<std::uint64_t> words(2 + 32 * l.ilp);  // b, c, then every lane's chain starts
  with_op(l.op, [&](auto o) {
    using Op = decltype(o);
    words[0] = encode<Op>(info.b);
    words[1] = encode<Op>(info.c);
    for (int lane = 0; lane < 32; ++lane)
      for (int j = 0; j < l.ilp; ++j) words[2 + lane * l.ilp + j] = encode<Op>(info.seed + j * info.seed_step);
    return 0;
  });
  DeviceBuffer<std::uint64_t> operands(words);
  const std::size_t warps = std::size_t(l.blocks) * (l.threads_per_block / 32);
  DeviceBuffer<WarpTiming> out(warps);
  ARCHBENCH_CUDA(cudaMemset(out.get(), 0, warps * sizeof(WarpTiming)));
  kernel<<<l.blocks, l.threads_per_block>>>(operands.get(), l.iterations, out.get());
  cuda_check_launch("pipeline_kernel");
  return out.download();
}

int pipeline_max_blocks_per_sm(PipeOp op, int ilp, int threads_per_block) {
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, reinterpret_cast<const void*>(kernel_for(op, ilp, kPipelineBodySteps)), threads_per_block, 0));
  return blocks;
}

int pipeline_registers_per_thread(PipeOp op, int ilp) {
  cudaFuncAttributes a{};
  ARCHBENCH_CUDA(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(kernel_for(op, ilp, kPipelineBodySteps))));
  return a.numRegs;
}

}  // namespace archbench
