// SASS checks on the built archbench binary (cuobjdump -sass): each kernel has the instruction it
// claims to measure (the load with its cache hint, the arithmetic op), in the expected count, so
// nothing was folded, hoisted or turned into another instruction.
#include <algorithm>
#include <gtest/gtest.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "fixtures/pipeline_ops.hpp"
#include "kernels/bandwidth.hpp"
#include "kernels/energy.hpp"
#include "kernels/async_copy.hpp"
#include "kernels/sync.hpp"
#include "kernels/icache.hpp"
#include "kernels/pchase.hpp"
#include "kernels/pipeline.hpp"
#include "kernels/smem.hpp"
#include "kernels/tensor.hpp"

namespace {

using archbench::kChainUnroll;

struct Function {
  std::string arch;                  // "sm_90"
  std::string name;                  // mangled
  std::vector<std::string> opcodes;  // first token of each instruction, predicate removed
  std::vector<std::string> text;     // the whole instruction, in the same order
  std::vector<long> address;         // its offset in the function
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
      fns.push_back({arch, line.substr(f + 11), {}, {}, {}});
    } else if (!fns.empty() && line.find("/*") != std::string::npos && line.find("*/") != std::string::npos) {
      // "        /*00f0*/                   LDG.E.STRONG.SM R21, desc[UR6][R2.64] ;"
      const auto end_addr = line.find("*/");
      std::istringstream ins(line.substr(end_addr + 2));
      std::string tok;
      ins >> tok;
      if (!tok.empty() && tok[0] == '@') ins >> tok;
      if (!tok.empty() && tok[0] != '/') {
        fns.back().opcodes.push_back(tok);
        fns.back().text.push_back(line.substr(end_addr + 2));
        fns.back().address.push_back(std::strtol(line.c_str() + line.find("/*") + 2, nullptr, 16));
      }
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

// --- Pipeline kernels: pipeline_kernel<ops::NAME, ILP, BODY>
namespace {

struct PipelineKernel {
  const Function* fn;
  std::string op;
  int ilp, body;
};

std::vector<PipelineKernel> pipeline_kernels() {
  std::vector<PipelineKernel> out;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("pipeline_kernel") == std::string::npos) continue;
    // _ZN9archbench3dev15pipeline_kernelINS0_3ops4ffmaELi8ELi512EEEv...
    const auto ops = f.name.find("3ops");
    if (ops == std::string::npos) continue;
    std::size_t pos = ops + 4, len = 0;
    while (std::isdigit(static_cast<unsigned char>(f.name[pos]))) len = len * 10 + (f.name[pos++] - '0');
    PipelineKernel k{&f, f.name.substr(pos, len), 0, 0};
    if (std::sscanf(f.name.c_str() + pos + len, "ELi%dELi%dE", &k.ilp, &k.body) == 2) out.push_back(k);
  }
  return out;
}

// Opcodes of the timed loop's body: from the target of the backward branch that closes the loop
// to that branch, between the two clock reads that bound the timed window.
std::map<std::string, int> timed_loop(const Function& f) {
  std::vector<std::size_t> clocks;
  for (std::size_t i = 0; i < f.opcodes.size(); ++i)
    if (f.opcodes[i] == "CS2R" && f.text[i].find("SR_CLOCKLO") != std::string::npos) clocks.push_back(i);
  if (clocks.size() != 2) return {};
  for (std::size_t i = clocks[0]; i < clocks[1]; ++i) {
    const auto bra = f.text[i].find("BRA 0x");
    if (f.opcodes[i] != "BRA" || bra == std::string::npos) continue;
    const long target = std::strtol(f.text[i].c_str() + bra + 4, nullptr, 16);
    if (target >= f.address[i]) continue;  // a forward branch
    std::map<std::string, int> m;
    for (std::size_t j = clocks[0]; j <= i; ++j)
      if (f.address[j] >= target) ++m[f.opcodes[j]];
    return m;
  }
  return {};
}

}  // namespace

TEST(Sass, EveryPipelineOpAndShapeIsCompiled) {
  const auto ks = pipeline_kernels();
  for (const archbench::PipeOpInfo& op : archbench::pipe_ops()) {
    int found = 0;
    for (const auto& k : ks) found += k.op == op.name;
    EXPECT_EQ(found, int(std::size(archbench::kPipelineIlps)) + 2) << op.name << ": one kernel per ILP + two latency bodies";
  }
}

