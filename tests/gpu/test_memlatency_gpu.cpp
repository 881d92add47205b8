// MemLatency on a real GPU: the chase checks itself, and the latencies are ordered as the memory
// hierarchy says. The checks are relations between measurements, not one GPU's numbers.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "analysis/stats.hpp"
#include "fixtures/runners/chase_runner.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/harness/placement.hpp"
#include "kernels/chase_fill.hpp"
#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

struct Measured {
  double cycles, ns, clock_mhz;
};

Measured chain_latency(CacheOp op, std::size_t footprint, std::size_t stride = 128, double place_at_cycles = 0) {
  static ChaseRunner runner(Gpu::current().info().l2_bytes);
  ChaseSpec spec{op, footprint, stride};
  spec.place_at_cycles = place_at_cycles;
  runner.prepare(spec, ChaseForm::chain, test_sm());
  std::vector<double> c, n, m;
  for (int i = 0; i < 3; ++i) {
    const ChainTiming t = runner.chain_once();  // throws SelfCheckError on a broken chase
    c.push_back(double(t.cycles) / kChainTimedSteps);
    n.push_back(double(t.ns) / kChainTimedSteps);
    m.push_back(effective_clock_mhz(t.cycles, t.ns));
  }
  return {median(c), median(n), median(m)};
}

const GpuInfo& gpu() { return Gpu::current().info(); }

TEST(MemLatency, HierarchyOrderL1BelowL2BelowDram) {
  const std::size_t l2 = gpu().l2_bytes;
  const Measured l1 = chain_latency(CacheOp::ca, 16 << 10);
  const Measured l2_hit = chain_latency(CacheOp::cg, l2 / 8);
  const Measured dram = chain_latency(CacheOp::cg, 4 * l2);
  RecordProperty("l1_cycles", std::to_string(l1.cycles));
  RecordProperty("l2_cycles", std::to_string(l2_hit.cycles));
  RecordProperty("dram_cycles", std::to_string(dram.cycles));
  std::printf("L1 %.1f cycles, L2 %.1f cycles, DRAM %.1f cycles\n", l1.cycles, l2_hit.cycles, dram.cycles);
  EXPECT_GT(l1.cycles, 4.0);
  EXPECT_LT(1.5 * l1.cycles, l2_hit.cycles);
  EXPECT_LT(1.2 * l2_hit.cycles, dram.cycles);
}

TEST(MemLatency, CgBypassesL1AndCaHitsIt) {
  const std::size_t l2 = gpu().l2_bytes;
  const Measured ca16 = chain_latency(CacheOp::ca, 16 << 10);
  const Measured cg16 = chain_latency(CacheOp::cg, 16 << 10);
  const Measured cg_l2 = chain_latency(CacheOp::cg, l2 / 8);
  std::printf("16 KiB: ld.ca %.1f, ld.cg %.1f; ld.cg at L2/8 %.1f cycles\n", ca16.cycles, cg16.cycles, cg_l2.cycles);
  EXPECT_LT(1.5 * ca16.cycles, cg16.cycles) << "ld.ca on 16 KiB must hit L1";
  EXPECT_NEAR(cg16.cycles, cg_l2.cycles, 0.25 * cg_l2.cycles) << "ld.cg on 16 KiB must be served by L2";
}

// A short ld.cg chase placed at the GPU's median SM's L2 latency (ChaseRunner) reads it, within
// 1 %, from whichever SM it runs on: 1, 4 and 64 KiB, where unplaced 4 KiB chains read 274-285
// cycles by board on H200s whose median was 282.
TEST(MemLatency, ShortL2ChasesReadTheGpusMedian) {
  const double median_sm = choose_reference_sm().median_cycles;
  for (std::size_t kib : {1, 4, 64}) {
    const Measured m = chain_latency(CacheOp::cg, kib << 10, 128, median_sm);
    std::printf("ld.cg %zu KiB: %.2f cycles, the median SM's %.2f\n", kib, m.cycles, median_sm);
    EXPECT_NEAR(m.cycles, median_sm, 0.01 * median_sm) << kib << " KiB";
  }
}

TEST(MemLatency, EffectiveClockIsPlausible) {
  const Measured m = chain_latency(CacheOp::ca, 16 << 10);
  EXPECT_GT(m.clock_mhz, 0.2 * gpu().max_sm_clock_mhz);
  EXPECT_LT(m.clock_mhz, 1.05 * gpu().max_sm_clock_mhz);
  // The clock the kernel's clock64 and %globaltimer give agrees with the one NVML reports (an
  // independent reading: a wrong timer scale or a clock64 that counts something else shows here).
  const Nvml& nvml = Gpu::current().nvml();
  if (!nvml.available()) GTEST_SKIP() << "NVML: " << nvml.why_unavailable();
  const auto s = nvml.sample();
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR(m.clock_mhz, s->sm_clock_mhz, 0.1 * s->sm_clock_mhz) << "in-kernel clock against NVML's";
}

