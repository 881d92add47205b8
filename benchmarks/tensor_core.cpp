// TensorCore: tensor-core latency and throughput per dtype and shape, against the dense peak.
//   TensorCore/mma_sync/latency/<op>/fill:F                                 one warp, one dependent chain
//   TensorCore/mma_sync/throughput/<op>/ilp:I/warps_per_sm:W/sms:S/fill:F   I chains per warp, W warps on S SMs
//   TensorCore/mma_sp/latency|throughput/<op>/...                           the same for mma.sp (2:4 sparse A),
//                                                                           beside its dense partner in one run
//   TensorCore/wgmma/latency/<type>/n:N/fill:F                              one warpgroup, one wgmma at a time
//   TensorCore/wgmma/throughput/<type>/<ss|rs>/n:N/warpgroups_per_sm:G/sms:S/fill:F
//   TensorCore/wgmma_sp/latency|throughput/<type>/...                        the same for wgmma.mma_async.sp
//                                                                           (2:4 sparse A), beside dense wgmma
//   TensorCore/cublas/<dtype>/m:M/n:N/k:K/fill:F                            one cuBLASLt GEMM (TN), what users get
//   TensorCore/numerics/mma_sync|wgmma/<type>                               what one mma.sync (wgmma) computes:
//                                                                           the sum's alignment, rounding, blocks, subnormals
// <op> is mma.sync's dtype_shape_accumulator (kernels/shared/tensor_ops.cpp); <type> is wgmma's input type
// (f16_acc_f16: f16 accumulators). fill: random (default) or zero (runs faster: less toggling).
// wgmma is built for sm_90a only; elsewhere those benchmarks skip with the reason.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/cublas_reference.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/runners/tensor_runner.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "analysis/tc_numerics.hpp"
#include "kernels/shared/self_check.hpp"
#include "kernels/tc_numerics.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;  // timed launches per benchmark (medians reported)

void report_fill(benchmark::State& state, TensorFill f) { state.counters["fill_zero"] = f == TensorFill::zero ? 1 : 0; }

void report_latency(benchmark::State& state, const std::vector<TensorLatency>& runs) {
  const double clock = median_of(runs, [](const auto& m) { return m.sm_clock_mhz; });
  const double cycles = median_of(runs, [](const auto& m) { return m.latency_cycles; });
  state.counters["latency_cycles"] = cycles;
  state.counters["latency_ns"] = clock > 0 ? cycles * 1e3 / clock : 0.0;
  state.counters["iterations"] = runs.back().iterations;
  report_clocks(state, clock);
}

void report_throughput(benchmark::State& state, const std::vector<TensorThroughput>& runs,
                       double flop_per_instruction) {
  const TensorThroughput& last = runs.back();
  state.counters["flop_per_clk_per_sm"] = median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_mean; });
  state.counters["flop_per_clk_per_sm_min"] = median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_min; });
  state.counters["flops"] = median_of(runs, [](const auto& m) { return m.flops; });
  state.counters["instructions_per_clk_per_sm"] = state.counters["flop_per_clk_per_sm"].value / flop_per_instruction;
  state.counters["flop_per_instruction"] = flop_per_instruction;
  if (last.peak_flop_per_clk_per_sm) {
    state.counters["peak_flop_per_clk_per_sm"] = *last.peak_flop_per_clk_per_sm;
    state.counters["pct_of_peak"] = median_of(runs, [](const auto& m) { return m.pct_of_peak; });
    state.counters["peak_flops"] = median_of(runs, [](const auto& m) { return m.peak_flops; });
  }
  state.counters["sms"] = last.summary.sms_used;
  state.counters["warps_per_sm"] = last.summary.max_warps_per_sm;
  state.counters["blocks"] = last.blocks;
  state.counters["threads_per_block"] = last.threads_per_block;
  state.counters["registers_per_thread"] = last.registers_per_thread;
  state.counters["iterations"] = last.iterations;
  report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
}