TEST(Sass, PipelineLoopHoldsOneInstructionPerStepAndNothingFolded) {
  for (const auto& k : pipeline_kernels()) {
    const archbench::PipeOpInfo* op = nullptr;
    for (const auto& o : archbench::pipe_ops())
      if (k.op == o.name) op = &o;
    ASSERT_NE(op, nullptr) << k.fn->name;
    const auto region = timed_loop(*k.fn);
    ASSERT_FALSE(region.empty()) << k.fn->name << ": no loop between two CS2R SR_CLOCKLO";
    // ptxas packs two independent scalar 16-bit chains into one x2 instruction (a finding).
    const int expected = op->compiler_packs_pairs && k.ilp >= 2 ? k.body / 2 : k.body;
    int got = 0;
    std::string seen;
    for (const auto& opcode : op->sass)
        if (region.count(opcode)) {
          got += region.at(opcode);
          seen += opcode + "x" + std::to_string(region.at(opcode)) + " ";
        }
    EXPECT_EQ(got, expected) << k.fn->name << ": " << seen;
    // helpers_per_step helper instructions per step where the op has any, of the opcodes listed
    // (a control chain's step: its compare, its forward branch and, for elect, the move of the
    // elected lane; the loop's own backward branch is not a helper).
    if (!op->sass_helpers.empty()) {
      int helpers = 0;
      for (const auto& helper : op->sass_helpers) helpers += region.count(helper) ? region.at(helper) : 0;
      if (std::find(op->sass_helpers.begin(), op->sass_helpers.end(), "BRA") != op->sass_helpers.end())
        --helpers;  // the loop's own backward branch
      EXPECT_EQ(helpers, op->helpers_per_step * k.body) << k.fn->name << ": " << op->sass_helpers.front();
    }
    // Besides the op: the loop's counter, compare and branch, a few register moves where ptxas
    // rotates loop-carried registers (under 2 % of the issue slots); packed scalar chains also move
    // their halves in and out of the pairs (PRMT) once per loop iteration.
    // A control chain's branch may sit in a convergence barrier (BSSY ... BSYNC): one pair per
    // step or none.
    const bool control_chain =
        std::find(op->sass_helpers.begin(), op->sass_helpers.end(), "BRA") != op->sass_helpers.end();
    for (const char* barrier : {"BSSY", "BSYNC"}) {
      const int n = region.count(barrier) ? region.at(barrier) : 0;
      if (control_chain) {
        EXPECT_TRUE(n == 0 || n == k.body) << k.fn->name << ": " << barrier << " x" << n;
      }
    }
    int others = 0;
    for (const auto& [opcode, n] : region) {
      if (control_chain && (opcode == "BSSY" || opcode == "BSYNC")) continue;
      bool mine = false;
      for (const auto& a : op->sass) mine = mine || opcode == a;
      for (const auto& h : op->sass_helpers) mine = mine || opcode == h;
      if (!mine && opcode != "NOP;" && opcode != "NOP") others += n;
    }
    const bool packed = op->compiler_packs_pairs && k.ilp >= 2;
    EXPECT_LE(others, 10 + (packed ? 2 * k.ilp + 2 : 0)) << k.fn->name << ": unexpected instructions in the timed loop: " << [&] {
      std::string list;
      for (const auto& [opcode, n] : region) list += opcode + "x" + std::to_string(n) + " ";
      return list;
    }();
  }
}

// --- Bandwidth kernels: bandwidth_kernel<Kind, Ld, St, width>

