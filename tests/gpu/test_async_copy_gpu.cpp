// AsyncCopy on a real GPU: every path lands every word where it belongs (and a wrong source is
// caught), stores leave what they stored (and a planted word is found), TMA loads from DRAM reach
// their share of the device's theoretical figure, small copies scale with the warps that issue
// them, and one copy's latency grows with its size and its level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "fixtures/runners/async_copy_runner.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/harness/placement.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

AsyncCopyRunner& runner() {
  static AsyncCopyRunner r;
  return r;
}

bool tma(const GpuInfo& g) { return !async_unsupported(AsyncOp::bulk, g); }

AsyncCase bulk(AsyncLevel level, std::uint32_t stage, int stages, int pipelines, bool dynamic = false) {
  AsyncCase c;
  c.op = AsyncOp::bulk, c.level = level, c.stage_bytes = stage, c.stages = stages, c.warps_per_block = pipelines;
  c.dynamic = dynamic;
  return c;
}

TEST(AsyncCopy, EveryLoadPathLandsEveryWordWhereItBelongs) {
  const GpuInfo& g = Gpu::current().info();
  std::vector<std::pair<std::string, AsyncCase>> cases;
  AsyncCase c;
  c.level = AsyncLevel::l2, c.warps_per_block = 8;
  c.op = AsyncOp::ld_st, c.width = 4, c.unroll = 2, c.stages = 1;
  cases.push_back({"ld_st 4 B x 2", c});
  c.op = AsyncOp::cp_async_ca, c.width = 8, c.stages = 4;
  cases.push_back({"cp.async.ca 8 B, 4 groups", c});
  c.op = AsyncOp::cp_async_cg, c.width = 16, c.stages = 2;
  cases.push_back({"cp.async.cg 16 B, 2 groups", c});
  if (tma(g)) {
    cases.push_back({"bulk 4 KiB x 4, 2 pipelines", bulk(AsyncLevel::l2, 4096, 4, 2)});
    cases.push_back({"bulk 4 KiB x 4, 2 pipelines, dynamic", bulk(AsyncLevel::l2, 4096, 4, 2, true)});
    for (auto [dims, swizzle] : std::vector<std::pair<std::vector<std::uint32_t>, int>>{{{256}, 0},
                                                                                        {{64, 64}, 0},
                                                                                        {{64, 8, 8}, 0},
                                                                                        {{64, 4, 4, 2, 2}, 0},
                                                                                        {{8, 256}, 32},
                                                                                        {{16, 128}, 64},
                                                                                        {{32, 64}, 128}}) {
      AsyncCase t;
      t.op = AsyncOp::tensor, t.level = AsyncLevel::l2, t.stages = 2, t.warps_per_block = 2;
      t.box = tensor_box(dims, swizzle);
      cases.push_back({"tensor " + t.box.name(), t});
    }
    if (!async_unsupported(AsyncOp::bulk_multicast, g))
      for (int cluster : {2, 4}) {
        AsyncCase m = bulk(AsyncLevel::l2, 16384, 2, 2);
        m.op = AsyncOp::bulk_multicast, m.cluster = cluster;
        cases.push_back({"multicast to " + std::to_string(cluster), m});
      }
  }
  for (const auto& [name, k] : cases) {
    // calibrate() runs the verify launch: every landed word against the source pattern.
    EXPECT_NO_THROW(runner().calibrate(k)) << name;
    std::printf("%-40s every word checked\n", name.c_str());
  }
  // One swizzled box at a time (the latency kernel checks each copy's words after it lands).
  if (tma(g))
    for (int swizzle : {32, 64, 128}) {
      const TensorBox box = tensor_box({std::uint32_t(swizzle / 4), std::uint32_t(2048 * 4 / swizzle)}, swizzle);
      EXPECT_NO_THROW(runner().latency(AsyncOp::tensor, AsyncLevel::l2, box.words() * 4, 8, test_sm(), box)) << box.name();
    }
}

