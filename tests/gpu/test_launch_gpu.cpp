// Launch on a real GPU: every kernel of a batch runs with its parameters (the self-check), the
// GPU's timeline orders the kernels, and the costs are ordered as launches are: queued launches
// cost the host less than launch-and-synchronise, a graph less per kernel than a stream, and
// programmatic dependent launch closes the gap between kernels. Relations, not one GPU's numbers.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "analysis/stats.hpp"
#include "kernels/launch.hpp"

namespace archbench {
namespace {

struct Costs {
  double host_ns, gap_ns;
};

Costs batch_costs(LaunchPath path, int bytes = 0) {
  launch_batch(path, StreamKind::created, bytes, 32);  // warm
  const LaunchBatch b = launch_batch(path, StreamKind::created, bytes, 500);
  EXPECT_EQ(b.start_ns.size(), 500u);
  std::vector<double> gaps;
  for (std::size_t i = 0; i + 1 < b.start_ns.size(); ++i) {
    EXPECT_LE(b.start_ns[i], b.end_ns[i]) << "a kernel's end stamp before its start";
    if (path != LaunchPath::pdl) {
      EXPECT_GE(b.start_ns[i + 1], b.end_ns[i]) << "kernels of one stream overlapped";
    }
    gaps.push_back(double(std::int64_t(b.start_ns[i + 1] - b.end_ns[i])));
  }
  return {median(std::vector<double>(b.host_ns.begin() + 1, b.host_ns.end())), median(gaps)};
}

TEST(Launch, CostsAreOrderedAsLaunchesAre) {
  const Costs stream = batch_costs(LaunchPath::stream);
  const Costs graph = batch_costs(LaunchPath::graph);
  const Costs big = batch_costs(LaunchPath::stream, 4000);
  const double e2e = median(launch_and_sync_ns(LaunchPath::stream, StreamKind::created, 0, 200));
  std::printf(
      "stream: host %.0f ns, GPU gap %.0f ns; graph: host %.0f ns/kernel, gap %.0f ns; 4000 B of parameters: "
      "host %.0f ns, gap %.0f ns; launch+sync %.0f ns\n",
      stream.host_ns, stream.gap_ns, graph.host_ns, graph.gap_ns, big.host_ns, big.gap_ns, e2e);
  EXPECT_GT(stream.host_ns, 100.0) << "a launch call cannot cost less than 0.1 us";
  EXPECT_GT(stream.gap_ns, 0.0);
  EXPECT_LT(stream.host_ns, e2e) << "a queued launch must cost the host less than launch + synchronise";
  EXPECT_LT(stream.gap_ns, e2e) << "the GPU-side gap must be below the host's round trip";
  EXPECT_LT(graph.host_ns, stream.host_ns) << "one graph launch of many kernels costs less per kernel";
  EXPECT_GE(big.host_ns, 0.9 * stream.host_ns) << "4000 B of parameters cannot make a launch cheaper";
}

TEST(Launch, ProgrammaticDependentLaunchClosesTheGap) {
  if (!launch_path_unsupported(LaunchPath::pdl).empty()) GTEST_SKIP() << launch_path_unsupported(LaunchPath::pdl);
  const Costs stream = batch_costs(LaunchPath::stream);
  const Costs pdl = batch_costs(LaunchPath::pdl);
  const Costs cluster = batch_costs(LaunchPath::cluster);
  std::printf("GPU gap: stream %.0f ns, pdl %.0f ns, cluster of 2 %.0f ns\n", stream.gap_ns, pdl.gap_ns,
              cluster.gap_ns);
  EXPECT_LT(pdl.gap_ns, stream.gap_ns);
  EXPECT_GT(cluster.gap_ns, 0.0);
}

TEST(Launch, BadInputIsRefusedWithAReason) {
  EXPECT_THROW(launch_batch(LaunchPath::stream, StreamKind::created, 100, 10), std::invalid_argument);
  EXPECT_THROW(launch_batch(LaunchPath::stream, StreamKind::created, 0, 1), std::invalid_argument);
  EXPECT_THROW(launch_batch(LaunchPath::stream, StreamKind::created, 0, kMaxLaunchBatch + 1), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
