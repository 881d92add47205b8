// Shared memory on a real GPU: the bank geometry is inferred (32 banks of 4 B on every
// architecture since Maxwell), an n-way conflict costs n times, a broadcast costs nothing, and
// (sm_90+) a remote block's shared memory is slower than the block's own.
#include <gtest/gtest.h>

#include <cstdio>

#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/smem_runner.hpp"

namespace archbench {
namespace {

constexpr int kLanes = 32, kWarps = 32;

double cycles(const SmemPattern& p) {
  const BankThroughput t = measure_bank_throughput(p, kWarps, calibrate_bank_throughput_iterations(p, kWarps));
  std::printf("width %2d %-28s %6.2f cycles per access, %6.1f B/clk/SM\n", p.access_bytes, p.name.c_str(),
              t.cycles_per_access, t.bytes_per_clk_per_sm);
  return t.cycles_per_access;
}

TEST(SmemBanks, InfersThirtyTwoBanksOfFourBytes) {
  const BankGeometryResult& g = bank_geometry();
  const BankInference& r = g.inference;
  std::printf(
      "inferred %d banks x %d B (confidence %.3f, %.2f cycles per wavefront, rms %.3f; runner-up %d x %d B, rms %.3f)\n",
      r.geometry.banks, r.geometry.bank_bytes, r.confidence, r.cycles_per_wavefront, r.rms_log_error, r.runner_up.banks,
      r.runner_up.bank_bytes, r.runner_up_rms_log_error);
  if (Gpu::current().info().cc() >= 50) {  // reference values, not used by the inference
    EXPECT_EQ(r.geometry.banks, 32);
    EXPECT_EQ(r.geometry.bank_bytes, 4);
  }
  EXPECT_GT(r.confidence, 0.8);
}

TEST(SmemBanks, AnNWayConflictCostsNTimes) {
  // Ratios between neighbouring powers of two, so that a floor on the cheapest accesses (issue
  // rate) does not matter: from 4 ways up, each doubling doubles the cost.
  double previous = cycles(stride_pattern(4, 4, kLanes));
  for (int stride : {8, 16, 32}) {
    const double c = cycles(stride_pattern(4, stride, kLanes));
    EXPECT_NEAR(c / previous, 2.0, 0.25) << "stride " << stride;
    previous = c;
  }
  const double odd = cycles(stride_pattern(4, 3, kLanes)), one = cycles(stride_pattern(4, 1, kLanes));
  EXPECT_NEAR(odd / one, 1.0, 0.1) << "an odd stride is conflict-free";
}

TEST(SmemBanks, BroadcastAndMulticastWithinARowAreFree) {
  const double one = cycles(stride_pattern(4, 1, kLanes));
  EXPECT_NEAR(cycles(broadcast_pattern(4, kLanes)) / one, 1.0, 0.1);
  EXPECT_NEAR(cycles(multicast_pattern(4, 4, 1, kLanes)) / one, 1.0, 0.1);
  // Eight groups on eight rows of one bank: as costly as an 8-way conflict.
  EXPECT_NEAR(cycles(multicast_pattern(4, 4, 32, kLanes)) / cycles(stride_pattern(4, 8, kLanes)), 1.0, 0.15);
}

TEST(SmemBanks, ConflictsLengthenTheChainAndEveryChainReturns) {
  const SmemPattern free = stride_pattern(4, 1, kLanes), worst = stride_pattern(4, 32, kLanes);
  const BankLatency a = measure_bank_latency(free, calibrate_bank_latency_steps(free));
  const BankLatency b = measure_bank_latency(worst, calibrate_bank_latency_steps(worst));
  std::printf("latency: stride 1 %.2f cycles, stride 32 %.2f cycles\n", a.cycles_per_access, b.cycles_per_access);
  EXPECT_GT(a.cycles_per_access, 10.0);
  EXPECT_LT(a.cycles_per_access, 100.0);
  EXPECT_GT(b.cycles_per_access, a.cycles_per_access + 20.0);
  for (int width : {8, 16}) {
    const SmemPattern p = stride_pattern(width, 1, kLanes);
    EXPECT_NO_THROW(measure_bank_latency(p, calibrate_bank_latency_steps(p))) << "width " << width;
  }
}

TEST(Dsm, RemoteSharedMemoryIsSlowerThanLocal) {
  if (const auto why = dsm_unsupported(2)) GTEST_SKIP() << *why;
  for (int size : {2, 4}) {
    const DsmLatency m = measure_dsm_latency(size);
    std::printf("cluster %d: ld.shared %.1f cycles, own rank via the window %.1f, ranks:", size, m.lds_cycles,
                m.cycles_per_rank.front());
    for (double c : m.cycles_per_rank) std::printf(" %.1f", c);
    std::printf("\n");
    for (std::size_t r = 1; r < m.cycles_per_rank.size(); ++r) EXPECT_GT(m.cycles_per_rank[r], 2.0 * m.lds_cycles);
  }
}

TEST(Dsm, EveryPatternReadsAndSelfChecks) {
  if (const auto why = dsm_unsupported(2)) GTEST_SKIP() << *why;
  for (DsmPattern p : kDsmPatterns)
    for (DsmLoad load : kDsmLoads) {
      const DsmBandwidth m = measure_dsm_bandwidth(p, load, 2, calibrate_dsm_bandwidth_iterations(p, load, 2));
      std::printf("cluster 2 %-10s %-11s %6.1f B/clk/SM, %7.1f GB/s over %d clusters\n", dsm_pattern_name(p),
                  dsm_load_name(load), m.bytes_per_clk_per_sm, m.bytes_per_second / 1e9, m.clusters);
      EXPECT_GT(m.bytes_per_clk_per_sm, 1.0);
      EXPECT_LE(m.bytes_per_clk_per_sm, 128.5) << "above the shared-memory port of an SM";
    }
}

}  // namespace
}  // namespace archbench
