// SASS checks: the pipeline kernels, one instruction per step and nothing folded.
#include <algorithm>

#include "sass_common.hpp"

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
    // The loop's own compare (the ISETP that writes the backward branch's predicate) is not the
    // op's: an op whose step compares (vibmax_u32: ISETP.GE.U32.AND) would count it.
    std::size_t loop_compare = f.opcodes.size();
    if (const auto at = f.text[i].find('@'); at != std::string::npos) {
      std::string pred = f.text[i].substr(at + 1, f.text[i].find(' ', at) - at - 1);
      if (!pred.empty() && pred[0] == '!') pred.erase(0, 1);
      for (std::size_t j = i; j-- > clocks[0] && f.address[j] >= target;)
        if (f.opcodes[j].rfind("ISETP", 0) == 0 && f.text[j].find(" " + pred + ",") != std::string::npos) {
          loop_compare = j;
          break;
        }
    }
    std::map<std::string, int> m;
    for (std::size_t j = clocks[0]; j <= i; ++j)
      if (f.address[j] >= target && j != loop_compare) ++m[f.opcodes[j]];
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
    // A DPX table op has one throughput shape (kDpxTableIlp), the others one kernel per ILP.
    const int throughput_kernels = archbench::is_dpx_table(op.op) ? 1 : int(std::size(archbench::kPipelineIlps));
    EXPECT_EQ(found, throughput_kernels + 2) << op.name << ": one kernel per throughput ILP + two latency bodies";
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
    const int expected = (op->compiler_packs_pairs && k.ilp >= 2 ? k.body / 2 : k.body) * op->calls_per_step;
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
    EXPECT_LE(others, 10 + (packed ? 2 * k.ilp + 2 : 0))
        << k.fn->name << ": unexpected instructions in the timed loop: " << [&] {
             std::string list;
             for (const auto& [opcode, n] : region) list += opcode + "x" + std::to_string(n) + " ";
             return list;
           }();
  }
}
