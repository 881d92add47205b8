// SASS checks: the shared-memory bank kernels and distributed shared memory.
#include "sass_common.hpp"

// --- SmemBanks and Dsm kernels (kernels/smem.cuh)

int width_of(const Function& f) {
  int width = 0;
  const auto at = f.name.find("ILi");
  if (at == std::string::npos || std::sscanf(f.name.c_str() + at, "ILi%dE", &width) != 1) return 0;
  return width;
}

TEST(Sass, BankKernelsMakeEveryLoadAtTheNamedWidth) {
  int checked = 0;
  for (const Function& f : sass()) {
    const bool chase = f.name.find("bank_chase_kernel") != std::string::npos;
    const bool throughput = f.name.find("bank_throughput_kernel") != std::string::npos;
    if (!is_sm90(f) || !(chase || throughput)) continue;
    const int width = width_of(f);
    const std::string lds = width == 16 ? "LDS.128" : width == 8 ? "LDS.64" : "LDS";
    int n = 0, other_loads = 0;
    for (const auto& op : timed_opcodes(f)) {
      n += op == lds;
      other_loads += op != lds && op.rfind("LD", 0) == 0 && op.rfind("LDC", 0) != 0;  // LDC: kernel arguments
    }
    // Whole unrolled groups: a chase step or an independent load that ptxas merged or dropped
    // would leave a remainder.
    const int group = chase ? archbench::kSmemChaseUnroll : archbench::kSmemLoadsPerIteration;
    EXPECT_GE(n, group) << f.name << ": " << lds;
    EXPECT_EQ(n % group, 0) << f.name << ": " << lds << " merged or dropped";
    EXPECT_EQ(other_loads, 0) << f.name << ": a load of another width in the timed loop";
    ++checked;
  }
  EXPECT_EQ(checked, 6);
}

TEST(Sass, DsmKernelsLoadThroughTheClusterWindow) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f)) continue;
    std::map<std::string, int> ops;
    for (const auto& op : f.opcodes) ++ops[op];
    if (f.name.find("dsm_bandwidth_kernel") != std::string::npos) {
      // Generic 16-byte loads into the shared window; strong (system scope) only for ld.volatile.
      const bool is_volatile = f.name.find("ILb1E") != std::string::npos;
      const int strong = ops["LD.E.128.STRONG.SYS"], weak = ops["LD.E.128"];
      EXPECT_EQ(is_volatile ? weak : strong, 0) << f.name;
      const int n = is_volatile ? strong : weak;
      EXPECT_GE(n, archbench::kSmemLoadsPerIteration) << f.name;
      EXPECT_EQ(n % archbench::kSmemLoadsPerIteration, 0) << f.name << ": loads merged or dropped";
      EXPECT_GE(ops["UCGABAR_WAIT"], 2) << f.name << ": no cluster barrier";
      ++checked;
    } else if (f.name.find("dsm_chase_kernel") != std::string::npos) {
      EXPECT_GE(ops["LD.E.STRONG.SYS"], archbench::kSmemChaseUnroll) << f.name << ": the remote chase";
      EXPECT_GE(ops["LDS"], archbench::kSmemChaseUnroll) << f.name << ": the ld.shared chase";
      ++checked;
    }
  }
  EXPECT_EQ(checked, 3);
}
