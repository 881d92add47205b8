// --counters on a real GPU: the GPU's own counters (CUPTI's range profiler) agree with what the
// benchmarks assume. Bandwidth: the level that served the bytes is the one the footprint targets,
// and DRAM bytes are within 2 % of the bytes the kernel moves. MemLatency: one load request per
// step, at the level the footprint targets. SmemBanks: the bank model's wavefronts are the
// counter's. Atomics: the far-homed lines' atomics cross between the L2 partitions, the near ones
// do not. Pipeline: one warp instruction per step of an op that is one SASS instruction, on its
// pipe. TensorCore: one tensor-pipe instruction per mma.sync. L2Persist: by the DRAM bytes of its
// probe, the set-aside keeps what the driver granted. Skipped with the reason where profiling is
// not allowed.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "kernels/shared/atomics_check.hpp"
#include "fixtures/runners/atomics_runner.hpp"
#include "fixtures/runners/bandwidth_runner.hpp"
#include "fixtures/runners/chase_runner.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/runners/l2persist_runner.hpp"
#include "fixtures/runners/pipeline_runner.hpp"
#include "kernels/pipeline.hpp"
#include "fixtures/runners/smem_runner.hpp"
#include "fixtures/runners/tensor_runner.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

#define SKIP_WITHOUT_COUNTERS()                                                           \
  do {                                                                                    \
    if (const auto why = hw_counters_unavailable()) GTEST_SKIP() << "counters: " << *why; \
  } while (0)

struct BwCounters {
  HwValues hw;
  double kernel_bytes = 0;
  MemLevel by_footprint = MemLevel::l2;
};

BwCounters bandwidth(BwVariant v, std::size_t footprint) {
  static BandwidthRunner runner;
  const BwShape shape = runner.default_shape();
  const std::uint32_t passes = runner.calibrate(v, 16, footprint, shape);
  BwCounters c;
  const BwMeasurement m = runner.measure(v, 16, footprint, shape, passes);
  c.kernel_bytes = m.bytes;
  c.by_footprint = m.level;
  c.hw = profile_hw(kHwMemory, {nullptr, [&] { runner.measure(v, 16, footprint, shape, passes); }});
  for (const auto& [k, x] : hw_derived(c.hw)) c.hw[k] = x;
  std::printf(
      "%-14s %11zu B: kernel %.4g B, DRAM read %.4g B, write %.4g B; served L1 %.1f %%, L2 %.1f %%, DRAM %.1f %%\n",
      v.name().c_str(), footprint, c.kernel_bytes, c.hw["hw_dram_read_bytes"], c.hw["hw_dram_write_bytes"],
      c.hw["hw_served_l1_pct"], c.hw["hw_served_l2_pct"], c.hw["hw_served_dram_pct"]);
  return c;
}

TEST(Counters, BandwidthDramBytesAreTheKernelsBytes) {
  SKIP_WITHOUT_COUNTERS();
  const std::size_t f = 8 * Gpu::current().info().l2_bytes;
  const BwCounters read = bandwidth({BwKind::read, BwLoad::cg, BwStore::none}, f);
  EXPECT_EQ(read.hw.at("hw_level"), mem_level_value(MemLevel::dram));
  EXPECT_NEAR(read.hw.at("hw_dram_read_bytes") / read.kernel_bytes, 1.0, 0.02);
  const BwCounters write = bandwidth({BwKind::write, BwLoad::none, BwStore::def}, f);
  EXPECT_EQ(write.hw.at("hw_level"), mem_level_value(MemLevel::dram));
  EXPECT_NEAR(write.hw.at("hw_dram_write_bytes") / write.kernel_bytes, 1.0, 0.02);
}

TEST(Counters, BandwidthLevelIsTheFootprintsAtL1AndL2) {
  SKIP_WITHOUT_COUNTERS();
  const GpuInfo& g = Gpu::current().info();
  const BwCounters l1 =
      bandwidth({BwKind::read, BwLoad::ca, BwStore::none}, g.smem_per_sm_bytes / 2 * g.sm_count / 4096 * 4096);
  ASSERT_EQ(l1.by_footprint, MemLevel::l1);
  EXPECT_EQ(l1.hw.at("hw_level"), mem_level_value(MemLevel::l1));
  const BwCounters l2 = bandwidth({BwKind::read, BwLoad::cg, BwStore::none}, g.l2_bytes * 7 / 16 / 4096 * 4096);
  ASSERT_EQ(l2.by_footprint, MemLevel::l2);
  EXPECT_EQ(l2.hw.at("hw_level"), mem_level_value(MemLevel::l2));
  EXPECT_LT(l2.hw.at("hw_dram_read_bytes"), 0.02 * l2.kernel_bytes);
}