// --counters: the timed launch replayed (its iteration count, no calibration); warp instructions
// on the tensor pipe per instruction the kernel issues (mma.sync: per warp; wgmma: per
// warpgroup, whose four warps each execute it), and the tensor pipe's activity.
template <class Replay>
void report_tensor_counters(benchmark::State& state, const TensorThroughput& last, double flop_per_instruction,
                            Replay&& replay) {
  if (!add_hw_counters(state, kHwInstructions | kHwTensor, {nullptr, replay})) return;
  const auto tensor = state.counters.find("hw_inst_pipe_tensor");
  if (tensor != state.counters.end() && last.summary.total_work > 0)
    state.counters["hw_tensor_inst_per_instruction"] =
        tensor->second.value / (last.summary.total_work / flop_per_instruction);
}

template <class Measure>
void time_runs(benchmark::State& state, std::vector<TensorThroughput>& runs, Measure&& measure) {
  timed_loop(state, [&] {
    runs.push_back(measure());
    return runs.back().summary.gpu_window_ns * 1e-9;
  });
}

void mma_latency(benchmark::State& state, MmaOp op, TensorFill fill) {
  const MmaOpInfo& info = mma_op_info(op);
  if (const auto why = mma_op_unsupported(info, Gpu::current().info())) return skip(state, *why);
  guarded(state, [&] {
    const std::vector<TensorLatency> runs = timed_runs(
        state, [&] { return measure_mma_latency(op, fill); },
        [](const TensorLatency& m) { return m.window_ns * 1e-9; });
    report_latency(state, runs);
    state.counters["flop_per_instruction"] = info.flop_per_instruction();
    report_fill(state, fill);
  });
}

void mma_throughput(benchmark::State& state, MmaOp op, MmaShape shape, TensorFill fill) {
  const MmaOpInfo& info = mma_op_info(op);
  if (const auto why = mma_op_unsupported(info, Gpu::current().info())) return skip(state, *why);
  guarded(state, [&] {
    std::vector<TensorThroughput> runs;
    time_runs(state, runs, [&] { return measure_mma_throughput(op, shape, fill); });
    report_tensor_counters(state, runs.back(), info.flop_per_instruction(),
                           [&] { measure_mma_throughput(op, shape, fill, runs.back().iterations); });
    report_throughput(state, runs, info.flop_per_instruction());
    state.counters["ilp"] = shape.ilp;
    report_fill(state, fill);
  });
}

// mma.sp: the sparse op's rate (dense-equivalent FLOP, against twice the dense peak), then its dense
// partner on the same launch shape in the same benchmark, and the ratio (the hardware's promise: 2).
void mma_sp_throughput(benchmark::State& state, MmaOp op, MmaShape shape, TensorFill fill) {
  const MmaOpInfo& info = mma_op_info(op);
  const MmaOpInfo& dense = mma_op_info(info.dense_partner);
  if (const auto why = mma_op_unsupported(info, Gpu::current().info())) return skip(state, *why);
  guarded(state, [&] {
    std::vector<TensorThroughput> runs, dense_runs;
    time_runs(state, runs, [&] {
      dense_runs.push_back(measure_mma_throughput(dense.op, shape, fill));
      return measure_mma_throughput(op, shape, fill);
    });
    report_tensor_counters(state, runs.back(), info.flop_per_instruction(),
                           [&] { measure_mma_throughput(op, shape, fill, runs.back().iterations); });
    report_throughput(state, runs, info.flop_per_instruction());
    const double dense_rate = median_of(dense_runs, [](const auto& m) { return m.summary.per_sm_rate_mean; });
    state.counters["dense_flop_per_clk_per_sm"] = dense_rate;
    state.counters["speedup_vs_dense"] = dense_rate > 0 ? state.counters["flop_per_clk_per_sm"].value / dense_rate : 0.0;
    state.counters["ilp"] = shape.ilp;
    report_fill(state, fill);
    note(state, std::string(info.ptx) + " against " + dense.ptx + " (dense partner, same launch)");
  });
}

void wgmma_latency(benchmark::State& state, WgmmaType type, int n, TensorFill fill, bool sparse = false) {
  if (const auto why = wgmma_unsupported()) return skip(state, *why);
  guarded(state, [&] {
    const std::vector<TensorLatency> runs = timed_runs(
        state, [&] { return measure_wgmma_latency(type, n, fill, sparse); },
        [](const TensorLatency& m) { return m.window_ns * 1e-9; });
    report_latency(state, runs);
    state.counters["n"] = n;
    state.counters["flop_per_instruction"] = sparse ? wgmma_sparse_flop(type, n) : wgmma_flop(type, n);
    report_fill(state, fill);
  });
}

