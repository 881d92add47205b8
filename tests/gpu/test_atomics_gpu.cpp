// Atomics on a real GPU: every op's final values check out under full and no contention, in
// both spaces, and contention slows global atomics down.
#include <gtest/gtest.h>

#include <cstdio>

#include "kernels/shared/atomics_check.hpp"
#include "fixtures/runners/atomics_runner.hpp"
#include "fixtures/harness/gpu.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

AtomicMeasurement run(AtomOp op, AtomSpace space, AtomForm form, Contention c, std::uint32_t iters = 0) {
  const GpuInfo& g = Gpu::current().info();
  AtomicLaunch l;
  l.op = op;
  l.space = space;
  l.form = form;
  l.contention = c;
  l.blocks = g.sm_count;
  l.threads_per_block = 256;
  l.iters = iters ? iters : calibrate_atomics(l, g.sm_count);
  return measure_atomics(l, g.sm_count);
}

TEST(Atomics, EveryOpLosesNoUpdate) {
  const int cc = Gpu::current().info().cc();
  for (const AtomOpInfo& info : atom_ops()) {
    if (cc < info.min_cc) continue;
    for (AtomSpace space : {AtomSpace::global, AtomSpace::shared})
      for (Contention c : {Contention::all, Contention::warp, Contention::distinct}) {
        const std::uint32_t iters = std::min<std::uint32_t>(16, atomic_iteration_limit(info.op, 1u << 20));
        EXPECT_NO_THROW(run(info.op, space, AtomForm::atom, c, iters))
            << info.name << " " << atom_space_name(space) << " " << contention_name(c);
        if (info.has_red) {
          EXPECT_NO_THROW(run(info.op, space, AtomForm::red, c, iters)) << info.name;
        }
      }
  }
}

TEST(Atomics, ContentionOnOneAddressIsSlowerThanDistinctAddresses) {
  const AtomicMeasurement all = run(AtomOp::add_u32, AtomSpace::global, AtomForm::atom, Contention::all);
  const AtomicMeasurement distinct = run(AtomOp::add_u32, AtomSpace::global, AtomForm::atom, Contention::distinct);
  std::printf("global atom.add.u32: one address %.3g/s, distinct %.3g/s\n", all.atomics_per_second,
              distinct.atomics_per_second);
  EXPECT_GT(distinct.atomics_per_second, 2 * all.atomics_per_second);
}

TEST(Atomics, FarL2PartitionAtomicsAreSlowerAndChecked) {
  const L2Homes& h = l2_homes();
  std::printf(
      "L2 home probe: %d SMs, near %.0f cycles, far %.0f cycles, %.0f %% near, confidence %.3f, "
      "robust separation min %.2f median %.2f\n",
      h.sms_probed, h.near_cycles, h.far_cycles, 100 * h.near_fraction, h.min_split_confidence, h.min_robust_separation,
      h.median_robust_separation);
  EXPECT_EQ(h.sms_probed, Gpu::current().info().sm_count);
  // Skip on the medians, not on the worst SM's split confidence (one SM's probe can be noisy).
  if (h.far_cycles < 1.1 * h.near_cycles) GTEST_SKIP() << "one L2 partition on this GPU (no near/far split)";
  // Every SM's split (two probe passes, each line's faster reading: queued chains no longer
  // widen the groups; with one pass the worst SM read 0 on an H100 and an H200).
  EXPECT_GE(h.min_split_confidence, 0.9);
  EXPECT_GE(h.min_robust_separation, 4.0);
  EXPECT_GT(h.far_cycles, 1.2 * h.near_cycles);
  EXPECT_NEAR(h.near_fraction, 0.5, 0.15) << "the lines' homes split between the partitions";
  const AtomicMeasurement near = run(AtomOp::add_u32, AtomSpace::global, AtomForm::atom, Contention::near_l2, 64);
  const AtomicMeasurement far = run(AtomOp::add_u32, AtomSpace::global, AtomForm::atom, Contention::far_l2, 64);
  std::printf("atom.add.u32 near %.3g/s, far %.3g/s\n", near.atomics_per_second, far.atomics_per_second);
}

TEST(Atomics, LatencyIsPlausible) {
  const AtomicLatency g = atomic_latency(AtomOp::add_u32, AtomSpace::global, test_sm());
  const AtomicLatency s = atomic_latency(AtomOp::add_u32, AtomSpace::shared, test_sm());
  std::printf("atom.add.u32 latency: global %.1f cycles, shared %.1f cycles\n", g.cycles, s.cycles);
  EXPECT_GT(g.cycles, s.cycles);
  EXPECT_GT(s.cycles, 4.0);
}

}  // namespace
}  // namespace archbench
