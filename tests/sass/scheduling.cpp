// SASS checks: the scheduling and instruction-cache kernels.
#include "sass_common.hpp"

TEST(Sass, SchedulingKernelsRunTheirFfmaChains) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f)) continue;
    if (f.name.find("sustained_ffma_kernel") == std::string::npos &&
        f.name.find("timeline_ffma_kernel") == std::string::npos &&
        f.name.find("pair_ffma_kernel") == std::string::npos)
      continue;
    int ffma = 0;
    for (const auto& op : f.opcodes) ffma += op == "FFMA";
    EXPECT_GE(ffma, 128) << f.name << ": the chains were folded (8 chains x 16 unrolled steps)";
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

TEST(Sass, IcacheBodiesAreStraightLineFfmaOfTheirSize) {
  std::map<int, int> ffma_of_size;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("icache_kernel") == std::string::npos) continue;
    const auto at = f.name.find("icache_kernelILi");
    ASSERT_NE(at, std::string::npos) << f.name;
    const int size = std::atoi(f.name.c_str() + at + 16);
    int ffma = 0, branches = 0;
    for (const auto& op : f.opcodes) {
      ffma += op == "FFMA";
      branches += op == "BRA";
    }
    ffma_of_size[size] = ffma;
    // The iteration loop, the first-pass test, the claim of the reference SM and the trailing
    // self-loop: 5. A loop left inside the body adds one.
    EXPECT_LE(branches, 5) << f.name << ": a loop inside the body";
  }
  for (int size : archbench::kIcacheInstructions) EXPECT_EQ(ffma_of_size[size], size) << "body of " << size;
}