// Sparse (shape.sparse): the dense wgmma of the same type, N and launch measured beside it in the
// same benchmark (dense_flop_per_clk_per_sm, speedup_vs_dense).
void wgmma_throughput(benchmark::State& state, WgmmaType type, int n, WgmmaShape shape, TensorFill fill) {
  if (const auto why = wgmma_unsupported()) return skip(state, *why);
  guarded(state, [&] {
    const double flop = shape.sparse ? wgmma_sparse_flop(type, n) : wgmma_flop(type, n);
    WgmmaShape dense_shape = shape;
    dense_shape.sparse = false;
    std::vector<TensorThroughput> runs, dense_runs;
    time_runs(state, runs, [&] {
      if (shape.sparse) dense_runs.push_back(measure_wgmma_throughput(type, n, dense_shape, fill));
      return measure_wgmma_throughput(type, n, shape, fill);
    });
    report_tensor_counters(state, runs.back(), flop,
                           [&] { measure_wgmma_throughput(type, n, shape, fill, runs.back().iterations); });
    report_throughput(state, runs, flop);
    state.counters["n"] = n;
    state.counters["warpgroups_per_sm"] = shape.warpgroups_per_sm;
    if (shape.sparse) {
      const double dense_rate = median_of(dense_runs, [](const auto& m) { return m.summary.per_sm_rate_mean; });
      state.counters["dense_flop_per_clk_per_sm"] = dense_rate;
      state.counters["speedup_vs_dense"] =
          dense_rate > 0 ? state.counters["flop_per_clk_per_sm"].value / dense_rate : 0.0;
    }
    report_fill(state, fill);
  });
}

void cublas_gemm(benchmark::State& state, TensorDtype dtype, GemmShape shape, TensorFill fill, int batches) {
  if (const auto why = cublas_unsupported(dtype)) return skip(state, *why);
  guarded(state, [&] {
    const std::vector<GemmMeasurement> runs = timed_runs(
        state, [&] { return measure_cublas_gemm(dtype, shape, fill, batches); },
        [](const GemmMeasurement& m) { return m.seconds_per_gemm; });
    const GpuInfo& gpu = Gpu::current().info();
    const double flops = median_of(runs, [](const auto& m) { return m.flops; });
    const double clock = median_of(runs, [](const auto& m) { return m.sm_clock_mhz; });
    state.counters["flops"] = flops;
    state.counters["gemms"] = runs.back().gemms;
    state.counters["m"] = shape.m;
    state.counters["n"] = shape.n;
    state.counters["k"] = shape.k;
    if (const auto peak = tensor_peak_flop_per_clk_per_sm(tensor_peak_class(dtype), gpu.cc()); peak && clock > 0) {
      // NVML's clock while the GEMMs ran: cuBLAS kernels carry no clock of their own.
      state.counters["flop_per_clk_per_sm"] = flops / (gpu.sm_count * clock * 1e6);
      state.counters["peak_flop_per_clk_per_sm"] = *peak;
      state.counters["peak_flops"] = *peak * gpu.sm_count * clock * 1e6;
      state.counters["pct_of_peak"] = 100.0 * flops / (*peak * gpu.sm_count * clock * 1e6);
    }
    report_fill(state, fill);
    note(state, std::string("D ") + runs.back().output_type);
    report_clocks(state, clock);
  });
}

