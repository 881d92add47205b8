// Geometry on a real GPU: the discrete values (L1 fill 32 B, L2 fill from DRAM 64 B, L1 line
// 128 B) on sm_90; the L1 shrinks as the shared-memory carveout grows; the L2's partitions each
// keep 0.95-1.01 of half what the API reports, confidently; the offset chase self-checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "fixtures/runners/geometry_runner.hpp"
#include "fixtures/harness/gpu.hpp"
#include "kernels/shared/self_check.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

bool is_sm90() { return Gpu::current().info().cc() == 90; }

TEST(Geometry, FillGranularities) {
  std::vector<std::pair<double, double>> curve;
  double near = 0, far = 0;
  const FetchFit ca = measure_fill(test_sm(), CacheOp::ca, &curve, &near, &far);
  const FetchFit cg = measure_fill(test_sm(), CacheOp::cg, &curve, &near, &far);
  std::printf("L1 fill %d B, L2 fill %d B (ld.ca; confidence %.2f), L2 fill %d B (ld.cg; %.2f)\n", ca.inner_bytes,
              ca.outer_bytes, ca.confidence, cg.outer_bytes, cg.confidence);
  EXPECT_GT(ca.confidence, 0.5);
  EXPECT_EQ(ca.outer_bytes, cg.outer_bytes);  // both see the L2's fill from DRAM
  if (is_sm90()) {                            // reference values (DESIGN.md): 32 B sectors; the H100's DRAM fills 64 B
    EXPECT_EQ(ca.inner_bytes, 32);
    EXPECT_EQ(ca.outer_bytes, 64);
  }
}

TEST(Geometry, L1ShrinksWithTheCarveoutAndHasItsLine) {
  const MeasuredCapacity all = measure_l1_capacity(test_sm(), 0),
                         most_smem = measure_l1_capacity(test_sm(), 100);
  std::printf("L1 %zu B at carveout 0 %% (onset %zu, W %d), %zu B at 100 %% (onset %zu)\n", all.r.capacity, all.r.onset,
              all.r.ways_fit, most_smem.r.capacity, most_smem.r.onset);
  ASSERT_GT(all.r.capacity, 0u);
  EXPECT_GT(all.r.capacity, most_smem.r.capacity + Gpu::current().info().smem_per_sm_bytes / 2);
  EXPECT_GT(all.r.miss_cycles, 2 * all.r.hit_cycles);
  const ReplacementEvidence rep =
      measure_replacement(GeometryRunner::get().stride_latency(test_sm(), CacheOp::ca, kGeometryLine, 0, 2.0), all.r,
                          kGeometryLine, 4 * Gpu::current().info().smem_per_sm_bytes);
  std::printf("L1 replacement %s (%.2f of the loads miss at 1.5x the capacity)\n", rep.policy.c_str(),
              rep.miss_fraction_at_1_5x);
  EXPECT_NE(rep.policy, "undetermined");
  std::size_t base = 0;
  std::vector<std::pair<std::size_t, std::size_t>> apparent;
  const LineFit line = measure_l1_line(test_sm(), &base, &apparent);
  std::printf("L1 line %d B (confidence %.2f)\n", line.line_bytes, line.confidence);
  if (is_sm90()) {
    EXPECT_EQ(line.line_bytes, 128);
    // 256 KiB of L1 and shared memory (DESIGN.md): the L1 at carveout 0 within 256 KiB, and more
    // than 256 KiB minus the largest shared memory at carveout 100.
    EXPECT_LE(all.r.capacity, 256u * 1024 + 4096);
    EXPECT_GE(all.r.capacity, 200u * 1024);
    EXPECT_NEAR(double(most_smem.r.capacity), 28.0 * 1024, 4.0 * 1024);
  }
}

// The L2 that holds data: the API's, less the slices of the memory's disabled channels where the
// counters can tell (measure_unit_census); else the API's, which may count such slices.
struct L2Reference {
  double bytes = 0;
  double floor = 0;  // the least share of it a capacity may read
};
L2Reference l2_reference() {
  const double api = double(Gpu::current().info().l2_bytes);
  std::string why;
  if (const auto c = measure_unit_census(&why)) {
    std::printf(
        "census: %d L2 slices, %d DRAM channel units carrying %.1f channels' traffic: %.2f MiB of the API's %.2f hold data\n",
        c->l2_slices, c->dram_channels, c->dram_full_channels, api * c->dram_enabled_share() / 1048576, api / 1048576);
    // Within 3 % (the bound), and the zigzag never reads more than it holds (+1 %).
    return {api * c->dram_enabled_share(), 0.97};
  }
  // Without the census, an H200's L2 reads 0.965-0.973 of the API's (two of its 96 slices hold
  // nothing): at least 0.95.
  std::printf("no census of the L2 slices (%s): against the API's L2\n", why.c_str());
  return {api, 0.95};
}

