// Pipeline: latency and throughput of the arithmetic pipelines, per precision.
//   Pipeline/latency/<op>                                      one warp, one dependent chain per thread
//   Pipeline/throughput/<op>/ilp:I/warps_per_sm:W/sms:S        I chains per thread, W warps on each of S SMs
// <op>: hfma hfma2 hfma2_oob bf16_fma bf16x2_fma bf16x2_oob ffma dfma imad iadd3 mufu_rsq mufu_ex2 mufu_sin dpx_viaddmax
// (fixtures/pipeline_ops.cpp says what each one is in PTX and SASS).
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "fixtures/pipeline_runner.hpp"
#include "fixtures/hw_profiler.hpp"
#include "fixtures/registry.hpp"
#include "fixtures/report.hpp"
#include "kernels/pipeline.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;  // timed launches per benchmark (medians reported)

void report_op(benchmark::State& state, const PipeOpInfo& info) {
  state.counters["results_per_step"] = info.results_per_step;
  state.counters["flops_per_result"] = info.flops_per_result;
}

void pipeline_latency(benchmark::State& state, PipeOp op) {
  const PipeOpInfo& info = pipe_op_info(op);
  if (const auto why = pipe_op_unsupported(info, Gpu::current().info())) {
    state.SkipWithError(("unsupported: " + *why).c_str());
    return;
  }
  guarded(state, [&] {
    const std::uint32_t iterations = calibrate_latency_iterations(op);
    std::vector<double> latency, overhead, raw, mhz;
    std::uint32_t smid = 0;
    for (auto _ : state) {
      const LatencyMeasurement m = measure_latency(op, iterations);
      state.SetIterationTime(m.window_ns * 1e-9);
      latency.push_back(m.slope.latency_cycles);
      overhead.push_back(m.slope.loop_overhead_cycles);
      raw.push_back(m.slope.raw_cycles);
      mhz.push_back(m.sm_clock_mhz);
      smid = m.smid;
    }
    const double clock = median(mhz);
    const double cycles = median(latency);
    state.counters["latency_cycles"] = cycles;
    state.counters["latency_ns"] = clock > 0 ? cycles * 1e3 / clock : 0.0;
    state.counters["latency_raw_cycles"] = median(raw);
    state.counters["loop_overhead_cycles"] = median(overhead);
    state.counters["steps_per_iteration"] = kLatencyLongBodySteps;
    state.counters["iterations"] = iterations;
    state.counters["smid"] = smid;
    report_op(state, info);
    report_clocks(state, clock);
  });
}

void pipeline_throughput(benchmark::State& state, PipeOp op, PipelineShape shape) {
  const PipeOpInfo& info = pipe_op_info(op);
  if (const auto why = pipe_op_unsupported(info, Gpu::current().info())) {
    state.SkipWithError(("unsupported: " + *why).c_str());
    return;
  }
  guarded(state, [&] {
    const std::uint32_t iterations = calibrate_throughput_iterations(op, shape);
    std::vector<ThroughputMeasurement> runs;
    for (auto _ : state) {
      runs.push_back(measure_throughput(op, shape, iterations));
      state.SetIterationTime(runs.back().summary.gpu_window_ns * 1e-9);
    }
    const ThroughputMeasurement& last = runs.back();
    // Thread-level instructions (a warp instruction is 32 of them) per clock per SM.
    state.counters["thread_inst_per_clk_per_sm"] = median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_mean; });
    state.counters["thread_inst_per_clk_per_sm_min"] =
        median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_min; });
    state.counters["results_per_clk_per_sm"] = median_of(runs, [](const auto& m) { return m.results_per_clk_per_sm; });
    state.counters["ops_per_second"] = median_of(runs, [](const auto& m) { return m.ops_per_second; });
    if (info.flops_per_result > 0) state.counters["flops"] = median_of(runs, [](const auto& m) { return m.flops; });
    if (last.peak_results_per_clk_per_sm) {
      state.counters["peak_results_per_clk_per_sm"] = *last.peak_results_per_clk_per_sm;
      state.counters["pct_of_peak"] = median_of(runs, [](const auto& m) { return m.pct_of_peak; });
      if (info.flops_per_result > 0) state.counters["peak_flops"] = median_of(runs, [](const auto& m) { return m.peak_flops; });
    }
    // --counters: warp instructions executed per warp-level step of the chains: 1 for an op that
    // is one SASS instruction (plus the loop's share), more where a step takes helpers, 0.5
    // where ptxas packs two chains into one x2 instruction.
    if (add_hw_counters(state, kHwInstructions, {nullptr, [&] { measure_throughput(op, shape, iterations); }}))
      if (const auto it = state.counters.find("hw_inst_executed"); it != state.counters.end())
        state.counters["hw_inst_per_step"] =
            it->second.value / (double(shape.sms) * shape.warps_per_sm * double(iterations) * kPipelineBodySteps);
    state.counters["ilp"] = shape.ilp;
    state.counters["warps_per_sm"] = last.summary.max_warps_per_sm;
    state.counters["blocks_per_sm"] = shape.blocks_per_sm();
    state.counters["warps_per_block"] = shape.warps_per_block();
    state.counters["sms"] = last.summary.sms_used;
    state.counters["registers_per_thread"] = last.registers_per_thread;
    state.counters["iterations"] = last.iterations;
    report_op(state, info);
    report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
  });
}

void register_pipeline(const SuiteConfig& cfg) {
  const int all_sms = cfg.gpu.info().sm_count;
  const std::vector<int> ilps = cfg.quick ? std::vector<int>{1, 8} : std::vector<int>(std::begin(kPipelineIlps), std::end(kPipelineIlps));
  const std::vector<int> one_sm_warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 2, 4, 8, 16, 32};
  const std::vector<int> all_sm_warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{1, 2, 4, 8, 16, 32, 64};

  struct Point {
    PipeOp op;
    std::vector<std::int64_t> args;  // empty: latency
  };
  std::vector<Point> points;
  for (const PipeOpInfo& info : pipe_ops()) points.push_back({info.op, {}});
  for (const PipeOpInfo& info : pipe_ops())
    for (int sms : {1, all_sms})
      for (int warps : sms == 1 ? one_sm_warps : all_sm_warps)
        for (int ilp : ilps) points.push_back({info.op, {ilp, warps, sms}});

  std::vector<BenchmarkPoint> named;
  for (const Point& p : points) {
    const std::string op_name = pipe_op_info(p.op).name;
    if (p.args.empty()) {
      named.push_back({"Pipeline/latency/" + op_name, [op = p.op](benchmark::State& st) { pipeline_latency(st, op); }});
      continue;
    }
    const PipelineShape shape{int(p.args[0]), int(p.args[1]), int(p.args[2])};
    named.push_back({"Pipeline/throughput/" + op_name + "/ilp:" + std::to_string(shape.ilp) + "/warps_per_sm:" +
                         std::to_string(shape.warps_per_sm) + "/sms:" + std::to_string(shape.sms),
                     [op = p.op, shape](benchmark::State& st) { pipeline_throughput(st, op, shape); }});
  }
  register_points("Pipeline", named, kIterations,
                  {{"Pipeline/latency/", {lower("latency_cycles")}}, {"Pipeline/throughput/", {higher("thread_inst_per_clk_per_sm")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Pipeline, archbench::register_pipeline);
