// P2P on a node with two or more GPUs (ctest gpu_p2p sets ARCHBENCH_MIN_GPUS=2: fewer GPUs skip).
// GPU 0 and GPU 1: the link is described; copies arrive intact and stay below the link's peak;
// kernel loads in the peer's memory are slower than local ones and below the link's peak; a
// chase in the peer's memory takes longer than the same chase locally and ends where it must;
// remote atomics lose no update; small copies from a full queue repeat.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "fixtures/harness/gpu.hpp"
#include "fixtures/runners/p2p_runner.hpp"
#include "kernels/shared/self_check.hpp"

#include "tests/gpu/test_sm.hpp"

namespace archbench {
namespace {

constexpr int kGpu = 0, kPeer = 1;

// Every test of the suite skips itself with one GPU, whatever filter the binary runs with (the
// whole binary run on a one-GPU machine failed each on "invalid device ordinal").
class P2P : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Gpu::device_count() < 2) GTEST_SKIP() << Gpu::device_count() << " GPU(s) visible: P2P needs two";
  }
};

bool peer_access() {
  const PeerLink l = query_peer_link(kGpu, kPeer);
  return l.can_access_peer;
}

TEST_F(P2P, LinkIsDescribed) {
  const PeerLink l = query_peer_link(kGpu, kPeer);
  std::printf("GPU 0 -> 1: peer access %d, native atomics %d, rank %d, %s (%s), %zu active NVLinks\n",
              l.can_access_peer, l.native_atomics, l.performance_rank, link_type_name(l.model.type),
              l.model.formula.c_str(), l.facts.active_nvlinks.size());
  EXPECT_EQ(l.can_access_peer, query_peer_link(kPeer, kGpu).can_access_peer) << "peer access is one-sided";
  if (l.facts.nvml) {
    EXPECT_NE(l.model.type, LinkType::unknown) << l.model.formula;
    EXPECT_TRUE(l.model.peak_bytes_per_second.has_value()) << l.model.formula;
  }
}

TEST_F(P2P, CopiesArriveIntactAndStayBelowTheLinkPeak) {
  const std::size_t bytes = std::size_t(64) << 20;
  for (bool bi : {false, true}) {
    PeerCopier copier(kGpu, kPeer, bytes, bi);
    const PeerCopy c = copier.measure(copier.calibrate());
    std::printf("copy %s 64 MiB: %.1f GB/s (peer access %d)\n", bi ? "bi " : "uni", c.bytes_per_second / 1e9,
                c.peer_access);
    EXPECT_GT(c.bytes_per_second, 1e9);
    if (const auto peak = query_peer_link(kGpu, kPeer).model.peak_bytes_per_second) {
      EXPECT_LE(c.bytes_per_second, 1.02 * *peak * (bi ? 2 : 1));
    }
  }
}

// Small copies queued behind the gate run at the copy engines' pace, which repeats: without the
// gate a 64 KiB copy's rate was the host's submission rate and read 21-31 GB/s in four processes.
TEST_F(P2P, SmallCopiesRepeatFromAFullQueue) {
  PeerCopier copier(kGpu, kPeer, std::size_t(64) << 10, false);
  const int copies = copier.calibrate();
  std::vector<double> rates;
  for (int i = 0; i < 5; ++i) rates.push_back(copier.measure(copies).bytes_per_second);
  const auto [lo, hi] = std::minmax_element(rates.begin(), rates.end());
  std::printf("copy uni 64 KiB x %d: %.1f .. %.1f GB/s\n", copies, *lo / 1e9, *hi / 1e9);
  EXPECT_LT(*hi / *lo, 1.10) << "five measurements of one process spread by more than 10 %";
}

TEST_F(P2P, RemoteLoadsAreSlowerThanLocalOnesAndBelowTheLinkPeak) {
  if (!peer_access()) GTEST_SKIP() << "no peer access between GPU 0 and GPU 1";
  auto rate = [](int peer, BwKind kind) {
    RemoteAccessRunner r(kGpu, peer, kind);
    const RemoteAccess m = r.measure(r.calibrate());
    std::printf("%s GPU 0 -> GPU %d: %.1f GB/s\n", kind == BwKind::read ? "read " : "write", peer,
                m.bytes_per_second / 1e9);
    return m.bytes_per_second;
  };
  const double local = rate(kGpu, BwKind::read), remote = rate(kPeer, BwKind::read);
  const double remote_write = rate(kPeer, BwKind::write);  // read back inside
  EXPECT_LT(remote, local);
  EXPECT_GT(remote_write, 1e9);
  if (const auto peak = query_peer_link(kGpu, kPeer).model.peak_bytes_per_second) {
    EXPECT_LE(remote, 1.02 * *peak);
    EXPECT_LE(remote_write, 1.02 * *peak);
  }
}

TEST_F(P2P, RemoteChaseTakesLongerThanLocalAndEndsWhereItMust) {
  if (!peer_access()) GTEST_SKIP() << "no peer access between GPU 0 and GPU 1";
  for (bool peer_l2 : {true, false}) {
    RemoteLatencyRunner local(kGpu, kGpu, peer_l2, test_sm()), remote(kGpu, kPeer, peer_l2, test_sm());
    const RemoteLatency l = local.measure(), r = remote.measure();
    std::printf("latency (%s): local %.0f cycles / %.0f ns, remote %.0f cycles / %.0f ns\n",
                peer_l2 ? "peer L2" : "peer DRAM", l.cycles, l.ns, r.cycles, r.ns);
    EXPECT_GT(r.ns, l.ns + 100) << "a load over the link costs at least 100 ns more than a local one";
  }
}

TEST_F(P2P, RemoteAtomicsLoseNoUpdate) {
  if (!peer_access()) GTEST_SKIP() << "no peer access between GPU 0 and GPU 1";
  for (Contention c : {Contention::distinct, Contention::all}) {
    RemoteAtomicsRunner r(kGpu, kPeer, AtomForm::atom, c);
    const RemoteAtomics m = r.measure();  // throws SelfCheckError on a lost update
    std::printf("remote atom.add.u32 (%s): %.2f G/s, %.2f G/s over whole launches, %.1f us fixed per launch\n",
                c == Contention::all ? "one address" : "distinct", m.atomics_per_second / 1e9,
                m.launch.atomics_per_second / 1e9, m.launch_fixed_ns / 1e3);
    EXPECT_GT(m.atomics_per_second, 0);
    EXPECT_GE(m.atomics_per_second, 0.95 * m.launch.atomics_per_second) << "the slope excludes fixed costs";
  }
}

}  // namespace
}  // namespace archbench