TEST(Geometry, L2CapacityMatchesTheApiPartitionByPartition) {
  const L2Reference ref = l2_reference();
  const double api = ref.bytes;
  const L2Partitions p = measure_l2_partitions();
  if (p.sides.size() != 2) {
    std::printf("one L2 partition (%s): a search over every line\n", p.why_not.c_str());
    EXPECT_FALSE(is_sm90()) << "Hopper's L2 has two partitions (DESIGN.md)";
    const L2Levels l = measure_l2_levels(test_sm());
    ASSERT_FALSE(l.levels.empty());
    EXPECT_NEAR(double(l.levels.back().capacity) / api, 1.0, 0.03);
    return;
  }
  std::printf(
      "L2 %.2f MiB (reference %.2f MiB, %.3fx), confidence %.3f; line map: %.3f of the lines on side 0, separation %.1f\n",
      double(p.capacity()) / 1048576, api / 1048576, double(p.capacity()) / api, p.confidence(), p.homed_fraction,
      p.probe_separation);
  for (const L2Partition& s : p.sides) {
    std::printf(
        "  partition of SM %d: %.2f MiB (%.3fx half the API's; +- %.3f), confidence %.3f; the transition fit's "
        "%.3fx (misses from %.3fx, W %d, %.3f); hit %.1f, DRAM %.1f cycles; %s\n",
        s.sm, double(s.capacity) / 1048576, 2 * double(s.capacity) / api, 2 * s.zigzag.sd_lines * 128 / api,
        s.confidence, 2 * double(s.fit.capacity) / api, 2 * double(s.fit.onset) / api, s.fit.ways_fit, s.fit.confidence,
        s.fit.hit_cycles, s.zigzag.miss_cycles, s.replacement.policy.c_str());
    // Each partition is half the L2. The zigzag counts the lines a pass keeps: never more than
    // the partition holds (+1 % for noise), and 0.980-0.992 of half the L2 on eight H100 boards,
    // 0.981-0.994 of half the slices that hold data on six H200 boards.
    EXPECT_LE(2 * double(s.capacity) / api, 1.01);
    EXPECT_GE(2 * double(s.capacity) / api, ref.floor);
    EXPECT_GT(s.zigzag.miss_cycles, 1.3 * s.fit.hit_cycles);
    EXPECT_EQ(s.replacement.policy, "LRU-like");
  }
  EXPECT_NE(p.sides[0].sm, p.sides[1].sm);
  EXPECT_LE(double(p.capacity()) / api, 1.01);
  EXPECT_GE(double(p.capacity()) / api, ref.floor);
  EXPECT_GE(p.confidence(), 0.9);
}

// The census counts what the API's L2 is made of: on Hopper 640 KiB slices, two per 128-bit
// channel (an H100's 50 MiB is 80 of them on 40 channels; an H200's 60 MiB is 96, of which the 94
// of its 47 enabled channels carry traffic), and the bus is the enabled channels' width.
TEST(Geometry, L2SliceCensusAddsUpToTheApiL2) {
  std::string why;
  const auto c = measure_unit_census(&why);
  if (!c) GTEST_SKIP() << "no census of the L2 slices: " << why;
  const GpuInfo& g = Gpu::current().info();
  const double per_slice = double(g.l2_bytes) * c->dram_enabled_share() / c->l2_slices;
  std::printf(
      "%d L2 slices, %d DRAM channel units carrying %.1f full channels (bus %d bits): %.1f KiB of the API's L2 per slice\n",
      c->l2_slices, c->dram_channels, c->dram_full_channels, g.bus_width_bits, per_slice / 1024);
  EXPECT_GT(c->l2_slices, 0);
  EXPECT_GT(c->dram_enabled_share(), 0.5);
  EXPECT_LE(c->dram_enabled_share(), 1.0);
  // The bus is the enabled channels' width: every channel unit the same width.
  const double unit_bits = double(g.bus_width_bits) / c->dram_full_channels;
  EXPECT_NEAR(unit_bits, std::round(unit_bits), 1e-9) << "a channel unit of a whole number of bits";
  if (is_sm90()) {
    EXPECT_NEAR(per_slice, 640.0 * 1024, 0.01 * 640 * 1024);
    EXPECT_DOUBLE_EQ(c->l2_slices, 2 * c->dram_full_channels) << "two slices per enabled channel";
  }
}

TEST(Geometry, ReadOnlyPathAndConstantCaches) {
  const MeasuredCapacity l1 = measure_l1_capacity(test_sm(), 0);
  const ReadOnlyShare s = measure_readonly_sharing(test_sm(), l1.r.capacity);
  std::printf("ld.ca + ld.nc at 30 %%: %.1f cycles per pair, at 60 %%: %.1f (shared: %d)\n", s.alone_cycles,
              s.together_cycles, int(s.shares_storage));
  if (Gpu::current().info().cc() >= 70) {  // L1 and texture are one store since Volta (reference)
    EXPECT_TRUE(s.shares_storage);
  }
  const auto levels = measure_const_levels(64);
  ASSERT_FALSE(levels.empty());
  std::printf("constant cache: %zu B, %.0f -> %.0f cycles\n", levels[0].capacity, levels[0].hit_cycles,
              levels[0].miss_cycles);
  EXPECT_GT(levels[0].miss_cycles, levels[0].hit_cycles + 10);
  EXPECT_LT(levels[0].capacity, kConstBankBytes);
}

TEST(Geometry, AnOffsetChaseThatEndsElsewhereFailsItsCheck) {
  GeometryRunner& r = GeometryRunner::get();
  const auto offsets = spaced_offsets(64, 256);
  EXPECT_GT(r.average(test_sm(), CacheOp::ca, offsets, 0, 4096), 0);
  // Element 5 now skips to element 10: the chase no longer ends where the host walk says.
  const auto wrong = reinterpret_cast<std::uint64_t>(r.data() + offsets[10]);
  ASSERT_EQ(cudaMemcpy(r.data() + offsets[5], &wrong, 8, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_THROW(r.average(test_sm(), CacheOp::ca, offsets, 0, 4096), SelfCheckError);
  r.forget_written();  // rewritten on the next use
  EXPECT_GT(r.average(test_sm(), CacheOp::ca, offsets, 0, 4096), 0);
}

}  // namespace
}  // namespace archbench
