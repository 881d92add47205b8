// SASS checks: the pointer chases (MemLatency, and the per-SM and constant chases of Geometry).
#include "sass_common.hpp"

namespace {

struct OpCase {
  const char* tag;     // mangled tag type: "6LoadCa"
  const char* sass32;  // the only global load allowed in the 32-bit index chase (fine)
  const char* sass64;  // ... and in the 64-bit pointer chase (chain)
};
const OpCase kOps[] = {{"6LoadCa", "LDG.E.STRONG.SM", "LDG.E.64.STRONG.SM"},
                       {"6LoadCg", "LDG.E.STRONG.GPU", "LDG.E.64.STRONG.GPU"},
                       {"6LoadNc", "LDG.E.CONSTANT", "LDG.E.64.CONSTANT"}};

}  // namespace

TEST(Sass, ChainKernelHasOneLoadPerStepWithTheCacheHint) {
  for (const OpCase& op : kOps) {
    const auto fns = kernels("pchase_chain", op.tag);
    ASSERT_FALSE(fns.empty()) << op.tag;
    for (const Function* f : fns) {
      const auto m = loads(*f);
      EXPECT_EQ(m.size(), 1u) << f->name << ": loads of more than one kind";
      EXPECT_EQ(m.count(op.sass64) ? m.at(op.sass64) : 0, int(1 + kChainUnroll))
          << f->name << ": expected 1 warm-up + " << kChainUnroll << " timed " << op.sass64;
      // p = *p: nothing but the load between two steps (no address arithmetic in the chain).
      int alu = 0;
      for (const auto& o : f->opcodes) alu += o.rfind("IMAD.WIDE", 0) == 0 || o.rfind("LEA", 0) == 0;
      EXPECT_EQ(alu, 0) << f->name << ": address arithmetic in the pointer chain";
    }
  }
}

TEST(Sass, FineKernelTimesEachLoadWithClockReads) {
  for (const OpCase& op : kOps) {
    for (const Function* f : kernels("pchase_fine", op.tag)) {
      if (f->name.find("Lb1E") != std::string::npos) continue;  // timer-only variant below
      const auto m = loads(*f);
      EXPECT_EQ(m.size(), 1u) << f->name;
      EXPECT_EQ(m.count(op.sass32) ? m.at(op.sass32) : 0, 2) << f->name << ": warm-up + timed load";
      int clocks = 0, shared_stores = 0;
      for (const auto& o : f->opcodes) {
        clocks += o.rfind("CS2R", 0) == 0;
        shared_stores += o.rfind("STS", 0) == 0;
      }
      EXPECT_GE(clocks, 4) << f->name << ": window + per-access clock reads";
      EXPECT_GE(shared_stores, 2) << f->name << ": dependent store + sample store";
    }
  }
}

TEST(Sass, TimerOverheadKernelHasNoLoad) {
  const auto fns = kernels("pchase_fine", "Lb1E");
  ASSERT_FALSE(fns.empty());
  for (const Function* f : fns) EXPECT_TRUE(loads(*f).empty()) << f->name;
}

TEST(Sass, PerSmChaseLoadsWithItsCacheHint) {
  int checked = 0;
  for (const OpCase& op : kOps) {
    for (const Function* f : kernels("sm_chase_kernel", op.tag)) {
      const auto m = loads(*f);
      EXPECT_EQ(m.size(), 1u) << f->name;
      EXPECT_EQ(m.count(op.sass64) ? m.at(op.sass64) : 0, int(1 + kChainUnroll)) << f->name;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}

TEST(Sass, ConstantChaseIsOneIndexedLdcPerStep) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("const_chase_kernel") == std::string::npos) continue;
    int ldc = 0;
    for (std::size_t i = 0; i < f.opcodes.size(); ++i)
      ldc += f.opcodes[i] == "LDC" && f.text[i].find("c[0x3][R") != std::string::npos;
    EXPECT_EQ(ldc, int(1 + kChainUnroll)) << f.name << ": a warm-up LDC and " << kChainUnroll << " timed";
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

// The L2 map's per-line latency (line_latency): the line's address from its list, then 2 untimed
// and kLineLatencySteps timed ld.cg of the line, nothing else from global memory.
TEST(Sass, LineLatencyTimesTheLineWithLdCg) {
  const auto fns = kernels("line_latency", "6LoadCg");
  ASSERT_EQ(fns.size(), 1u);
  const auto m = loads(*fns.front());
  EXPECT_EQ(m.size(), 2u) << fns.front()->name;
  EXPECT_EQ(m.count("LDG.E.64.STRONG.GPU") ? m.at("LDG.E.64.STRONG.GPU") : 0, int(2 + archbench::kLineLatencySteps))
      << fns.front()->name << ": 2 untimed + " << archbench::kLineLatencySteps << " timed ld.cg";
  EXPECT_EQ(m.count("LDG.E.64.CONSTANT") ? m.at("LDG.E.64.CONSTANT") : 0, 1) << "the line's address";
}
