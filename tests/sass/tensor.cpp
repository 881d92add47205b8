// SASS checks: mma.sync and wgmma.
#include "sass_common.hpp"

// --- TensorCore kernels: mma_sync_kernel<Op, kIlp> and wgmma_kernel<Type, N, Mode> (sm_90a).

namespace {}  // namespace

TEST(Sass, MmaSyncKernelsIssueOneTensorInstructionPerStep) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("mma_sync_kernel") == std::string::npos) continue;
    for (const archbench::MmaOpInfo& op : archbench::mma_ops()) {
      // _ZN9archbench3dev3mma15mma_sync_kernelINS1_16f16_m16n8k16_f32ELi4EEEv... (sparse: sp_<name>)
      const std::string tag = std::to_string(op.kernel_tag().size()) + op.kernel_tag() + "ELi";
      if (f.name.find(tag) == std::string::npos) continue;
      ++checked;
      if (op.emulated_on_cc == 90) {
        // Why the suite skips it on sm_90: no fp8 tensor instruction, conversions to f16 instead.
        // Dense: ptxas hoists the product out of the loop (fewer HMMA than steps); sparse: two
        // HMMA.SP.16832.F32 (K 32 each) per step.
        EXPECT_EQ(count_prefix(f, op.sass), 0) << f.name;
        EXPECT_GT(count_prefix(f, "F2FP"), 0) << f.name << ": fp8 " << op.family() << " is no longer emulated on sm_90";
        if (op.sparse)
          EXPECT_EQ(count_prefix(f, "HMMA.SP.16832.F32"), 2 * archbench::kMmaBodySteps) << f.name;
        else
          EXPECT_LT(count_prefix(f, "HMMA"), archbench::kMmaBodySteps) << f.name;
        continue;
      }
      int native = 0, other_mma = 0;
      for (const auto& o : f.opcodes) {
        if (o == op.sass)
          ++native;
        else if (o.find("MMA") != std::string::npos)
          ++other_mma;
      }
      EXPECT_EQ(native, archbench::kMmaBodySteps)
          << f.name << ": expected " << archbench::kMmaBodySteps << " " << op.sass;
      EXPECT_EQ(other_mma, 0) << f.name;
    }
  }
  EXPECT_EQ(checked, int(archbench::mma_ops().size() * std::size(archbench::kMmaIlps)));
}

TEST(Sass, WgmmaKernelsIssueTheirWarpgroupMmaOfTheRightShape) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (f.arch != "sm_90a" || f.name.find("5wgmma12wgmma_kernelI") == std::string::npos) continue;  // dev::wgmma::wgmma_kernel
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

// Sparse: wgmma_sp_kernel<Type, N, Mode> holds <H|I|Q>GMMA.SP.64xNx(2K) only, in every mode.
TEST(Sass, SparseWgmmaKernelsIssueTheSparseInstructionOfTheRightShape) {
  int checked = 0;
  for (const Function& f : sass()) {
    if (f.arch != "sm_90a" || f.name.find("wgmma_sp_kernel") == std::string::npos) continue;
    int type = -1, n = 0, mode = -1;
    const auto at = f.name.find("WgmmaTypeE");
    ASSERT_NE(at, std::string::npos) << f.name;
    ASSERT_EQ(std::sscanf(f.name.c_str() + at, "WgmmaTypeE%dELi%dELNS_9WgmmaModeE%dE", &type, &n, &mode), 3) << f.name;
    const archbench::WgmmaTypeInfo& t = archbench::wgmma_types().at(std::size_t(type));
    const std::string want =
        std::string(t.sass) + ".SP.64x" + std::to_string(n) + "x" + std::to_string(2 * archbench::wgmma_k(t.type));
    int right = 0, wrong = 0;
    for (const auto& o : f.opcodes)
      if (o.find("GMMA") != std::string::npos) (o.rfind(want, 0) == 0 ? right : wrong)++;
    EXPECT_GT(right, archbench::kWgmmaPerIteration) << f.name << ": " << want;
    EXPECT_EQ((right - 1) % archbench::kWgmmaPerIteration, 0) << f.name << ": " << right << " " << want;
    EXPECT_EQ(wrong, 0) << f.name;
    ++checked;
  }
  EXPECT_EQ(checked, int(archbench::wgmma_types().size() * std::size(archbench::kWgmmaNs) * 3))
      << "one sparse kernel per type x N x mode, in sm_90a code";
}

// --- The numerics kernels (kernels/tc_numerics.cu): tc_numerics_kernel<T> (T: the op's index),
// tc_numerics_f64_kernel; each holds its one instruction (fp8: the two HMMAs ptxas makes of it).
// And wgmma's, one GMMA each.
TEST(Sass, NumericsKernelsHoldTheirOneTensorInstruction) {
  // The kernel named `name` with template tag `tag` holds `count` of `sass` and no other MMA.
  const auto holds = [](const char* name, const std::string& tag, const archbench::TcNumericsOp& op, int count) {
    const auto found = kernels(name, tag);
    ASSERT_EQ(found.size(), 1u) << name << " " << op.dtype;
    int mine = 0, other_mma = 0;
    for (const auto& o : found.front()->opcodes) {
      if (o == op.sass)
        ++mine;
      else if (o.find("MMA") != std::string::npos)
        ++other_mma;
    }
    EXPECT_EQ(mine, count) << name << " " << op.dtype << ": " << op.sass;
    EXPECT_EQ(other_mma, 0) << name << " " << op.dtype;
  };
  const auto& ops = archbench::tc_numerics_ops();
  for (std::size_t t = 0; t < ops.size(); ++t) {
    if (std::string(ops[t].dtype) == "f64")
      holds("tc_numerics_f64_kernel", "", ops[t], ops[t].sass_count);
    else
      holds("tc_numerics_kernel", "ILi" + std::to_string(t) + "E", ops[t], ops[t].sass_count);
  }
  // wgmma's (kernels/tc_numerics_wgmma.cu, sm_90a only): one GMMA each.
  const auto& wgmma_ops = archbench::tc_numerics_wgmma_ops();
  for (std::size_t t = 0; t < wgmma_ops.size(); ++t)
    holds("tc_numerics_wgmma_kernel", "ILi" + std::to_string(t) + "E", wgmma_ops[t], 1);
}
