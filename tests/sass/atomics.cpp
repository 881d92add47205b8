// SASS checks: the atomics kernels.
#include "sass_common.hpp"

// --- Atomics kernels: atomic_throughput_kernel<Op, Space, Scope, Form, kCas>

TEST(Sass, AtomicsAreRealAtomicsWithNoWarpAggregation) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("atomic_throughput_kernel") == std::string::npos) continue;
    int space = -1, scope = -1, form = -1;
    const auto at = [&](const char* key) {
      const auto p = f.name.find(key);
      return p == std::string::npos ? -1 : f.name[p + std::strlen(key)] - '0';
    };
    space = at("AtomSpaceE");
    scope = at("AtomScopeE");
    form = at("AtomFormE");
    ASSERT_TRUE(space >= 0 && scope >= 0 && form >= 0) << f.name;
    // ptxas turns same-address atomics into a warp reduction (VOTE + REDUX + one atomic) when it
    // can prove the address uniform: that would hide contention.
    for (const auto& op : f.opcodes) {
      EXPECT_NE(op.rfind("REDUX", 0), 0u) << f.name;
      EXPECT_NE(op.rfind("VOTE", 0), 0u) << f.name;
      EXPECT_NE(op.rfind("MATCH", 0), 0u) << f.name;
    }
    const std::string family = space == 1 ? "ATOMS" : form == 1 ? "REDG" : "ATOMG";
    const std::string scope_hint = scope == 0 ? ".STRONG.SM" : scope == 1 ? ".STRONG.GPU" : ".STRONG.SYS";
    int n = 0;
    for (const auto& op : timed_opcodes(f)) {
      if (op.rfind(family, 0) != 0) continue;
      ++n;
      // Global atomics carry their scope (f16x2/bf16x2 as well); shared ones are .cta by nature.
      if (space == 0) {
        EXPECT_NE(op.find(scope_hint), std::string::npos) << f.name << ": " << op;
      }
    }
    EXPECT_GE(n, 1) << f.name << ": no " << family << " in the timed loop";
    ++checked;
  }
  EXPECT_GE(checked, 50);
}
