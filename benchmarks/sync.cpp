// Sync: how threads synchronise and exchange data. This first part: the warp collectives.
//   Sync/warp/latency/<op>                                one warp, one dependent chain per thread
//   Sync/warp/throughput/<op>/ilp:I/warps_per_sm:W/sms:S  I chains per thread, W warps on each of S SMs
// <op>: shfl_idx shfl_bfly shfl_up shfl_down vote_ballot match_any redux_add redux_max
// (fixtures/pipeline_ops.cpp says what each is in PTX and SASS). They run on the Pipeline kernel:
// inline PTX on runtime operands, the same starts in every lane, every warp's result checked
// against the host's replay, the SASS test counting one collective per step.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "fixtures/pipeline_bench.hpp"
#include "fixtures/registry.hpp"
#include "fixtures/report.hpp"

namespace archbench {
namespace {

void register_sync(const SuiteConfig& cfg) {
  const int all_sms = cfg.gpu.info().sm_count;
  const std::vector<int> ilps = cfg.quick ? std::vector<int>{1, 8} : std::vector<int>{1, 2, 4, 8};
  const std::vector<int> one_sm_warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 4, 16, 32};
  std::vector<BenchmarkPoint> points;
  for (const PipeOpInfo& info : pipe_ops())
    if (is_warp_collective(info))
      points.push_back({std::string("Sync/warp/latency/") + info.name,
                        [op = info.op](benchmark::State& st) { pipeline_latency(st, op); }});
  for (const PipeOpInfo& info : pipe_ops()) {
    if (!is_warp_collective(info)) continue;
    std::vector<PipelineShape> shapes;
    for (int warps : one_sm_warps)
      for (int ilp : ilps) shapes.push_back({ilp, warps, 1});
    shapes.push_back({8, 32, all_sms});
    for (const PipelineShape& s : shapes)
      points.push_back({std::string("Sync/warp/throughput/") + info.name + "/ilp:" + std::to_string(s.ilp) +
                            "/warps_per_sm:" + std::to_string(s.warps_per_sm) + "/sms:" + std::to_string(s.sms),
                        [op = info.op, s](benchmark::State& st) { pipeline_throughput(st, op, s); }});
  }
  register_points("Sync", points, kPipelineBenchIterations,
                  {{"Sync/warp/latency/", {lower("latency_cycles")}},
                   {"Sync/warp/throughput/", {higher("thread_inst_per_clk_per_sm")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Sync, archbench::register_sync);