namespace {

// The SASS each PTX cache operator becomes on sm_90 (the hint moves around the width suffix).
std::string expected_load(const std::string& op, int width) {
  const std::string w = width == 16 ? ".128" : width == 8 ? ".64" : "";
  if (op == "LdDefault") return "LDG.E" + w;
  if (op == "LdCa") return "LDG.E" + w + ".STRONG.SM";
  if (op == "LdCg") return "LDG.E" + w + ".STRONG.GPU";
  if (op == "LdCv") return "LDG.E" + w + ".STRONG.SYS";
  if (op == "LdNc") return "LDG.E" + w + ".CONSTANT";
  if (op == "LdCs") return "LDG.E.EF" + w;
  if (op == "LdLu") return "LDG.E.LU" + w;
  if (op == "LdNa") return "LDG.E.NA" + w;
  return "?";
}
std::string expected_store(const std::string& op, int width) {
  const std::string w = width == 16 ? ".128" : width == 8 ? ".64" : "";
  if (op == "StDefault") return "STG.E" + w;
  if (op == "StWb") return "STG.E" + w + ".STRONG.SM";
  if (op == "StCg") return "STG.E" + w + ".STRONG.GPU";
  if (op == "StWt") return "STG.E" + w + ".STRONG.SYS";
  if (op == "StCs") return "STG.E.EF" + w;
  if (op == "StNa") return "STG.E.NA" + w;
  return "?";
}

// The opcodes between the two clock reads (the timed passes), in order.
std::vector<std::string> timed_opcodes(const Function& f) {
  std::vector<std::string> out;
  int clocks = 0;
  for (std::size_t i = 0; i < f.opcodes.size(); ++i) {
    if (f.opcodes[i] == "CS2R" && f.text[i].find("SR_CLOCKLO") != std::string::npos) ++clocks;
    else if (clocks == 1) out.push_back(f.opcodes[i]);
  }
  return clocks == 2 ? out : std::vector<std::string>{};
}

// The most global loads in the timed window that are issued, one after another, before any
// instruction reads a register one of them loads (each load writes regs_per_load registers):
// how many accesses a thread has in flight.
int loads_in_flight(const Function& f, int regs_per_load) {
  int clocks = 0, run = 0, most = 0;
  std::set<int> pending;
  const std::regex reg(R"(\bR(\d+)\b)");
  for (std::size_t i = 0; i < f.opcodes.size(); ++i) {
    if (f.opcodes[i] == "CS2R" && f.text[i].find("SR_CLOCKLO") != std::string::npos) {
      ++clocks;
      continue;
    }
    if (clocks != 1) continue;
    std::string operands = f.text[i].substr(f.text[i].find(f.opcodes[i]) + f.opcodes[i].size());
    std::vector<int> regs;
    for (std::sregex_iterator it(operands.begin(), operands.end(), reg), end; it != end; ++it)
      regs.push_back(std::stoi((*it)[1]));
    if (f.opcodes[i].rfind("LDG", 0) == 0 && !regs.empty()) {
      for (int r = regs[0]; r < regs[0] + regs_per_load; ++r) pending.insert(r);
      most = std::max(most, ++run);
      continue;
    }
    for (std::size_t k = 1; k < regs.size(); ++k)  // the sources (the first register is written)
      if (pending.count(regs[k])) {
        pending.clear();
        run = 0;
        break;
      }
  }
  return most;
}

}  // namespace

// A tag type in a mangled name, "NS1_<length><name>", from pos on (pos moves past it).
std::string next_tag(const std::string& name, std::size_t& pos) {
  pos = name.find("NS1_", pos) + 4;
  std::size_t len = 0;
  while (std::isdigit(static_cast<unsigned char>(name[pos]))) len = len * 10 + (name[pos++] - '0');
  pos += len;
  return name.substr(pos - len, len);
}