// The check can fail: a source that does not hold the pattern is reported word for word.
TEST(AsyncCopy, AWrongSourceIsCaughtWordForWord) {
  const GpuInfo& g = Gpu::current().info();
  const std::size_t bytes = std::size_t(g.sm_count) * 4 * 4096;
  DeviceBuffer<std::uint8_t> zeros(bytes);
  ARCHBENCH_CUDA(cudaMemset(zeros.get(), 0, bytes));
  DeviceBuffer<std::uint32_t> bad(1);
  std::uint64_t nonzero = 0;  // words whose pattern is not 0
  for (std::uint64_t w = 0; w < bytes / 4; ++w) nonzero += async_pattern(w) != 0;
  for (AsyncOp op : {AsyncOp::cp_async_cg, AsyncOp::bulk}) {
    if (async_unsupported(op, g)) continue;
    ARCHBENCH_CUDA(cudaMemset(bad.get(), 0, 4));
    AsyncLaunch l;
    l.op = op;
    l.src = zeros.get();
    l.footprint_bytes = bytes;
    l.blocks = g.sm_count;
    l.threads_per_block = op == AsyncOp::bulk ? 32 : 256;
    l.stage_bytes = op == AsyncOp::bulk ? 4096 : 256 * 16;
    l.stages = 2;
    l.verify = true;
    l.mismatches = bad.get();
    run_async_copy(l);
    EXPECT_EQ(bad.download()[0], nonzero) << async_op_info(op).name;
  }
}

TEST(AsyncCopy, StoresLeaveWhatTheyStoredAndAPlantedWordIsFound) {
  const GpuInfo& g = Gpu::current().info();
  std::vector<AsyncCase> cases;
  AsyncCase c;
  c.level = AsyncLevel::l2, c.op = AsyncOp::st_global, c.warps_per_block = 32, c.stage_bytes = 16384, c.stages = 1;
  cases.push_back(c);
  if (tma(g)) {
    c.warps_per_block = 1, c.stages = 2;
    for (AsyncOp op : {AsyncOp::bulk_store, AsyncOp::bulk_reduce_add}) {
      c.op = op;
      cases.push_back(c);
    }
    c.op = AsyncOp::tensor_store, c.box = tensor_box({64, 8, 8});
    cases.push_back(c);
  }
  for (const AsyncCase& k : cases)  // measure() checks the whole destination after the launch
    EXPECT_NO_THROW(runner().measure(k, 3)) << async_op_info(k.op).name;
  if (!tma(g)) return;
  // Planted: one word changed after a bulk store is the one the check reports.
  const std::size_t bytes = std::size_t(g.sm_count) * 2 * 4096;
  DeviceBuffer<std::uint8_t> dst(bytes);
  AsyncLaunch l;
  l.op = AsyncOp::bulk_store;
  l.src = dst.get();
  l.footprint_bytes = bytes;
  l.blocks = g.sm_count;
  l.threads_per_block = 32;
  l.stage_bytes = 4096;
  l.stages = 2;
  run_async_copy(l);
  EXPECT_EQ(count_store_mismatches(l), 0u);
  ARCHBENCH_CUDA(cudaMemset(dst.get() + bytes / 2 + 12, 0xee, 4));
  EXPECT_EQ(count_store_mismatches(l), 1u);
}

// The same floor as the Bandwidth feature's DRAM read test: the TMA moves DRAM's bytes as well as
// the best plain loads (an H100 reaches 96 %, an H200 95 %).
TEST(AsyncCopy, TmaDramLoadsReachTheirShareOfTheDevicesTheoreticalFigure) {
  const GpuInfo& g = Gpu::current().info();
  if (!tma(g)) GTEST_SKIP() << *async_unsupported(AsyncOp::bulk, g);
  double best = 0;
  for (const AsyncCase& c : {bulk(AsyncLevel::dram, 16384, 8, 1, true), bulk(AsyncLevel::dram, 32768, 2, 1, true),
                             bulk(AsyncLevel::dram, 16384, 2, 2, true)}) {
    const AsyncMeasurement m = runner().measure(c, runner().calibrate(c));
    std::printf("bulk %6u B x %d, %d pipeline(s), dynamic: %.3f TB/s, %.1f %% of %.0f GB/s\n", c.stage_bytes, c.stages,
                c.warps_per_block, m.global_bytes_per_second / 1e12, m.pct_of_dram_peak, g.dram_peak_bytes_per_s / 1e9);
    best = std::max(best, m.pct_of_dram_peak);
  }
  EXPECT_GE(best, 92.0);
  EXPECT_LE(best, 100.5) << "above the theoretical figure: bytes counted that were not read";
}

