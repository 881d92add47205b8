// SASS checks: the barrier and fence loops.
#include "sass_common.hpp"

// --- Sync barrier and fence loops: sync_kernel<SyncStep, body>

TEST(Sass, SyncLoopsHoldTheirBarrierOrFenceOncePerStep) {
  // Per step of the loop body, in the compiled code (both halves' paths where the step branches on
  // the warp: named barriers, the producer/consumer handshake).
  const std::map<std::string, std::map<std::string, int>> expected = {
      {"bar_sync", {{"BAR.SYNC.DEFER_BLOCKING", 1}}},
      {"bar_named_half", {{"BAR.SYNC.DEFER_BLOCKING", 2}}},
      {"bar_arrive_sync", {{"BAR.SYNC.DEFER_BLOCKING", 2}, {"BAR.ARV", 2}}},
      {"mbarrier_phase", {{"SYNCS.ARRIVE.TRANS64.A1T0", 1}, {"SYNCS.PHASECHK.TRANS64.TRYWAIT", 1}}},
      {"fence_sc_cta", {{"MEMBAR.SC.CTA", 1}}},
      {"fence_acq_rel_gpu", {{"MEMBAR.ALL.GPU", 1}}},
      {"fence_sc_gpu", {{"MEMBAR.SC.GPU", 1}}},
      {"fence_sc_sys", {{"MEMBAR.SC.SYS", 1}}},
      {"fence_proxy_async", {{"FENCE.VIEW.ASYNC.S", 1}}},
      {"store_fence_gpu", {{"STG.E", 1}, {"MEMBAR.SC.GPU", 1}}},
      // barrier.cluster.arrive (release) + wait (acquire): the cluster barrier and a membar.
      {"cluster_barrier", {{"UCGABAR_ARV", 1}, {"UCGABAR_WAIT", 1}, {"MEMBAR.ALL.GPU", 1}}},
      // cooperative_groups' grid sync: a block barrier, one atomic per block on the grid's
      // counter, a spin on it, a block barrier.
      {"grid_sync", {{"BAR.SYNC.DEFER_BLOCKING", 2}, {"ATOM.E.ADD.STRONG.GPU", 1}}},
      // arrive.expect_tx, then complete_tx (an arrive of none with a transaction reduction).
      {"mbarrier_expect_tx", {{"SYNCS.ARRIVE.TRANS64", 1}, {"SYNCS.ARRIVE.TRANS64.RED.A0TX", 1}}},
      {"mbarrier_test_wait", {{"SYNCS.ARRIVE.TRANS64.A1T0", 1}, {"SYNCS.PHASECHK.TRANS64", 1}}},
  };
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("sync_kernelILNS_8SyncStepE") == std::string::npos) continue;
    int index = -1, body = 0;
    ASSERT_EQ(std::sscanf(f.name.c_str() + f.name.find("SyncStepE") + 9, "%dELi%dE", &index, &body), 2) << f.name;
    ASSERT_LT(std::size_t(index), archbench::sync_steps().size()) << f.name;
    const std::string step = archbench::sync_steps()[std::size_t(index)].name;
    std::map<std::string, int> got;
    for (const auto& op : timed_opcodes(f)) ++got[op];
    ASSERT_FALSE(got.empty()) << f.name;
    for (const auto& [opcode, per_step] : expected.at(step))
      EXPECT_EQ(got[opcode], per_step * body) << step << " (body " << body << "): " << opcode;
    ++checked;
  }
  EXPECT_EQ(checked, int(archbench::sync_steps().size()) * 2) << "every step at two body lengths";
}
