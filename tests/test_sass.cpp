// SASS checks on the built archbench binary (cuobjdump -sass): each pointer-chase kernel has the
// load with the cache hint it claims, in the expected count, so nothing was folded or hoisted.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/pchase.hpp"

namespace {

using archbench::kChainUnroll;

struct Function {
  std::string arch;                  // "sm_90"
  std::string name;                  // mangled
  std::vector<std::string> opcodes;  // first token of each instruction, predicate removed
};

std::string run(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe.get())) out.append(buf, n);
  return out;
}

std::vector<Function> parse_sass(const std::string& text) {
  std::vector<Function> fns;
  std::string arch;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (auto p = line.find("code for sm_"); p != std::string::npos) {
      arch = line.substr(p + 9);
      arch = arch.substr(0, arch.find_first_of(" \t\r"));
    } else if (auto f = line.find("Function : "); f != std::string::npos) {
      fns.push_back({arch, line.substr(f + 11), {}});
    } else if (!fns.empty() && line.find("/*") != std::string::npos && line.find("*/") != std::string::npos) {
      // "        /*00f0*/                   LDG.E.STRONG.SM R21, desc[UR6][R2.64] ;"
      const auto end_addr = line.find("*/");
      std::istringstream ins(line.substr(end_addr + 2));
      std::string tok;
      ins >> tok;
      if (!tok.empty() && tok[0] == '@') ins >> tok;
      if (!tok.empty() && tok[0] != '/') fns.back().opcodes.push_back(tok);
    }
  }
  return fns;
}

std::vector<Function>& sass() {
  static std::vector<Function> fns = parse_sass(run(std::string("\"") + ARCHBENCH_CUOBJDUMP + "\" -sass \"" +
                                                    ARCHBENCH_BINARY + "\" 2>&1"));
  return fns;
}

bool is_sm90(const Function& f) { return f.arch.rfind("sm_90", 0) == 0; }

std::vector<const Function*> kernels(const std::string& kernel, const std::string& tag) {
  std::vector<const Function*> out;
  for (const Function& f : sass())
    if (is_sm90(f) && f.name.find(kernel) != std::string::npos && f.name.find(tag) != std::string::npos)
      out.push_back(&f);
  return out;
}

std::map<std::string, int> loads(const Function& f) {
  std::map<std::string, int> m;
  for (const std::string& op : f.opcodes)
    if (op.rfind("LDG", 0) == 0 || op.rfind("LD.", 0) == 0 || op == "LD") ++m[op];
  return m;
}

struct OpCase {
  const char* tag;      // mangled tag type: "6LoadCa"
  const char* sass32;   // the only global load allowed in the 32-bit index chase (fine)
  const char* sass64;   // ... and in the 64-bit pointer chase (chain)
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

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (std::string(ARCHBENCH_CUOBJDUMP).empty() || std::string(ARCHBENCH_CUOBJDUMP).find("NOTFOUND") != std::string::npos) {
    std::printf("cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm): skipped\n");
    return ARCHBENCH_SKIP_CODE;
  }
  bool any_sm90 = false;
  for (const Function& f : sass()) any_sm90 = any_sm90 || is_sm90(f);
  if (!any_sm90) {
    std::printf("the binary holds no sm_90 code (CMAKE_CUDA_ARCHITECTURES without 90): skipped\n");
    return ARCHBENCH_SKIP_CODE;
  }
  return RUN_ALL_TESTS();
}
