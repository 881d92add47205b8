// SASS checks: the asynchronous copies.
#include "sass_common.hpp"

// --- AsyncCopy: thread_load_kernel<AsyncOp, W, U>, tma_load_kernel<AsyncOp>,
//     async_store_kernel<AsyncOp>, async_latency_kernel<AsyncOp>: each path's copy instruction.

namespace {

int count_exact(const Function& f, const std::string& opcode) {
  int n = 0;
  for (const auto& o : f.opcodes) n += o == opcode;
  return n;
}
bool has_text(const Function& f, const std::string& needle) {
  for (const auto& t : f.text)
    if (t.find(needle) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST(Sass, AsyncCopyKernelsHoldTheCopyInstructionOfTheirPath) {
  using archbench::AsyncOp;
  const char* width_suffix[] = {"", "", "", "", ".E", "", "", "", ".E.64", "", "", "", "", "", "", "", ".E.128"};
  int thread_kernels = 0, tma_kernels = 0, store_kernels = 0, latency_kernels = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("acopy") == std::string::npos) continue;
    int op = -1, w = 0, u = 0;
    if (f.name.find("thread_load_kernel") != std::string::npos) {
      ASSERT_EQ(std::sscanf(f.name.c_str() + f.name.find("AsyncOpE") + 8, "%dELi%dELi%dE", &op, &w, &u), 3) << f.name;
      const std::string ldg = std::string("LDG") + width_suffix[w] + ".STRONG.GPU";  // ld.global.cg
      const std::string ldg_plain = std::string("LDG") + (w == 4 ? ".E" : width_suffix[w]) + ".STRONG.GPU";
      if (AsyncOp(op) == AsyncOp::ld_st) {
        const int n = count_exact(f, ldg_plain);
        EXPECT_TRUE(n >= u && n % u == 0)
            << f.name << ": " << n << " " << ldg_plain << " for " << u << " loads in flight";
        EXPECT_GE(count_prefix(f, "STS"), u) << f.name;
        EXPECT_EQ(count_prefix(f, "LDGSTS"), 0) << f.name;
      } else {
        const std::string ldgsts = AsyncOp(op) == AsyncOp::cp_async_cg ? "LDGSTS.E.BYPASS.128"
                                   : w == 4                            ? "LDGSTS.E"
                                                                       : std::string("LDGSTS") + width_suffix[w];
        EXPECT_GE(count_exact(f, ldgsts), 1) << f.name << ": no " << ldgsts;
        EXPECT_EQ(count_prefix(f, "LDG.") + count_exact(f, "LDG"), 0) << f.name << ": a plain load beside cp.async";
        char depbar[32];
        std::snprintf(depbar, sizeof depbar, "DEPBAR.LE SB0, 0x%x", u - 1);
        EXPECT_TRUE(has_text(f, depbar)) << f.name << ": no wait for " << u - 1 << " groups in flight";
      }
      ++thread_kernels;
    } else if (f.name.find("tma_load_kernel") != std::string::npos) {
      ASSERT_EQ(std::sscanf(f.name.c_str() + f.name.find("AsyncOpE") + 8, "%dE", &op), 1) << f.name;
      if (AsyncOp(op) == AsyncOp::bulk) {
        EXPECT_GE(count_exact(f, "UBLKCP.S.G"), 1) << f.name;
      } else if (AsyncOp(op) == AsyncOp::bulk_multicast) {
        EXPECT_GE(count_exact(f, "UBLKCP.S.G.MULTICAST"), 1) << f.name;
      } else {
        for (int d = 1; d <= 5; ++d)
          EXPECT_GE(count_exact(f, "UTMALDG." + std::to_string(d) + "D"), 1)
              << f.name << ": no " << d << "D tensor load";
      }
      EXPECT_GE(count_exact(f, "SYNCS.PHASECHK.TRANS64.TRYWAIT"), 1) << f.name << ": no wait on the stage's mbarrier";
      ++tma_kernels;
    } else if (f.name.find("async_store_kernel") != std::string::npos) {
      ASSERT_EQ(std::sscanf(f.name.c_str() + f.name.find("AsyncOpE") + 8, "%dE", &op), 1) << f.name;
      switch (AsyncOp(op)) {
        case AsyncOp::st_global:
          EXPECT_GE(count_exact(f, "STG.E.128"), 1) << f.name;
          break;
        case AsyncOp::bulk_store:
          EXPECT_GE(count_exact(f, "UBLKCP.G.S"), 1) << f.name;
          break;
        case AsyncOp::bulk_reduce_add:
          EXPECT_GE(count_exact(f, "UBLKRED.G.S.ADD"), 1) << f.name;
          break;
        case AsyncOp::tensor_store:
          for (int d = 1; d <= 5; ++d) EXPECT_GE(count_exact(f, "UTMASTG." + std::to_string(d) + "D"), 1) << f.name;
          break;
        default:
          ADD_FAILURE() << f.name << ": a store kernel of a load path";
      }
      if (AsyncOp(op) != AsyncOp::st_global) {
        EXPECT_TRUE(has_text(f, "FENCE.VIEW.ASYNC.S"))
            << f.name << ": the TMA reads shared memory written without a proxy fence";
      }
      ++store_kernels;
    } else if (f.name.find("async_latency_kernel") != std::string::npos) {
      ASSERT_EQ(std::sscanf(f.name.c_str() + f.name.find("AsyncOpE") + 8, "%dE", &op), 1) << f.name;
      const std::map<AsyncOp, std::string> copy = {{AsyncOp::ld_st, "LDG.E.128.STRONG.GPU"},
                                                   {AsyncOp::cp_async_cg, "LDGSTS.E.BYPASS.128"},
                                                   {AsyncOp::bulk, "UBLKCP.S.G"},
                                                   {AsyncOp::tensor, "UTMALDG.2D"}};
      ASSERT_TRUE(copy.count(AsyncOp(op))) << f.name;
      EXPECT_GE(count_exact(f, copy.at(AsyncOp(op))), 1) << f.name;
      EXPECT_GE(count_prefix(f, "CS2R") + count_prefix(f, "S2UR"), 2) << f.name << ": no clock reads around the copy";
      ++latency_kernels;
    }
  }
  // ld_st 3 widths x 4 unrolls, cp.async.ca 3 x 4 stages, .cg 4 stages; bulk, tensor, multicast
  // (where the build has sm_90a); four stores; four latency paths.
  EXPECT_EQ(thread_kernels, 28);
  EXPECT_GE(tma_kernels, 2);
  EXPECT_EQ(store_kernels, 4);
  EXPECT_EQ(latency_kernels, 4);
}