TEST(Sass, BandwidthKernelsUseTheNamedCacheOperatorAtEveryWidth) {
  int checked = 0, pinned = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("dev2bw16bandwidth_kernel") == std::string::npos) continue;
    // _ZN9archbench3dev2bw16bandwidth_kernelILNS1_4KindE2ENS1_4LdCgENS1_4StCgELi16ELi4ELb0EEEv...
    const auto k = f.name.find("KindE");
    ASSERT_NE(k, std::string::npos) << f.name;
    std::size_t pos = k + 5;
    const int kind = f.name[pos] - '0';
    pos += 2;  // digit, 'E'
    const std::string ld = next_tag(f.name, pos), st = next_tag(f.name, pos);
    int width = 0, unroll = 0, is_pinned = 0;
    ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dELi%dELb%dE", &width, &unroll, &is_pinned), 3) << f.name;
    const bool loads = kind != 1, stores = kind != 0;  // Kind: read, write, copy, rmw
    const auto ops = timed_opcodes(f);
    ASSERT_FALSE(ops.empty()) << f.name;
    int n_load = 0, n_store = 0, other_global = 0;
    for (const auto& op : ops) {
      if (loads && op == expected_load(ld, width)) ++n_load;
      else if (stores && op == expected_store(st, width)) ++n_store;
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0) ++other_global;
    }
    // `unroll` accesses of each kind in the loop and `unroll - 1` predicated ones in the slice's
    // last, partial group (never a loop of single accesses: the group has fewer than `unroll`);
    // the fold's STG.E.64 for the self-check is the only other global access in the window (it
    // may share the store's opcode).
    EXPECT_EQ(n_load, loads ? 2 * unroll - 1 : 0) << f.name << ": " << expected_load(ld, width);
    const bool check_matches = expected_store(st, width) == "STG.E.64" && stores;
    EXPECT_EQ(n_store, stores ? 2 * unroll - 1 + (check_matches ? 1 : 0) : 0) << f.name << ": " << expected_store(st, width);
    EXPECT_EQ(other_global, check_matches ? 0 : 1) << f.name;
    // `unroll` loads in flight per thread, as bytes_in_flight_per_sm claims (at 4 and 8 B ptxas
    // once scheduled a fold before the 4th load: DRAM reads a quarter slower). Unroll 8 at 16 B
    // holds its 32 value registers within the 64 a 1024-thread block allows by folding one
    // early: 7 in flight.
    if (loads && kind == 0) {
      const int want = unroll * width / 4 >= 32 ? unroll - 1 : unroll;
      EXPECT_GE(loads_in_flight(f, width / 4), want) << f.name << ": loads in flight";
    }
    ++checked;
    pinned += is_pinned;  // the instantiation for chosen SMs times the same loop
  }
  // Every variant x width at unroll 4, plus the DRAM tuning's other unrolls at 16 B.
  EXPECT_GE(checked - pinned, int(archbench::bw_variants().size()) * 3) << "every variant x width";
  EXPECT_EQ(pinned, 5) << "the five shape variants at 16 B, for chosen SMs";
  EXPECT_EQ(archbench::bw_variants().size(), 18u);
}

// The dynamic-distribution, shared-data and line-list kernels: every global access in the timed
// window is the named operator at 16 B (besides the ticket atomics, the list reads from shared
// memory, the claimed-work count and the fold), `unroll` or a multiple of them in flight.
TEST(Sass, BandwidthDynamicSharedAndLineKernelsUseTheNamedOperator) {
  int dynamic = 0, shared = 0, lines = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("dev2bw") == std::string::npos) continue;
    const bool by_block = f.name.find("bandwidth_block_dynamic_kernel") != std::string::npos;
    const bool is_dynamic = by_block || f.name.find("bandwidth_dynamic_kernel") != std::string::npos;
    const bool is_shared = f.name.find("bandwidth_shared_kernel") != std::string::npos;
    const bool is_lines = f.name.find("bandwidth_lines_kernel") != std::string::npos;
    if (!is_dynamic && !is_shared && !is_lines) continue;
    std::size_t pos = 0;
    int kind = 0;
    if (is_dynamic) {
      pos = f.name.find("KindE") + 5;
      kind = f.name[pos] - '0';
      pos += 2;
    }
    const std::string ld = next_tag(f.name, pos);
    const std::string st = is_dynamic ? next_tag(f.name, pos) : "";
    int width = 16, unroll = 0;
    if (is_lines) ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dE", &unroll), 1) << f.name;
    else ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dELi%dE", &width, &unroll), 2) << f.name;
    const bool loads = kind != 1, stores = is_dynamic && kind != 0;
    const auto ops = timed_opcodes(f);
    ASSERT_FALSE(ops.empty()) << f.name;
    int n_load = 0, n_store = 0, atomics = 0, lds = 0, other_global = 0;
    for (const auto& op : ops) {
      if (loads && op == expected_load(ld, width)) ++n_load;
      else if (stores && op == expected_store(st, width)) ++n_store;
      else if (op.rfind("ATOMG", 0) == 0) ++atomics;
      else if (op == "LDS") ++lds;
      else if (op == "STG.E" || op == "STG.E.64") continue;  // claimed work, the fold
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0) ++other_global;
    }
    EXPECT_EQ(other_global, 0) << f.name;
    if (loads) {
      EXPECT_TRUE(n_load >= unroll && n_load % unroll == 0) << f.name << ": " << n_load << " loads";
    }
    if (stores) {
      EXPECT_TRUE(n_store >= unroll && n_store % unroll == 0) << f.name << ": " << n_store << " stores";
    }
    // A warp claims its first ticket and the next (ahead) in the window; a block its first before it.
    EXPECT_EQ(atomics, is_dynamic ? (by_block ? 1 : 2) : 0) << f.name << ": tickets claimed in the timed window";
    if (is_lines) {
      EXPECT_EQ(lds, unroll) << f.name << ": one list read per access";
    }
    dynamic += is_dynamic;
    shared += is_shared;
    lines += is_lines;
  }
  EXPECT_GE(dynamic, 15 + 8);  // by warps, and by blocks
  EXPECT_EQ(shared, 3);
  EXPECT_EQ(lines, 3);
}