// What one mma.sync or wgmma of `op`'s input type computes, from test vectors with exact answers
// (analysis/tc_numerics.cpp). Each launch is one instruction (one warp, or one warpgroup); every
// property is a discrete value, found the same in every timed loop or the benchmark fails.
void tc_numerics(benchmark::State& state, const TcNumericsOp& op, bool wgmma) {
  guarded(state, [&] {
    const TcFormat format = tc_format(op.dtype, op.k);
    const DotEvaluator dot = [&](const DotVector& v) {
      return wgmma ? run_wgmma_numerics(op.dtype, v.a, v.b, v.c) : run_mma_numerics(op.dtype, v.a, v.b, v.c);
    };
    std::optional<TcNumerics> first;
    int vectors = 0;
    timed_loop(state, [&] {
      return wall_seconds([&] {
        int count = 0;
        const TcNumerics n = infer_tc_numerics(format, [&](const DotVector& v) {
          ++count;
          return dot(v);
        });
        if (first && n.evidence != first->evidence)
          throw SelfCheckError(std::string("numerics of ") + op.dtype + ": two runs of the test vectors disagree");
        first = n;
        vectors = count;
      });
    });
    const TcNumerics& n = *first;
    // No kernel clock to report (one instruction per launch): NVML's, beside whether it throttled.
    const auto sample = Gpu::current().nvml().sample();
    report_clocks(state, sample ? sample->sm_clock_mhz : 0.0);
    state.counters["test_vectors"] = vectors;
    state.counters["products_exact"] = n.products_exact;
    state.counters["alignment_bits"] = n.alignment_bits;  // integers: exact sums (kUnboundedAlignment)
    state.counters["alignment_bits_with_c"] = n.alignment_bits_with_c;
    if (format.precision == 0) {
      state.counters["overflow_wraps"] = n.overflow_wraps;
      note(state, std::string(n.products_exact ? "exact" : "inexact") + " integer products, a 32-bit accumulator that " +
                      (n.overflow_wraps ? "wraps" : "saturates") + "; evidence: " + [&] {
                        std::string e;
                        for (const auto& line : n.evidence) e += (e.empty() ? "" : "; ") + line;
                        return e;
                      }());
      return;
    }
    state.counters["rounding_mode"] = int(n.rounding);
    state.counters["rounding_in_alignment"] = n.rounding_in_alignment;
    state.counters["block_size"] = n.block_size;
    state.counters["subnormal_inputs"] = n.subnormal_inputs;
    state.counters["subnormal_output"] = n.subnormal_output;
    std::string summary = std::string("products ") + (n.products_exact ? "exact" : "rounded") + ", " +
                          (n.alignment_bits >= kUnboundedAlignment ? std::string("sums exact (no alignment loss)")
                                                                   : std::to_string(n.alignment_bits) + " bits kept in the alignment") +
                          ", rounding " + tc_rounding_name(n.rounding) + (n.rounding_in_alignment ? " (in the alignment)" : "") +
                          ", blocks of " + (n.block_size ? std::to_string(n.block_size) : std::string("(none found)")) +
                          ", subnormal inputs " + (n.subnormal_inputs ? "kept" : "flushed") + ", subnormal output " +
                          (n.subnormal_output ? "kept" : "flushed") + "; evidence:";
    for (const auto& line : n.evidence) summary += " " + line + ";";
    if (*op.note && Gpu::current().info().cc() == 90) summary = std::string(op.note) + "; " + summary;
    note(state, summary);
  });
}

