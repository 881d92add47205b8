// SASS checks: the persisting-L2 probe.
#include "sass_common.hpp"

// --- L2Persist and Launch kernels

TEST(Sass, PersistProbeIsOneL2LoadPerLineBetweenTwoClocks) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("persist_probe_kernel") == std::string::npos) continue;
    int cg = 0, other = 0, clocks = 0;
    for (std::size_t i = 0; i < f.opcodes.size(); ++i) {
      const std::string& op = f.opcodes[i];
      cg += op == "LDG.E.STRONG.GPU";
      other += op.rfind("LDG", 0) == 0 && op != "LDG.E.STRONG.GPU";
      clocks += f.text[i].find("SR_CLOCKLO") != std::string::npos;
    }
    EXPECT_EQ(cg, 1) << f.name << ": one ld.global.cg per line (a hit or a miss at the L2)";
    EXPECT_EQ(other, 0) << f.name;
    EXPECT_GE(clocks, 2) << f.name << ": the clock around the load";
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}