// The grid-order kernels: each thread's `unroll` accesses are the named operator at 16 B, each
// exactly once (no pass loop), and the only other global operations are the per-SM timing
// atomics (minimum start, maximum end: two each) and, for a read, the fold's conditional store.
TEST(Sass, BandwidthGridOrderKernelsMakeEachAccessOnce) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("bandwidth_grid_kernel") == std::string::npos) continue;
    std::size_t pos = f.name.find("KindE") + 5;
    const int kind = f.name[pos] - '0';
    pos += 2;
    const std::string ld = next_tag(f.name, pos);
    const std::string st = next_tag(f.name, pos);
    int width = 0, unroll = 0;
    ASSERT_EQ(std::sscanf(f.name.c_str() + pos, "ELi%dELi%dE", &width, &unroll), 2) << f.name;
    const bool loads = kind != 1, stores = kind != 0;
    int n_load = 0, n_store = 0, atomics = 0, other_global = 0;
    for (const auto& op : f.opcodes) {
      if (loads && op == expected_load(ld, width)) ++n_load;
      else if (stores && op == expected_store(st, width)) ++n_store;
      else if (op.rfind("ATOMG", 0) == 0 || op.rfind("RED", 0) == 0) ++atomics;
      else if (!stores && op == "STG.E.64") continue;  // a read's fold, stored only on the marker
      else if (op.rfind("LDG", 0) == 0 || op.rfind("STG", 0) == 0) ++other_global;
    }
    EXPECT_EQ(n_load, loads ? unroll : 0) << f.name << ": " << expected_load(ld, width);
    EXPECT_EQ(n_store, stores ? unroll : 0) << f.name << ": " << expected_store(st, width);
    EXPECT_EQ(atomics, 4) << f.name << ": the timing atomics";
    EXPECT_EQ(other_global, 0) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, 10);  // read ld.nc, write st and st.cs, copy ld+st and ld.cg+st.cg; unroll 1 and 2
}

// The timed loop of a shared-memory kernel templated on its access width (ILi<width>E) holds
// whole passes of `per_pass` accesses of that width (LDS or STS, .64, .128): ptxas may unroll the
// pass loop, never merge or drop the volatile accesses. Returns the kernels checked.
int expect_whole_passes_of_wide_shared_accesses(const std::string& kernel, const std::string& opcode, int per_pass) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find(kernel) == std::string::npos) continue;
    int width = 0;
    EXPECT_EQ(std::sscanf(f.name.c_str() + f.name.find("ILi"), "ILi%dE", &width), 1) << f.name;
    const std::string wide = opcode + (width == 16 ? ".128" : width == 8 ? ".64" : "");
    int n = 0;
    for (const auto& op : timed_opcodes(f)) n += op == wide;
    EXPECT_GE(n, per_pass) << f.name << ": " << wide;
    EXPECT_EQ(n % per_pass, 0) << f.name << ": " << wide << " merged or dropped";
    ++checked;
  }
  return checked;
}

TEST(Sass, SharedMemoryBandwidthKernelUsesWideLds) {
  EXPECT_EQ(expect_whole_passes_of_wide_shared_accesses("smem_read_kernel", "LDS", archbench::kSmemReadsPerThreadPerPass), 3);
}

// --- Energy's own kernels (kernels/energy.cu): stores at every width, and a rest that only sleeps
TEST(Sass, EnergyKernelsStoreWideToSharedMemoryAndRestAtTheBarrier) {
  EXPECT_EQ(expect_whole_passes_of_wide_shared_accesses("smem_write_kernel", "STS", archbench::kSmemWritesPerThreadPerPass), 3);
  int rests = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("resident_rest_kernel") == std::string::npos) continue;
    bool sleeps = false, waits = false;
    for (const std::string& op : f.opcodes) {
      sleeps |= op == "NANOSLEEP";
      waits |= op.rfind("BAR", 0) == 0;
      EXPECT_TRUE(op.find("FMA") == std::string::npos && op.rfind("LDG", 0) != 0) << f.name << ": " << op;
    }
    EXPECT_TRUE(sleeps && waits) << f.name;
    ++rests;
  }
  EXPECT_EQ(rests, 1);
}

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

