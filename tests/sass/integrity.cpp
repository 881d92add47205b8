// SASS checks: the integrity screen's kernels do the work they claim, at the rate of the unit.
#include "sass_common.hpp"

namespace {

int count_containing(const Function& f, const std::string& piece) {  // instructions whose text holds `piece`
  int n = 0;
  for (const auto& line : f.text) n += line.find(piece) != std::string::npos;
  return n;
}

}  // namespace

TEST(Sass, IntegrityFfmaChainsAreFusedAndKeepSubnormals) {
  const auto ks = kernels("ffma_kernel", "integrity_cu");
  ASSERT_EQ(ks.size(), 1u);
  // 8 chains x 4 steps a fold, unrolled; no FTZ (the host's std::fma keeps subnormals), no FMUL+FADD
  EXPECT_GE(count_containing(*ks[0], "FFMA"), 32) << ks[0]->name;
  EXPECT_EQ(count_containing(*ks[0], "FFMA.FTZ"), 0) << ks[0]->name;
  EXPECT_EQ(count_containing(*ks[0], "FMUL"), 0) << ks[0]->name;
}

TEST(Sass, IntegrityMmaRunsOnTheTensorCores) {
  const auto ks = kernels("mma_kernel", "integrity_cu");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_GE(count_containing(*ks[0], "HMMA.16816.F32"), 4) << "four independent accumulators";
}

TEST(Sass, IntegrityMemoryKernelsUseTheirLevel) {
  // DRAM: 16-byte loads past the L1 (ld.cg), four in flight before any compare
  for (const Function* f : kernels("dram_check_kernel", "integrity_cu"))
    EXPECT_GE(count_containing(*f, "LDG.E.128.STRONG.GPU"), 4) << f->name;
  // L1: 16-byte loads the L1 may serve (ld.ca: SM scope)
  const auto l1 = kernels("l1_kernel", "integrity_cu");
  ASSERT_EQ(l1.size(), 1u);
  EXPECT_GE(count_containing(*l1[0], "LDG.E.128"), 1);
  EXPECT_EQ(count_containing(*l1[0], "LDG.E.128.STRONG.GPU") + count_containing(*l1[0], "LDG.E.128.STRONG.SYS"), 0)
      << "a load past the L1";
  // shared memory: every pattern's stores and loads are there (volatile)
  const auto smem = kernels("smem_kernel", "integrity_cu");
  ASSERT_EQ(smem.size(), 1u);
  EXPECT_GE(count_containing(*smem[0], "STS"), 3);
  EXPECT_GE(count_containing(*smem[0], "LDS"), 3);
}
