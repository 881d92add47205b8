// HostLink on a real GPU: copies arrive intact, pinned copies run near the link's own peak (from
// NVML, not a number typed in), both directions at once beat one, and a chase through host
// memory costs more than one through the GPU's L2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "fixtures/runners/hostlink_runner.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

constexpr std::size_t kBytes = std::size_t(64) << 20;

TEST(HostLink, PinnedCopiesReachMostOfTheLinkPeak) {
  const HostLinkModel m = host_link_model();
  const double h2d = measure_host_copy(HostMemory::pinned, CopyDir::h2d, kBytes, 8).bytes_per_second;
  const double d2h = measure_host_copy(HostMemory::pinned, CopyDir::d2h, kBytes, 8).bytes_per_second;
  const double bidir = measure_host_copy(HostMemory::pinned, CopyDir::bidir, kBytes, 8).bytes_per_second;
  const double pageable = measure_host_copy(HostMemory::pageable, CopyDir::h2d, kBytes, 4).bytes_per_second;
  std::printf("%s (now gen%d x%d): pinned h2d %.1f, d2h %.1f, both %.1f GB/s; pageable h2d %.1f GB/s\n",
              m.formula.c_str(), m.pcie_gen_current, m.pcie_width_current, h2d / 1e9, d2h / 1e9, bidir / 1e9,
              pageable / 1e9);
  EXPECT_GT(bidir, 1.3 * std::max(h2d, d2h)) << "the link carries both directions at once";
  EXPECT_LT(pageable, 1.1 * h2d) << "pageable memory is staged through pinned buffers";
  if (!m.peak_bytes_per_second) GTEST_SKIP() << "no link peak: " << m.formula;
  EXPECT_GT(h2d, 0.7 * *m.peak_bytes_per_second);
  EXPECT_GT(d2h, 0.7 * *m.peak_bytes_per_second);
  EXPECT_LT(std::max(h2d, d2h), 1.02 * *m.peak_bytes_per_second) << "above the link's peak: a timing defect";
}

TEST(HostLink, RegisteredAndManagedMemoryArriveIntact) {
  for (HostMemory mem : {HostMemory::registered, HostMemory::managed})
    for (CopyDir dir : {CopyDir::h2d, CopyDir::d2h}) {
      const HostCopy c = measure_host_copy(mem, dir, std::size_t(16) << 20, 2);  // throws on a wrong word
      std::printf("%s %s: %.1f GB/s (host NUMA node %d)\n", host_memory_name(mem), copy_dir_name(dir),
                  c.bytes_per_second / 1e9, c.host_numa_node);
      EXPECT_GT(c.bytes_per_second, 1e8);
    }
}

TEST(HostLink, SmsReadHostMemoryAndAChaseThroughItIsSlow) {
  const HostSmAccess r = measure_host_sm_access(false, std::size_t(64) << 20, 2);
  const HostSmAccess w = measure_host_sm_access(true, std::size_t(64) << 20, 2);  // checks what it wrote
  const HostLatency l = measure_host_latency(std::size_t(16) << 20, test_sm());
  std::printf("SMs: read %.1f GB/s, write %.1f GB/s; chase %.0f ns (%.0f cycles)\n", r.bytes_per_second / 1e9,
              w.bytes_per_second / 1e9, l.ns, l.cycles);
  EXPECT_GT(r.bytes_per_second, 1e9);
  EXPECT_GT(w.bytes_per_second, 1e9);
  EXPECT_GT(l.ns, 300.0) << "a load across the host link cannot be as fast as an L2 hit";
  EXPECT_LT(l.ns, 20000.0);
}

TEST(HostLink, BadInputIsRefusedWithAReason) {
  EXPECT_THROW(measure_host_copy(HostMemory::pinned, CopyDir::h2d, 3, 1), std::invalid_argument);
  EXPECT_THROW(measure_host_copy(HostMemory::pageable, CopyDir::bidir, 4096, 1), std::invalid_argument);
  EXPECT_THROW(measure_host_latency(4096, test_sm()), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