TEST(Sass, SchedulingKernelsRunTheirFfmaChains) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f)) continue;
    if (f.name.find("sustained_ffma_kernel") == std::string::npos && f.name.find("timeline_ffma_kernel") == std::string::npos &&
        f.name.find("pair_ffma_kernel") == std::string::npos)
      continue;
    int ffma = 0;
    for (const auto& op : f.opcodes) ffma += op == "FFMA";
    EXPECT_GE(ffma, 128) << f.name << ": the chains were folded (8 chains x 16 unrolled steps)";
    ++checked;
  }
  EXPECT_EQ(checked, 3);
}

// --- TensorCore kernels: mma_sync_kernel<Op, kIlp> and wgmma_kernel<Type, N, Mode> (sm_90a).

namespace {

int count_prefix(const Function& f, const std::string& prefix) {
  int n = 0;
  for (const auto& op : f.opcodes) n += op.rfind(prefix, 0) == 0;
  return n;
}

}  // namespace

TEST(Sass, MmaSyncKernelsIssueOneTensorInstructionPerStep) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("mma_sync_kernel") == std::string::npos) continue;
    for (const archbench::MmaOpInfo& op : archbench::mma_ops()) {
      // _ZN9archbench3dev3mma15mma_sync_kernelINS1_16f16_m16n8k16_f32ELi4EEEv...
      const std::string tag = std::to_string(std::strlen(op.name)) + op.name + "ELi";
      if (f.name.find(tag) == std::string::npos) continue;
      ++checked;
      if (op.emulated_on_cc == 90) {
        // Why the suite skips it on sm_90: no fp8 tensor instruction, conversions instead.
        EXPECT_LT(count_prefix(f, "HMMA"), archbench::kMmaBodySteps) << f.name;
        EXPECT_GT(count_prefix(f, "F2FP"), 0) << f.name << ": fp8 mma.sync is no longer emulated on sm_90";
        continue;
      }
      int native = 0, other_mma = 0;
      for (const auto& o : f.opcodes) {
        if (o == op.sass) ++native;
        else if (o.find("MMA") != std::string::npos) ++other_mma;
      }
      EXPECT_EQ(native, archbench::kMmaBodySteps) << f.name << ": expected " << archbench::kMmaBodySteps << " " << op.sass;
      EXPECT_EQ(other_mma, 0) << f.name;
    }
  }
  EXPECT_EQ(checked, int(archbench::mma_ops().size() * std::size(archbench::kMmaIlps)));
}

TEST(Sass, WgmmaKernelsIssueTheirWarpgroupMmaOfTheRightShape) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (f.arch != "sm_90a" || f.name.find("wgmma_kernel") == std::string::npos) continue;
    // ..._ZN9archbench3dev5wgmma12wgmma_kernelILNS_9WgmmaTypeE6ELi256ELNS_9WgmmaModeE2EEEv...
    int type = -1, n = 0, mode = -1;
    const auto at = f.name.find("WgmmaTypeE");
    ASSERT_NE(at, std::string::npos) << f.name;
    ASSERT_EQ(std::sscanf(f.name.c_str() + at, "WgmmaTypeE%dELi%dELNS_9WgmmaModeE%dE", &type, &n, &mode), 3) << f.name;
    const archbench::WgmmaTypeInfo& t = archbench::wgmma_types().at(std::size_t(type));
    const std::string shape = "64x" + std::to_string(n) + "x" + std::to_string(archbench::wgmma_k(t.type));
    int right = 0, wrong = 0;
    for (std::size_t i = 0; i < f.opcodes.size(); ++i) {
      if (f.opcodes[i].find("GMMA") == std::string::npos) continue;
      (f.opcodes[i].rfind(std::string(t.sass) + "." + shape, 0) == 0 ? right : wrong)++;
    }
    // The first wgmma, then the loop's kWgmmaPerIteration (ptxas may unroll the loop further).
    EXPECT_GT(right, archbench::kWgmmaPerIteration) << f.name << ": " << t.sass << "." << shape;
    EXPECT_EQ((right - 1) % archbench::kWgmmaPerIteration, 0) << f.name << ": " << right << " " << t.sass;
    EXPECT_EQ(wrong, 0) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, int(archbench::wgmma_types().size() * std::size(archbench::kWgmmaNs) * 3))
      << "one kernel per type x N x mode, in sm_90a code";
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

