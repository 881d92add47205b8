// TLB on a real GPU: every chase ends where the host says, a curve over managed memory at a 2 MiB
// stride up to 90 % of the free memory shows at least two levels, and a footprint above the
// memory is refused with a reason (the runner stays usable).
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "analysis/tlb.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/tlb_runner.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

constexpr std::size_t kStride = 2u << 20;

TEST(Tlb, AManagedCurveUpToNinetyPercentOfMemoryShowsTwoLevels) {
  TlbRunner& runner = TlbRunner::instance();
  std::size_t free = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
  std::vector<CurvePoint> curve;
  const TlbProbe probe{TlbMapping::managed, CacheOp::cg};
  for (const TlbPoint& p : tlb_sweep(free, tlb_max_elements(probe.op), false, false)) {
    if (p.stride != kStride || p.footprint / p.stride < 32)
      continue;  // as Tlb/geometry: enough lines to average the L2's homes
    const TlbLatency m = runner.measure(probe, p.stride, p.footprint, test_sm());
    curve.push_back({double(p.footprint), m.cycles});
  }
  runner.release();
  ASSERT_GE(curve.size(), 20u);
  EXPECT_GE(curve.back().x, 0.85 * double(free)) << "the sweep stops short of 90 % of the free memory";
  const auto levels = find_levels(curve);
  for (const auto& l : levels)
    std::printf("level: reach %.0f MiB (< %.0f MiB), hit %.1f cycles, miss penalty %.1f cycles, confidence %.2f\n",
                l.reach / 1048576.0, l.next_footprint / 1048576.0, l.hit_cycles, l.miss_penalty_cycles, l.confidence);
  EXPECT_GE(levels.size(), 2u);
  for (const auto& l : levels) EXPECT_GT(l.miss_penalty_cycles, 10.0);
}

TEST(Tlb, AFootprintAboveTheMemoryIsRefusedWithAReason) {
  TlbRunner& runner = TlbRunner::instance();
  // A stride large enough that the chase stays within kTlbMaxElements on any memory size (the
  // element limit must not answer first: on a 141 GB H200, 2 MiB pages of 1 GiB over the memory
  // were 67,000 elements).
  const std::size_t memory = Gpu::current().info().total_mem_bytes + (1ull << 30);
  std::size_t stride = kStride;
  while (memory / stride >= tlb_max_elements(CacheOp::cg) / 2) stride *= 2;
  const std::size_t too_big = (memory + stride - 1) / stride * stride;
  try {
    runner.measure({TlbMapping::contiguous, CacheOp::cg}, stride, too_big, test_sm());
    ADD_FAILURE() << "a footprint above the device memory was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("does not fit"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(runner.measure({TlbMapping::contiguous, CacheOp::cg}, kStride, 64 * kStride, test_sm()));
  EXPECT_NO_THROW(runner.measure({TlbMapping::scattered, CacheOp::ca}, kStride, 64 * kStride, test_sm()));
  runner.release();
}

}  // namespace
}  // namespace archbench