TEST(MemLatency, FineGrainedAboveTimerOverhead) {
  ChaseRunner runner(gpu().l2_bytes);
  runner.prepare({CacheOp::ca, 16 << 10, 128}, ChaseForm::fine, test_sm());
  const FineTiming hit = runner.fine_once();
  const FineTiming timer = run_fine_timer_overhead(test_sm());
  std::vector<double> h(hit.cycles.begin(), hit.cycles.end()), t(timer.cycles.begin(), timer.cycles.end());
  std::printf("fine: L1 hit p50 %.0f cycles, timer overhead p50 %.0f cycles\n", median(h), median(t));
  EXPECT_GT(median(t), 0.0);
  EXPECT_GT(median(h), median(t));
  EXPECT_EQ(hit.cycles.size(), kFineSamples);
}

TEST(MemLatency, SelfCheckCatchesAWrongChase) {
  // A chase that ends elsewhere than the host walk must fail loudly: element 0 now skips
  // element 32 and jumps straight to element 64, in both forms.
  ChaseRunner runner(gpu().l2_bytes);
  runner.prepare({CacheOp::ca, 64 << 10, 128}, ChaseForm::chain, test_sm());
  EXPECT_NO_THROW(runner.chain_once());
  const std::uint64_t shortcut = reinterpret_cast<std::uint64_t>(runner.pointer_data()) + 64 * 4;
  ASSERT_EQ(cudaMemcpy(runner.pointer_data(), &shortcut, sizeof shortcut, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_THROW(runner.chain_once(), SelfCheckError);

  runner.prepare({CacheOp::cg, 64 << 10, 128}, ChaseForm::fine, test_sm());
  EXPECT_NO_THROW(runner.fine_once());
  const std::uint32_t skip = 64;
  ASSERT_EQ(cudaMemcpy(runner.index_data(), &skip, sizeof skip, cudaMemcpyHostToDevice), cudaSuccess);
  EXPECT_THROW(runner.fine_once(), SelfCheckError);
}

// The device fill writes the words the host's stride chain would upload, in both forms
// (kernels/chase_fill.hpp): every word, the zeros between the elements included.
TEST(MemLatency, DeviceFilledStrideChainsEqualTheHostArrays) {
  for (const auto& [footprint, stride] :
       {std::pair<std::size_t, std::size_t>{4096, 128}, {1000, 8}, {(1 << 20) + 8, 24}, {8 << 20, 2 << 20}}) {
    const ChaseArray c = stride_chain(footprint, stride);
    const StrideChain shape = stride_chain_shape(footprint, stride);
    DeviceBuffer<std::uint32_t> indices(shape.words);
    fill_stride_chain_indices(indices.get(), shape.words, shape.stride_words, shape.cycle_length);
    EXPECT_EQ(indices.download(), c.next) << footprint << "/" << stride;
    DeviceBuffer<std::uint64_t> pointers(shape.words / 2);
    fill_stride_chain_pointers(pointers.get(), shape.words, shape.stride_words, shape.cycle_length);
    EXPECT_EQ(pointers.download(), to_pointer_chase(c, reinterpret_cast<std::uint64_t>(pointers.get())))
        << footprint << "/" << stride;
  }
  DeviceBuffer<std::uint64_t> small(64);
  EXPECT_THROW(fill_stride_chain_pointers(small.get(), 128, 3, 4), std::invalid_argument);  // a 12 B stride
}

// The reference SM is the median of every SM's L2 latency, and a pinned chase then runs there and
// reads what the probe read. Planted defect: a choice of SM 0 (or of any SM off the median) fails
// the first check on a GPU whose SM 0 is not at the median.
TEST(MemLatency, ChasesRunOnTheReferenceSmOfMedianL2Latency) {
  const ReferenceSmChoice c = choose_reference_sm();
  std::printf("reference SM %u: %.2f cycles (SMs: median %.2f, min %.2f, max %.2f)\n", c.sm, c.sm_cycles,
              c.median_cycles, c.min_cycles, c.max_cycles);
  int ran = 0, below = 0, above = 0;
  for (double x : c.cycles_per_sm) {
    if (x <= 0) continue;
    ++ran;
    below += x < c.sm_cycles;
    above += x > c.sm_cycles;
  }
  EXPECT_GE(ran, gpu().sm_count * 9 / 10) << "most SMs must have chased";
  EXPECT_LE(below, ran / 2) << "the reference SM must sit at the median";
  EXPECT_LE(above, ran / 2 + 1) << "the reference SM must sit at the median";
  EXPECT_LT(c.min_cycles, c.max_cycles);
  // A run's placement takes it (or the SM given), and a chase placed there runs there, at the
  // latency the probe saw for it.
  const Placement chosen = place_single_sm_measurements(-1), given = place_single_sm_measurements(1);
  EXPECT_EQ(chosen.source, "median L2 latency");
  EXPECT_EQ(given.reference_sm, 1u);
  EXPECT_EQ(given.source, "given");
  EXPECT_EQ(given.measured.cycles_per_sm.size(), c.cycles_per_sm.size());
  static ChaseRunner runner(gpu().l2_bytes);
  runner.prepare({CacheOp::cg, std::size_t(1) << 20, 128}, ChaseForm::chain, c.sm);
  const ChainTiming t = runner.chain_once();
  EXPECT_EQ(t.smid, c.sm);
  EXPECT_NEAR(double(t.cycles) / kChainTimedSteps, c.sm_cycles, 0.03 * c.sm_cycles);
}

}  // namespace
}  // namespace archbench
