// Pipeline: latency and throughput of the arithmetic pipelines, per precision.
//   Pipeline/latency/<op>                                      one warp, one dependent chain per thread
//   Pipeline/throughput/<op>/ilp:I/warps_per_sm:W/sms:S        I chains per thread, W warps on each of S SMs
//   Pipeline/dpx/latency/<intrinsic>                           the DPX table: every DPX intrinsic of the
//   Pipeline/dpx/throughput/<intrinsic>/ilp:4/warps_per_sm:W/sms:S   CUDA math API, on every SM at 32 and 64 warps
// <op>: hfma hfma2 hfma2_oob bf16_fma bf16x2_fma bf16x2_oob ffma dfma imad iadd3 mufu_rsq mufu_ex2 mufu_sin dpx_viaddmax
// <intrinsic>: viaddmax_s32 vimax3_u16x2 vibmin_s16x2 ... (ARCHBENCH_DPX_INTRINSICS lists them)
// (kernels/shared/pipeline_ops.cpp says what each one is in PTX and SASS).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/pipeline_bench.hpp"
#include "fixtures/runners/pipeline_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "kernels/pipeline.hpp"

namespace archbench {
namespace {

void register_pipeline(const SuiteConfig& cfg) {
  const int all_sms = cfg.gpu.info().sm_count;
  const std::vector<int> ilps =
      cfg.quick ? std::vector<int>{1, 8} : std::vector<int>(std::begin(kPipelineIlps), std::end(kPipelineIlps));
  const std::vector<int> one_sm_warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 2, 4, 8, 16, 32};
  const std::vector<int> all_sm_warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 2, 4, 8, 16, 32, 64};

  struct Point {
    PipeOp op;
    std::vector<std::int64_t> args;  // empty: latency
  };
  std::vector<Point> points;
  // Warp collectives are the Sync feature's (benchmarks/sync.cpp).
  for (const PipeOpInfo& info : pipe_ops())
    if (!is_warp_collective(info)) points.push_back({info.op, {}});
  for (const PipeOpInfo& info : pipe_ops()) {
    if (is_warp_collective(info)) continue;
    if (is_dpx_table(info.op)) {  // the table's shapes: every SM busy, chains enough to hide the latency
      for (int warps : kDpxTableWarpsPerSm)
        if (!cfg.quick || warps == kDpxTableWarpsPerSm[std::size(kDpxTableWarpsPerSm) - 1])
          points.push_back({info.op, {kDpxTableIlp, warps, all_sms}});
      continue;
    }
    for (int sms : {1, all_sms})
      for (int warps : sms == 1 ? one_sm_warps : all_sm_warps)
        for (int ilp : ilps) points.push_back({info.op, {ilp, warps, sms}});
  }

  std::vector<BenchmarkPoint> named;
  for (const Point& p : points) {
    const std::optional<std::string> unsupported = pipe_op_unsupported(pipe_op_info(p.op), cfg.gpu.info());
    // Pipeline/latency/ffma, Pipeline/dpx/latency/vimax3_s32
    const std::string prefix = is_dpx_table(p.op) ? "Pipeline/dpx/" : "Pipeline/";
    const std::string op_name = pipe_op_info(p.op).name;
    if (p.args.empty()) {
      named.push_back({prefix + "latency/" + op_name, [op = p.op](benchmark::State& st) { pipeline_latency(st, op); },
                       {}, unsupported});
      continue;
    }
    const PipelineShape shape{int(p.args[0]), int(p.args[1]), int(p.args[2])};
    named.push_back({bench_name(prefix + "throughput/" + op_name,
                                {{"ilp", shape.ilp}, {"warps_per_sm", shape.warps_per_sm}, {"sms", shape.sms}}),
                     [op = p.op, shape](benchmark::State& st) { pipeline_throughput(st, op, shape); },
                     {},
                     unsupported});
  }
  register_points("Pipeline", named, kPipelineBenchIterations,
                  {{"Pipeline/latency/", {lower("latency_cycles")}},
                   {"Pipeline/throughput/", {higher("thread_inst_per_clk_per_sm")}},
                   {"Pipeline/dpx/latency/", {lower("latency_cycles")}},
                   {"Pipeline/dpx/throughput/", {higher("thread_inst_per_clk_per_sm")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Pipeline, archbench::register_pipeline);