TEST(Sass, StreamReadIsOneWideL2LoadPerElement) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("stream_read_kernel") == std::string::npos) continue;
    int wide_cg = 0, other = 0;
    for (const std::string& op : f.opcodes) {
      wide_cg += op == "LDG.E.128.STRONG.GPU";
      other += op.rfind("LDG", 0) == 0 && op != "LDG.E.128.STRONG.GPU";
    }
    EXPECT_GE(wide_cg, 1) << f.name << ": 16-byte ld.global.cg loads (the census reads every slice and channel)";
    EXPECT_EQ(other, 0) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

TEST(Sass, ReferenceStoreKernelIsOneEightByteStorePerElement) {
  // Bandwidth's reference row: the store loop a user writes, one 8-byte store per element, no load.
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("reference_store_kernel") == std::string::npos) continue;
    int stores = 0, loads = 0;
    for (const std::string& op : f.opcodes) {
      stores += op == "STG.E.64";
      loads += op.rfind("LDG", 0) == 0;
    }
    EXPECT_GE(stores, 1) << f.name;
    EXPECT_EQ(loads, 0) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, 1);
}

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

TEST(Sass, PdlStampKernelsWaitForTheGridBeforeTheirStamp) {
  int pdl = 0, plain = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("stamp_kernel") == std::string::npos) continue;
    const bool is_pdl = f.name.find("ELb1E") != std::string::npos;
    bool waits = false;
    for (const auto& op : f.opcodes) waits = waits || op.rfind("ACQBULK", 0) == 0;
    EXPECT_EQ(waits, is_pdl) << f.name << ": griddepcontrol.wait (ACQBULK) in the pdl kernel only";
    (is_pdl ? pdl : plain)++;
  }
  EXPECT_EQ(pdl, 5) << "one pdl kernel per parameter size";
  EXPECT_EQ(plain, 5) << "one per parameter size";
}

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
        EXPECT_TRUE(n >= u && n % u == 0) << f.name << ": " << n << " " << ldg_plain << " for " << u << " loads in flight";
        EXPECT_GE(count_prefix(f, "STS"), u) << f.name;
        EXPECT_EQ(count_prefix(f, "LDGSTS"), 0) << f.name;
      } else {
        const std::string ldgsts = AsyncOp(op) == AsyncOp::cp_async_cg ? "LDGSTS.E.BYPASS.128"
                                   : w == 4                          ? "LDGSTS.E"
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
          EXPECT_GE(count_exact(f, "UTMALDG." + std::to_string(d) + "D"), 1) << f.name << ": no " << d << "D tensor load";
      }
      EXPECT_GE(count_exact(f, "SYNCS.PHASECHK.TRANS64.TRYWAIT"), 1) << f.name << ": no wait on the stage's mbarrier";
      ++tma_kernels;
    } else if (f.name.find("async_store_kernel") != std::string::npos) {
      ASSERT_EQ(std::sscanf(f.name.c_str() + f.name.find("AsyncOpE") + 8, "%dE", &op), 1) << f.name;
      switch (AsyncOp(op)) {
        case AsyncOp::st_global: EXPECT_GE(count_exact(f, "STG.E.128"), 1) << f.name; break;
        case AsyncOp::bulk_store: EXPECT_GE(count_exact(f, "UBLKCP.G.S"), 1) << f.name; break;
        case AsyncOp::bulk_reduce_add: EXPECT_GE(count_exact(f, "UBLKRED.G.S.ADD"), 1) << f.name; break;
        case AsyncOp::tensor_store:
          for (int d = 1; d <= 5; ++d) EXPECT_GE(count_exact(f, "UTMASTG." + std::to_string(d) + "D"), 1) << f.name;
          break;
        default: ADD_FAILURE() << f.name << ": a store kernel of a load path";
      }
      if (AsyncOp(op) != AsyncOp::st_global) {
        EXPECT_TRUE(has_text(f, "FENCE.VIEW.ASYNC.S")) << f.name << ": the TMA reads shared memory written without a proxy fence";
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