// One issuing thread that also waits sustains one copy per few hundred cycles: 1 KiB copies
// scale with the warps that issue them, not with the stages each keeps in flight.
TEST(AsyncCopy, SmallCopiesScaleWithIssuingWarpsNotStages) {
  const GpuInfo& g = Gpu::current().info();
  if (!tma(g)) GTEST_SKIP() << *async_unsupported(AsyncOp::bulk, g);
  auto rate = [&](int stages, int pipelines) {
    const AsyncCase c = bulk(AsyncLevel::l2, 1024, stages, pipelines);
    const double r = runner().measure(c, runner().calibrate(c)).bytes_per_clk_per_sm;
    std::printf("bulk 1 KiB, %d stages x %d pipelines: %.2f B/clk/SM\n", stages, pipelines, r);
    return r;
  };
  const double one = rate(2, 1), deep = rate(8, 1), wide = rate(2, 8);
  EXPECT_GE(wide, 3.0 * one);
  EXPECT_LE(deep, 1.5 * one) << "stages beyond two should not help one issuing thread";
}

TEST(AsyncCopy, OneCopysLatencyGrowsWithItsSizeAndItsLevel) {
  const GpuInfo& g = Gpu::current().info();
  auto median_of = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  for (AsyncOp op : {AsyncOp::ld_st, AsyncOp::cp_async_cg, AsyncOp::bulk, AsyncOp::tensor}) {
    if (async_unsupported(op, g)) continue;
    const double small_l2 = median_of(runner().latency(op, AsyncLevel::l2, 256, 32, test_sm()).cycles);
    const double small_dram = median_of(runner().latency(op, AsyncLevel::dram, 256, 32, test_sm()).cycles);
    const double large_l2 = median_of(runner().latency(op, AsyncLevel::l2, 65536, 32, test_sm()).cycles);
    std::printf("%-12s 256 B: L2 %5.0f, DRAM %5.0f cycles; 64 KiB from L2: %6.0f cycles\n", async_op_info(op).name,
                small_l2, small_dram, large_l2);
    EXPECT_GT(small_dram, small_l2 + 100) << async_op_info(op).name;
    // 64 KiB cannot land faster than an SM's shared memory takes it (128 B per clock).
    EXPECT_GE(large_l2 - small_l2, 65536.0 / 128) << async_op_info(op).name;
  }
}

TEST(AsyncCopy, CopiesFromTheL2SitAtTheGpusMedianDistance) {
  // AsyncCopy method version 4: the copies sit where the mean of their slowest lines' L2 latency
  // is what the median SM's typically is (docs/asynccopy.md): copies of one line (16 B) at the
  // median SM's L2 latency, copies of two lines (256 B) at least there; the source's pattern
  // survives the map (every copy is checked word by word), and unplaced calls and larger copies stay
  // unplaced.
  const GpuInfo& g = Gpu::current().info();
  const double median_sm = choose_reference_sm().median_cycles;
  for (AsyncOp op : {AsyncOp::ld_st, AsyncOp::bulk, AsyncOp::tensor})
    for (std::uint32_t bytes : {16u, kAsyncPlacedCopyMaxBytes}) {
      if (async_unsupported(op, g)) continue;
      EXPECT_NO_THROW(runner().latency(op, AsyncLevel::l2, bytes, 32, test_sm(), std::nullopt, 0, median_sm));
      const AsyncCopyRunner::Placed at = runner().placed();
      std::printf("%-12s %5u B: slowest lines at %.2f cycles, target %.2f, the median SM's %.2f (shift %.2f, offset %zu B)\n",
                  async_op_info(op).name, bytes, at.copies_cycles, at.target_cycles, median_sm, at.sm_shift_cycles,
                  at.offset_bytes);
      EXPECT_TRUE(at.placed);
      EXPECT_NEAR(at.copies_cycles, at.target_cycles, 0.005 * median_sm) << async_op_info(op).name << " " << bytes;
      if (bytes == 16) {
        EXPECT_NEAR(at.target_cycles, median_sm, 0.01 * median_sm) << async_op_info(op).name;
      }
      EXPECT_GT(at.target_cycles, 0.99 * median_sm) << async_op_info(op).name << " " << bytes;
      EXPECT_LT(at.offset_bytes, std::size_t(128) << 10);
    }
  runner().latency(AsyncOp::bulk, AsyncLevel::l2, 16, 32, test_sm());
  EXPECT_FALSE(runner().placed().placed);
  runner().latency(AsyncOp::bulk, AsyncLevel::l2, 4 * kAsyncPlacedCopyMaxBytes, 32, test_sm(), std::nullopt, 0, median_sm);
  EXPECT_FALSE(runner().placed().placed) << "copies beyond kAsyncPlacedCopyMaxBytes are not placed";
}

}  // namespace
}  // namespace archbench
