// TensorCore on a real GPU: every wgmma type x N x mode computes the exact product of integer data
// (the shared-memory layout and the A register fragments are right); every mma.sync op passes its
// self-check with a plausible latency; wgmma beats mma.sync and reaches 85 % of the clock-scaled
// peak; cuBLASLt runs and stays under the peak; every numerics kernel computes exact small
// integer dot products, and the inference finds the same numerics twice.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>

#include "analysis/tc_numerics.hpp"
#include "fixtures/runners/cublas_reference.hpp"
#include "kernels/tc_numerics.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/tensor_runner.hpp"

namespace archbench {
namespace {

TEST(TensorCore, WgmmaIsExactForEveryTypeNAndMode) {
  if (const auto why = wgmma_unsupported()) GTEST_SKIP() << *why;
  for (const WgmmaTypeInfo& t : wgmma_types())
    for (int n : kWgmmaNs)
      for (WgmmaMode mode : {WgmmaMode::ss, WgmmaMode::rs, WgmmaMode::ss_latency})
        EXPECT_NO_THROW(check_wgmma_exact(t.type, n, mode, 1, 2))
            << t.name << " n" << n << " " << wgmma_mode_name(mode);
  // Several warpgroups share the block's operands.
  EXPECT_NO_THROW(check_wgmma_exact(WgmmaType::f16_f32, 256, WgmmaMode::ss, kWgmmaMaxWarpgroupsPerBlock, 3));
}

TEST(TensorCore, EveryMmaSyncOpChecksItselfWithAPlausibleLatency) {
  const GpuInfo& g = Gpu::current().info();
  std::map<std::string, double> latency;
  for (const MmaOpInfo& op : mma_ops()) {
    if (const auto why = mma_op_unsupported(op, g)) {
      std::printf("%s: skipped (%s)\n", op.name, why->c_str());
      continue;
    }
    const TensorLatency l = measure_mma_latency(op.op, TensorFill::random);
    const TensorThroughput t = measure_mma_throughput(op.op, MmaShape{4, 8, 1}, TensorFill::random);
    std::printf("%-20s latency %5.1f cycles, %7.0f FLOP/clk/SM (%.0f %% of peak)\n", op.name, l.latency_cycles,
                t.summary.per_sm_rate_mean, t.pct_of_peak);
    latency[op.name] = l.latency_cycles;
    // A tensor instruction takes some cycles, and fewer than a chain of 128 dependent FMAs (every
    // generation from Volta on: 14 to 26 on an H100).
    EXPECT_GT(l.latency_cycles, 4.0) << op.name;
    EXPECT_LT(l.latency_cycles, 128.0) << op.name;
    if (t.peak_flop_per_clk_per_sm) {
      EXPECT_LT(t.pct_of_peak, 105.0) << op.name;
      // The chain cannot beat the throughput: one warp's instruction of F FLOP needs at least
      // F / (peak / 4 sub-partitions) cycles of its sub-partition's tensor core.
      EXPECT_GE(l.latency_cycles * 1.02, op.flop_per_instruction() / (*t.peak_flop_per_clk_per_sm / 4)) << op.name;
    }
  }
  // Twice the K on the same M x N is longer (H100: 24 against 17 cycles).
  for (const auto& [shorter, longer] :
       {std::pair{"f16_m16n8k8_f32", "f16_m16n8k16_f32"}, std::pair{"bf16_m16n8k8_f32", "bf16_m16n8k16_f32"},
        std::pair{"tf32_m16n8k4_f32", "tf32_m16n8k8_f32"}})
    if (latency.count(shorter) && latency.count(longer)) {
      EXPECT_GT(latency[longer], latency[shorter]) << longer;
    }
}

// Every mma.sync and mma.sp op with f32/s32 accumulators computes the host's exact D (every
// element, through the warp's fold), a sparse one for every metadata pattern: the fragment maps,
// the metadata and the compression are right.
TEST(TensorCore, MmaIsExactAndSparseFollowsItsMetadata) {
  const GpuInfo& g = Gpu::current().info();
  int sparse = 0;
  for (const MmaOpInfo& op : mma_ops()) {
    if (op.m != 16 || op.dtype == TensorDtype::f64 || op.d_regs != op.m * op.n / 32 || mma_op_unsupported(op, g))
      continue;
    EXPECT_NO_THROW(check_mma_exact_every_pattern(op.op)) << op.family() << " " << op.name;
    sparse += op.sparse;
  }
  if (g.cc() >= 80) {
    EXPECT_GE(sparse, 8);
  }
}

// Sparse beside dense on one launch shape, on one SM and on all: what mma.sp buys over mma.sync.
TEST(TensorCore, SparseRatesStayUnderTheSparsePeak) {
  const GpuInfo& g = Gpu::current().info();
  for (const MmaOpInfo& op : mma_ops()) {
    if (!op.sparse || mma_op_unsupported(op, g)) continue;
    for (int sms : {1, g.sm_count}) {
      const MmaShape shape{4, 8, sms};
      const TensorThroughput sp = measure_mma_throughput(op.op, shape, TensorFill::random);
      const TensorThroughput dense = measure_mma_throughput(op.dense_partner, shape, TensorFill::random);
      std::printf("%-18s sms %3d: sparse %6.0f, dense %6.0f FLOP/clk/SM: %.2fx (%.0f %% of the sparse peak)\n", op.name,
                  sms, sp.summary.per_sm_rate_mean, dense.summary.per_sm_rate_mean,
                  sp.summary.per_sm_rate_mean / dense.summary.per_sm_rate_mean, sp.pct_of_peak);
      if (sp.peak_flop_per_clk_per_sm) {
        EXPECT_LT(sp.pct_of_peak, 102.0) << op.name;
      }
      EXPECT_GT(sp.summary.per_sm_rate_mean, 0.9 * dense.summary.per_sm_rate_mean) << op.name;
    }
  }
}

// Sparse wgmma: every type and N exact for every metadata pattern (ss and one at a time), and at
// N = 256 faster than the dense form, under the sparse peak.
TEST(TensorCore, SparseWgmmaIsExactAndBeatsDense) {
  if (const auto why = wgmma_unsupported()) GTEST_SKIP() << *why;
  for (const WgmmaTypeInfo& t : wgmma_types())
    for (int n : kWgmmaNs)
      for (WgmmaMode mode : {WgmmaMode::ss, WgmmaMode::rs, WgmmaMode::ss_latency})
        EXPECT_NO_THROW(check_wgmma_exact(t.type, n, mode, 1, 2, true))
            << t.name << " n" << n << " " << wgmma_mode_name(mode);
  EXPECT_NO_THROW(check_wgmma_exact(WgmmaType::f16_f32, 256, WgmmaMode::ss, kWgmmaMaxWarpgroupsPerBlock, 3, true));
  const int all = Gpu::current().info().sm_count;
  for (const WgmmaTypeInfo& t : wgmma_types()) {
    // A and B from shared memory: 128 B/clk/SM of it carries N x 64 + 2048 bytes per instruction.
    const TensorThroughput sp =
        measure_wgmma_throughput(t.type, 256, WgmmaShape{WgmmaMode::ss, 2, all, true}, TensorFill::random);
    // A from registers: only B's N x 64 bytes.
    const TensorThroughput rs =
        measure_wgmma_throughput(t.type, 256, WgmmaShape{WgmmaMode::rs, 2, all, true}, TensorFill::random);
    const TensorThroughput dense =
        measure_wgmma_throughput(t.type, 256, WgmmaShape{WgmmaMode::ss, 2, all}, TensorFill::random);
    std::printf(
        "wgmma %-12s n256: sparse ss %6.0f (%.1f %%), rs %6.0f (%.1f %% of the sparse peak), dense %6.0f FLOP/clk/SM\n",
        t.name, sp.summary.per_sm_rate_mean, sp.pct_of_peak, rs.summary.per_sm_rate_mean, rs.pct_of_peak,
        dense.summary.per_sm_rate_mean);
    EXPECT_GT(sp.summary.per_sm_rate_mean, 1.2 * dense.summary.per_sm_rate_mean) << t.name;
    EXPECT_GT(rs.summary.per_sm_rate_mean, 1.2 * dense.summary.per_sm_rate_mean) << t.name;
    if (sp.peak_flop_per_clk_per_sm) {
      EXPECT_LT(sp.pct_of_peak, 102.0) << t.name;
      EXPECT_LT(rs.pct_of_peak, 102.0) << t.name;
    }
  }
}

TEST(TensorCore, WgmmaBeatsMmaSyncAndReachesThePeak) {
  if (const auto why = wgmma_unsupported()) GTEST_SKIP() << *why;
  const int all = Gpu::current().info().sm_count;
  const TensorThroughput w =
      measure_wgmma_throughput(WgmmaType::f16_f32, 256, WgmmaShape{WgmmaMode::ss, 2, all}, TensorFill::random);
  double best_mma = 0;
  for (int warps : {8, 16})
    best_mma = std::max(
        best_mma, measure_mma_throughput(MmaOp::f16_m16n8k16_f32, MmaShape{4, warps, all}, TensorFill::random).flops);
  std::printf("f16: wgmma %.0f TFLOP/s (%.1f %% of peak at %.0f MHz), mma.sync %.0f TFLOP/s\n", w.flops / 1e12,
              w.pct_of_peak, w.summary.sm_clock_mhz, best_mma / 1e12);
  EXPECT_GT(w.flops, 1.2 * best_mma);
  ASSERT_TRUE(w.peak_flop_per_clk_per_sm);
  EXPECT_GT(w.pct_of_peak, 85.0);
  EXPECT_LT(w.pct_of_peak, 102.0);
}

// Small integers are exact in every input type (e5m2 holds 1..4) and their sums in every
// accumulator: a wrong fragment layout or a wrong encoding gives another sum.
TEST(TensorCore, NumericsKernelsComputeExactSmallDotProducts) {
  const auto check = [](const TcNumericsOp& op, const auto& run, const char* family) {
    std::vector<double> a(op.k), b(op.k);
    double exact = 3;
    for (int i = 0; i < op.k; ++i) {
      a[i] = 1 + i % 4;
      b[i] = i % 3 == 0 ? -1 : 2;
      exact += a[i] * b[i];
    }
    EXPECT_EQ(run(op.dtype, a, b, 3.0), exact) << family << " " << op.dtype;
  };
  for (const TcNumericsOp& op : tc_numerics_ops())
    if (Gpu::current().info().cc() >= op.min_cc) check(op, run_mma_numerics, "mma.sync");
  if (wgmma_unsupported()) return;
  for (const TcNumericsOp& op : tc_numerics_wgmma_ops()) check(op, run_wgmma_numerics, "wgmma");
}

// wgmma's numerics repeat, and its fp8 (Hopper's own, unlike mma.sync's) keeps at least f32's bits.
TEST(TensorCore, WgmmaNumericsRepeat) {
  if (const auto why = wgmma_unsupported()) GTEST_SKIP() << *why;
  for (const char* type : {"f16", "e4m3"}) {
    const TcFormat f = tc_format(type, std::string(type) == "f16" ? 16 : 32);
    const auto dot = [&](const DotVector& v) { return run_wgmma_numerics(type, v.a, v.b, v.c); };
    const TcNumerics first = infer_tc_numerics(f, dot), second = infer_tc_numerics(f, dot);
    EXPECT_EQ(first.evidence, second.evidence) << type;
    EXPECT_TRUE(first.products_exact) << type;
    std::printf("wgmma %s:\n", type);
    for (const auto& line : first.evidence) std::printf("  %s\n", line.c_str());
  }
}

TEST(TensorCore, NumericsRepeat) {
  const TcFormat f = tc_format("f16", 16);
  const auto dot = [](const DotVector& v) { return run_mma_numerics("f16", v.a, v.b, v.c); };
  const TcNumerics first = infer_tc_numerics(f, dot), second = infer_tc_numerics(f, dot);
  EXPECT_EQ(first.evidence, second.evidence);
  EXPECT_TRUE(first.products_exact);
  EXPECT_GE(first.alignment_bits, 11);  // at least the f16 significand beside the largest term
  for (const auto& line : first.evidence) std::printf("  %s\n", line.c_str());
}

TEST(TensorCore, CublasReferenceRunsUnderThePeak) {
  if (const auto why = cublas_unsupported(TensorDtype::f16)) GTEST_SKIP() << *why;
  const GpuInfo& g = Gpu::current().info();
  const GemmMeasurement m = measure_cublas_gemm(TensorDtype::f16, GemmShape{4096, 4096, 4096}, TensorFill::random, 2);
  std::printf("cuBLASLt f16 4096^3: %.0f TFLOP/s at %.0f MHz (NVML)\n", m.flops / 1e12, m.sm_clock_mhz);
  EXPECT_GT(m.flops, 0);
  if (const auto peak = tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp16, g.cc())) {
    EXPECT_LT(m.flops, 1.02 * *peak * g.sm_count * g.max_sm_clock_mhz * 1e6);
  }
}

}  // namespace
}  // namespace archbench