TEST(Counters, ChaseStepsAreOneRequestEachAtTheirLevel) {
  SKIP_WITHOUT_COUNTERS();
  const std::size_t l2 = Gpu::current().info().l2_bytes;
  static ChaseRunner runner(l2);
  struct Case {
    CacheOp op;
    std::size_t footprint;
    MemLevel level;
  };
  for (const Case& c : {Case{CacheOp::ca, 16u << 10, MemLevel::l1}, Case{CacheOp::cg, 4u << 20, MemLevel::l2},
                        Case{CacheOp::cg, 4 * l2, MemLevel::dram}}) {
    runner.prepare(ChaseSpec{c.op, c.footprint, 128}, ChaseForm::chain, test_sm());
    runner.chain_once();
    HwValues hw = profile_hw(kHwMemory, runner.counter_replay(true), runner.counter_replay(false));
    for (const auto& [k, x] : hw_derived(hw)) hw[k] = x;
    std::printf("chain %s %10zu B: %.0f requests, served L1 %.1f %%, L2 %.1f %%, DRAM %.1f %% (%.1f DRAM B/step)\n",
                cache_op_name(c.op), c.footprint, hw["hw_l1_global_load_requests"], hw["hw_served_l1_pct"],
                hw["hw_served_l2_pct"], hw["hw_served_dram_pct"],
                hw["hw_dram_read_bytes"] / ChaseRunner::kCounterSteps);
    EXPECT_EQ(hw.at("hw_l1_global_load_requests"), double(ChaseRunner::kCounterSteps))
        << cache_op_name(c.op) << " " << c.footprint;
    EXPECT_EQ(hw.at("hw_level"), mem_level_value(c.level)) << cache_op_name(c.op) << " " << c.footprint;
  }
}

TEST(Counters, SmemWavefrontsAreTheBankModels) {
  SKIP_WITHOUT_COUNTERS();
  const BankGeometry& geometry = bank_geometry().inference.geometry;
  for (int stride : {1, 2, 4, 32}) {
    const SmemPattern p = stride_pattern(4, stride, 32);
    const std::uint32_t iterations = calibrate_bank_throughput_iterations(p, 32);
    HwValues hw = profile_hw(kHwShared, {nullptr, [&] { measure_bank_throughput(p, 32, iterations); }});
    const double per_request = hw_derived(hw).at("hw_smem_load_wavefronts_per_request");
    std::printf("smem stride %2d: %.3f wavefronts per request, model %d\n", stride, per_request,
                model_wavefronts(geometry, p));
    EXPECT_NEAR(per_request, model_wavefronts(geometry, p), 0.02 * model_wavefronts(geometry, p))
        << "stride " << stride;
  }
}

TEST(Counters, FarHomedAtomicsCrossThePartitionsNearOnesDoNot) {
  SKIP_WITHOUT_COUNTERS();
  const int sms = Gpu::current().info().sm_count;
  double fabric_pct[2] = {0, 0};
  int i = 0;
  for (Contention c : {Contention::near_l2, Contention::far_l2}) {
    AtomicLaunch l;
    l.blocks = sms;
    l.threads_per_block = 1024;
    l.contention = c;
    l.iters = calibrate_atomics(l, sms);
    const HwValues hw = profile_hw(kHwMemory, {nullptr, [&] { measure_atomics(l, sms); }});
    fabric_pct[i++] = hw_derived(hw).at("hw_l2_fabric_pct");
    std::printf("%s: %.4g atomic sectors, %.4g crossed (%.1f %%)\n", contention_name(c), hw.at("hw_l2_atom_sectors"),
                hw.at("hw_l2_fabric_sectors"), fabric_pct[i - 1]);
  }
  if (l2_homes().min_split_confidence <= 0 && l2_homes().near_fraction <= 0) GTEST_SKIP() << "one L2 partition";
  EXPECT_LT(fabric_pct[0], 10.0);
  EXPECT_GT(fabric_pct[1], 90.0);
}