void register_tensor_core(const SuiteConfig& cfg) {
  const int all = cfg.gpu.info().sm_count;
  const TensorFill rnd = TensorFill::random, zero = TensorFill::zero;
  std::vector<BenchmarkPoint> points;
  const auto add = [&](std::string name, std::function<void(benchmark::State&)> run,
                       std::optional<std::string> unsupported = std::nullopt) {
    points.push_back({"TensorCore/" + std::move(name), std::move(run), {}, std::move(unsupported)});
  };
  const std::optional<std::string> no_wgmma = wgmma_unsupported_on(cfg.gpu.info().cc());

  // mma.sync: latency, then throughput on one SM (warps 1..32) and on all SMs.
  const std::vector<int> ilps = cfg.quick ? std::vector<int>{4} : std::vector<int>{1, 2, 4};
  const std::vector<int> one_sm_warps = cfg.quick ? std::vector<int>{8} : std::vector<int>{1, 2, 4, 8, 16, 32};
  const std::vector<int> all_sm_warps = cfg.quick ? std::vector<int>{8} : std::vector<int>{4, 8, 16, 32};
  for (const MmaOpInfo& info : mma_ops()) {
    if (info.sparse) continue;
    const MmaOp op = info.op;
    const std::optional<std::string> no_op = mma_op_unsupported(info, cfg.gpu.info());
    add(bench_name(std::string("mma_sync/latency/") + info.name, {{"fill", tensor_fill_name(rnd)}}),
        [op, rnd](benchmark::State& st) { mma_latency(st, op, rnd); }, no_op);
    for (int sms : {1, all})
      for (int warps : sms == 1 ? one_sm_warps : all_sm_warps)
        for (int ilp : ilps) {
          const MmaShape shape{ilp, warps, sms};
          add(bench_name(std::string("mma_sync/throughput/") + info.name,
                         {{"ilp", ilp}, {"warps_per_sm", warps}, {"sms", sms}, {"fill", tensor_fill_name(rnd)}}),
              [op, shape, rnd](benchmark::State& st) { mma_throughput(st, op, shape, rnd); }, no_op);
        }
  }
  // The zero-fill contrast on the main 16-bit shape.
  {
    const MmaShape shape{4, 8, all};
    add(bench_name("mma_sync/throughput/f16_m16n8k16_f32",
                   {{"ilp", 4}, {"warps_per_sm", 8}, {"sms", all}, {"fill", tensor_fill_name(zero)}}),
        [shape, zero](benchmark::State& st) { mma_throughput(st, MmaOp::f16_m16n8k16_f32, shape, zero); });
  }

  // mma.sp: latency, then throughput beside the dense partner on one SM and on all SMs.
  const std::vector<int> sp_one_sm_warps = cfg.quick ? std::vector<int>{8} : std::vector<int>{4, 8, 16};
  const std::vector<int> sp_all_sm_warps = cfg.quick ? std::vector<int>{8} : std::vector<int>{8, 16};
  for (const MmaOpInfo& info : mma_ops()) {
    if (!info.sparse) continue;
    const MmaOp op = info.op;
    const std::optional<std::string> no_op = mma_op_unsupported(info, cfg.gpu.info());
    add(bench_name(std::string("mma_sp/latency/") + info.name, {{"fill", tensor_fill_name(rnd)}}),
        [op, rnd](benchmark::State& st) { mma_latency(st, op, rnd); }, no_op);
    for (int sms : {1, all})
      for (int warps : sms == 1 ? sp_one_sm_warps : sp_all_sm_warps) {
        const MmaShape shape{4, warps, sms};
        add(bench_name(std::string("mma_sp/throughput/") + info.name,
                       {{"ilp", 4}, {"warps_per_sm", warps}, {"sms", sms}, {"fill", tensor_fill_name(rnd)}}),
            [op, shape, rnd](benchmark::State& st) { mma_sp_throughput(st, op, shape, rnd); }, no_op);
      }
  }

  // wgmma: latency per N, throughput per N x warpgroups on one SM and all SMs (A from shared
  // memory), and with A from registers on all SMs.
  const std::vector<int> ns =
      cfg.quick ? std::vector<int>{64, 256} : std::vector<int>(std::begin(kWgmmaNs), std::end(kWgmmaNs));
  const std::vector<int> groups = cfg.quick ? std::vector<int>{2} : std::vector<int>{1, 2, 3};
  for (const WgmmaTypeInfo& info : wgmma_types()) {
    const WgmmaType type = info.type;
    for (int n : ns)
      add(bench_name(std::string("wgmma/latency/") + info.name, {{"n", n}, {"fill", tensor_fill_name(rnd)}}),
          [type, n, rnd](benchmark::State& st) { wgmma_latency(st, type, n, rnd); }, no_wgmma);
    for (WgmmaMode mode : {WgmmaMode::ss, WgmmaMode::rs})
      for (int sms : {1, all}) {
        if (mode == WgmmaMode::rs && sms == 1) continue;
        for (int n : ns)
          for (int g : groups) {
            const WgmmaShape shape{mode, g, sms};
            add(bench_name(std::string("wgmma/throughput/") + info.name + "/" + wgmma_mode_name(mode),
                           {{"n", n}, {"warpgroups_per_sm", g}, {"sms", sms}, {"fill", tensor_fill_name(rnd)}}),
                [type, n, shape, rnd](benchmark::State& st) { wgmma_throughput(st, type, n, shape, rnd); }, no_wgmma);
          }
      }
  }
  // Sparse wgmma: latency per N, throughput per N x warpgroups on all SMs (A from shared memory, and
  // from registers) beside the dense form of the same mode.
  for (const WgmmaTypeInfo& info : wgmma_types()) {
    const WgmmaType type = info.type;
    for (int n : ns)
      add(bench_name(std::string("wgmma_sp/latency/") + info.name, {{"n", n}, {"fill", tensor_fill_name(rnd)}}),
          [type, n, rnd](benchmark::State& st) { wgmma_latency(st, type, n, rnd, true); }, no_wgmma);
    for (WgmmaMode mode : {WgmmaMode::ss, WgmmaMode::rs})
      for (int n : ns)
        for (int g : groups) {
          const WgmmaShape shape{mode, g, all, true};
          add(bench_name(std::string("wgmma_sp/throughput/") + info.name + "/" + wgmma_mode_name(mode),
                         {{"n", n}, {"warpgroups_per_sm", g}, {"sms", all}, {"fill", tensor_fill_name(rnd)}}),
              [type, n, shape, rnd](benchmark::State& st) { wgmma_throughput(st, type, n, shape, rnd); }, no_wgmma);
        }
  }
  {
    const WgmmaShape shape{WgmmaMode::ss, 2, all};
    add(bench_name("wgmma/throughput/f16/ss",
                   {{"n", 256}, {"warpgroups_per_sm", 2}, {"sms", all}, {"fill", tensor_fill_name(zero)}}),
        [shape, zero](benchmark::State& st) { wgmma_throughput(st, WgmmaType::f16_f32, 256, shape, zero); },
        no_wgmma);
  }

  // Numerics: one benchmark per mma.sync input type, and per wgmma input type (sm_90a).
  for (const TcNumericsOp& op : tc_numerics_ops())
    add(std::string("numerics/mma_sync/") + op.dtype, [&op](benchmark::State& st) { tc_numerics(st, op, false); },
        cfg.gpu.info().cc() < op.min_cc
            ? std::optional<std::string>(std::string(op.ptx) + " needs sm_" + std::to_string(op.min_cc))
            : std::nullopt);
  for (const TcNumericsOp& op : tc_numerics_wgmma_ops())
    add(std::string("numerics/wgmma/") + op.dtype, [&op](benchmark::State& st) { tc_numerics(st, op, true); },
        no_wgmma);

  // cuBLASLt: one large GEMM per dtype (quick: a smaller one, f16 only).
  const GemmShape big = cfg.quick ? GemmShape{4096, 4096, 4096} : GemmShape{8192, 8192, 8192};
  const int batches = cfg.quick ? 2 : 5;
  const std::vector<TensorDtype> gemm_types =
      cfg.quick ? std::vector<TensorDtype>{TensorDtype::f16}
                : std::vector<TensorDtype>{TensorDtype::f16,  TensorDtype::bf16, TensorDtype::tf32,
                                           TensorDtype::e4m3, TensorDtype::s8,   TensorDtype::f64};
  for (TensorDtype d : gemm_types) {
    GemmShape shape = big;
    if (d == TensorDtype::f64 && !cfg.quick) shape = GemmShape{4096, 4096, 4096};  // 60 TFLOP/s: keep it short
    add(bench_name(std::string("cublas/") + tensor_dtype_name(d),
                   {{"m", shape.m}, {"n", shape.n}, {"k", shape.k}, {"fill", tensor_fill_name(rnd)}}),
        [d, shape, rnd, batches](benchmark::State& st) { cublas_gemm(st, d, shape, rnd, batches); });
  }
  register_points("TensorCore", points, kIterations,
                  {{"TensorCore/", {higher("flop_per_clk_per_sm")}},
                   // cuBLAS kernels carry no clock: per clock would divide by a few NVML samples of a
                   // clock that swings under the power cap (1590-1875 MHz in three quick runs at
                   // 745-750 TFLOP/s). The board's FLOP/s repeats; the clock is recorded beside it.
                   {"TensorCore/cublas/", {higher("flops")}},
                   {"TensorCore/mma_sync/latency/", {lower("latency_cycles")}},
                   {"TensorCore/mma_sp/latency/", {lower("latency_cycles")}},
                   // A discrete value: any change is one (the other properties are in the label).
                   {"TensorCore/numerics/", {value("alignment_bits", 0)}},
                   {"TensorCore/wgmma/latency/", {lower("latency_cycles")}},
                   {"TensorCore/wgmma_sp/latency/", {lower("latency_cycles")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(TensorCore, archbench::register_tensor_core);