TEST(Counters, PipelineStepsAreOneInstructionOnTheirPipe) {
  SKIP_WITHOUT_COUNTERS();
  struct Case {
    PipeOp op;
    const char* pipe_counter;
  };
  for (const Case& c : {Case{PipeOp::ffma, "hw_inst_pipe_fma"}, Case{PipeOp::dfma, "hw_inst_pipe_fp64"},
                        Case{PipeOp::iadd3, "hw_inst_pipe_alu"}}) {
    const PipelineShape shape{8, 32, 1};
    const std::uint32_t iterations = calibrate_throughput_iterations(c.op, shape);
    const HwValues hw = profile_hw(kHwInstructions, {nullptr, [&] { measure_throughput(c.op, shape, iterations); }});
    const double steps = double(shape.warps_per_sm) * iterations * kPipelineBodySteps;
    std::printf("%s: %.4g warp instructions, %.4g on %s, per step %.4f\n", pipe_op_info(c.op).name,
                hw.at("hw_inst_executed"), hw.at(c.pipe_counter), c.pipe_counter, hw.at("hw_inst_executed") / steps);
    EXPECT_GE(hw.at("hw_inst_executed") / steps, 1.0) << pipe_op_info(c.op).name;
    EXPECT_LE(hw.at("hw_inst_executed") / steps, 1.1) << pipe_op_info(c.op).name;
    EXPECT_NEAR(hw.at(c.pipe_counter) / steps, 1.0, 0.05) << pipe_op_info(c.op).name;
  }
}

TEST(Counters, EveryMmaSyncIsOneTensorPipeInstruction) {
  SKIP_WITHOUT_COUNTERS();
  for (MmaOp op : {MmaOp::f16_m16n8k16_f32, MmaOp::f64_m8n8k4_f64}) {
    const MmaOpInfo& info = mma_op_info(op);
    if (mma_op_unsupported(info, Gpu::current().info())) continue;
    const MmaShape shape{4, 8, 1};
    const TensorThroughput timed = measure_mma_throughput(op, shape, TensorFill::random);
    const HwValues hw =
        profile_hw(kHwInstructions | kHwTensor,
                   {nullptr, [&] { measure_mma_throughput(op, shape, TensorFill::random, timed.iterations); }});
    const double per = hw.at("hw_inst_pipe_tensor") / (timed.summary.total_work / info.flop_per_instruction());
    std::printf("%s: %.4g tensor-pipe instructions, %.4f per mma.sync (%u iterations), tensor pipe active %.1f %%\n",
                info.name, hw.at("hw_inst_pipe_tensor"), per, timed.iterations,
                hw.count("hw_tensor_pipe_active_pct") ? hw.at("hw_tensor_pipe_active_pct") : -1.0);
    EXPECT_NEAR(per, 1.0, 0.01) << info.name;
  }
}

TEST(Counters, PersistingCapacityByDramBytesIsTheGrant) {
  SKIP_WITHOUT_COUNTERS();
  if (const auto why = l2persist_unsupported()) GTEST_SKIP() << *why;
  const std::size_t setaside = Gpu::current().info().max_persisting_l2_bytes / 2 / 4096 * 4096;
  const std::size_t window = setaside * 3 / 2 / 4096 * 4096;
  enable_hw_counters(true);
  const PersistMeasurement m = measure_persistence(setaside, window, 1.0, false, true);
  enable_hw_counters(false);
  ASSERT_TRUE(m.hw_kept_fraction.has_value());
  const double by_counters = *m.hw_kept_fraction * double(m.window_bytes) / double(m.setaside_bytes);
  std::printf(
      "set-aside %zu B granted, window %zu B: kept %.4f of the grant by DRAM bytes (%.4g of %.4g B saved), %.4f by "
      "the latency threshold\n",
      m.setaside_bytes, m.window_bytes, by_counters, m.hw_probe_dram_bytes_without_setaside - m.hw_probe_dram_bytes,
      m.hw_probe_dram_bytes_without_setaside, m.kept_bytes / double(m.setaside_bytes));
  // H100s kept 0.995-0.998 of the grant; H200s keep a little less, on every board: 0.977 (GPU-ac77c2d2),
  // 0.973 (GPU-00a38a08), 0.969 (GPU-6be2cf26). The test asks for the grant within 5 %.
  EXPECT_NEAR(by_counters, 1.0, 0.05);
}

}  // namespace
}  // namespace archbench
