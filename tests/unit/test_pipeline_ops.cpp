// The Pipeline op catalogue: peak table lookups and the host replay used by the self-check.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <set>
#include <string>

#include "kernels/shared/pipeline_ops.hpp"

using namespace archbench;

TEST(PipelineOps, NamesAreUniqueAndEveryOpHasItsSass) {
  std::set<std::string> names;
  for (const PipeOpInfo& op : pipe_ops()) {
    EXPECT_TRUE(names.insert(op.name).second) << op.name;
    EXPECT_FALSE(op.sass.empty()) << op.name;
    EXPECT_EQ(&pipe_op_info(op.op), &op);
    EXPECT_GE(op.results_per_step, 1);
  }
}

TEST(PipelineOps, PeakTableFollowsTheProgrammingGuide) {
  // Reference values for tests only (Hopper 9.0, A100 8.0, GA10x 8.6); none: unknown (a compute
  // capability missing from the table, bf16 before sm_80, DPX everywhere).
  const std::optional<double> none;
  const struct {
    PeakClass op;
    int cc;
    std::optional<double> per_clk_per_sm;
  } cases[] = {{PeakClass::fp32, 90, 128.0}, {PeakClass::fp64, 90, 64.0}, {PeakClass::fp16, 90, 256.0},
               {PeakClass::fp32, 80, 64.0},  {PeakClass::fp64, 86, 2.0},  {PeakClass::sfu, 90, 16.0},
               {PeakClass::fp32, 100, none}, {PeakClass::bf16, 75, none}, {PeakClass::dpx, 90, none}};
  for (const auto& c : cases) {
    const std::optional<double> got = peak_results_per_clk_per_sm(c.op, c.cc);
    EXPECT_EQ(got.has_value(), c.per_clk_per_sm.has_value()) << "cc " << c.cc;
    if (got && c.per_clk_per_sm) {
      EXPECT_EQ(*got, *c.per_clk_per_sm) << "cc " << c.cc;
    }
  }
}

TEST(PipelineOps, HostReplayOfIntegerChainsCountsEveryStep) {
  const PipeOpInfo& imad = pipe_op_info(PipeOp::imad);  // x = 3x + 1 from 1
  EXPECT_EQ(emulate_chains(imad, 1, 0), 1u);
  EXPECT_EQ(emulate_chains(imad, 1, 3), 40u);            // 1 -> 4 -> 13 -> 40
  EXPECT_EQ(emulate_chains(imad, 2, 1), 4u ^ 7u);        // chain 1 starts at 2
  const PipeOpInfo& iadd = pipe_op_info(PipeOp::iadd3);  // x = x + 3 + 5
  EXPECT_EQ(emulate_chains(iadd, 1, 1000), 1u + 8000u);
  const PipeOpInfo& dpx = pipe_op_info(PipeOp::dpx_viaddmax);  // max(x + 3, 5)
  EXPECT_EQ(emulate_chains(dpx, 1, 1), 5u);
  EXPECT_EQ(emulate_chains(dpx, 1, 10), 5u + 27u);
}

TEST(PipelineOps, HostReplayOfFmaReachesTheFixedPoint) {
  const PipeOpInfo& ffma = pipe_op_info(PipeOp::ffma);  // x = 0.75 x + 0.25 -> 1
  float one = 1.0f;
  std::uint32_t one_bits;
  std::memcpy(&one_bits, &one, 4);
  EXPECT_EQ(emulate_chains(ffma, 1, 1000000000ull), one_bits);  // stops early at the fixed point
  const float after_one = std::fmaf(1.0625f, 0.75f, 0.25f);     // chain 1 starts at 1 + 1/16
  std::uint32_t b;
  std::memcpy(&b, &after_one, 4);
  EXPECT_EQ(emulate_chains(ffma, 2, 1), one_bits ^ b);
  EXPECT_FALSE(emulate_chains(pipe_op_info(PipeOp::hfma2), 1, 10).has_value());
  EXPECT_FALSE(emulate_chains(pipe_op_info(PipeOp::mufu_rsq), 1, 10).has_value());
}

namespace archbench {
namespace {

// Warp collectives, every lane holding the same value: shuffles and redux.max return it, a
// ballot (value != b) and match.any all 32 lanes, redux.add 32 x it (to 0 after 7 steps from 1),
// elect the lowest lane.
TEST(PipelineOps, WarpCollectivesReplayAsTheWarpComputesThem) {
  int collectives = 0;
  for (const PipeOpInfo& op : pipe_ops()) {
    if (!is_warp_collective(op)) continue;
    ++collectives;
    EXPECT_TRUE(op.host_exact) << op.name;
    EXPECT_EQ(op.flops_per_result, 0) << op.name;
    ASSERT_TRUE(emulate_chains(op, 1, 5)) << op.name;
  }
  EXPECT_EQ(collectives, 10);
  // elect: x <- the elected lane (the lowest of the full warp); its reference returns its input.
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::elect), 1, 0), 1u);
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::elect), 2, 7), 0u);
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::shfl_idx_branch), 2, 1000), 1u ^ 2u);
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::shfl_idx), 2, 1000), 1u ^ 2u);  // seeds 1 and 2
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::vote_ballot), 1, 3), 0xffffffffu);
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::match_any), 3, 3), 0xffffffffu);  // three chains xor
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::redux_add), 1, 2), 1024u);
  EXPECT_EQ(*emulate_chains(pipe_op_info(PipeOp::redux_add), 1, 100), 0u);
  EXPECT_EQ(*peak_results_per_clk_per_sm(PeakClass::warp_shuffle, 90), 32.0);
  EXPECT_FALSE(peak_results_per_clk_per_sm(PeakClass::warp_other, 90));
}

// elect.sync is timed against the same compare and branch around a shuffle, plus the shuffle's
// own chain; the reference has no benchmarks of its own, and nothing else needs one.
TEST(PipelineOps, OnlyElectIsMeasuredAgainstAReference) {
  for (const PipeOpInfo& op : pipe_ops()) {
    const auto ref = latency_reference(op.op);
    EXPECT_EQ(ref.has_value(), op.op == PipeOp::elect) << op.name;
    EXPECT_EQ(is_reference_only(op.op), op.op == PipeOp::shfl_idx_branch) << op.name;
  }
  const auto ref = *latency_reference(PipeOp::elect);
  EXPECT_EQ(ref.reference, PipeOp::shfl_idx_branch);
  EXPECT_EQ(ref.base, PipeOp::shfl_idx);
  // The reference and the base are the same shuffle (the same operands), so the difference holds
  // only the compare and the branch.
  EXPECT_EQ(pipe_op_info(ref.reference).b, pipe_op_info(ref.base).b);
  EXPECT_EQ(pipe_op_info(ref.reference).c, pipe_op_info(ref.base).c);
}

}  // namespace
}  // namespace archbench

// The DPX table's host replay, one step from chosen operands, against answers worked by hand from
// the CUDA math API's definitions (16x2 operands hold the value in both halves).
TEST(PipelineOps, DpxReplayFollowsTheMathApi) {
  const auto one_step = [](PipeOp op, double seed, double b, double c, std::uint64_t steps = 1) {
    PipeOpInfo info = pipe_op_info(op);
    info.seed = seed;
    info.b = b;
    info.c = c;
    return *emulate_chains(info, 1, steps);
  };
  EXPECT_EQ(one_step(PipeOp::dpx_viaddmax_s16x2, 1, 3, 5), 0x00050005u);       // max(1 + 3, 5)
  EXPECT_EQ(one_step(PipeOp::dpx_viaddmin_u32, 1, 3, 5, 2), 5u);               // min(4 + 3, 5)
  EXPECT_EQ(one_step(PipeOp::dpx_viaddmax_u16x2, 0xffff, 3, 1), 0x00020002u);  // 0xffff + 3 wraps to 2
  EXPECT_EQ(one_step(PipeOp::dpx_viaddmax_s32_relu, 1, -7, -10), 0u);           // max(-6, -10) < 0
  EXPECT_EQ(one_step(PipeOp::dpx_viaddmax_s32, 1, -7, -10), 0xfffffffau);      // -6
  EXPECT_EQ(one_step(PipeOp::dpx_vimax3_s16x2, -1, 3, -5), 0x00030003u);       // max(-1, 3, -5)
  EXPECT_EQ(one_step(PipeOp::dpx_vimax3_u16x2, -1, 3, -5), 0xffffffffu);       // 0xffff is the largest
  EXPECT_EQ(one_step(PipeOp::dpx_vimin3_s32_relu, 4, 3, -5), 0u);              // min(4, 3, -5) < 0
  EXPECT_EQ(one_step(PipeOp::dpx_vimax_s32_relu, -9, -3, 5), 0u);              // max(-9, -3) < 0, then min(0, 5)
  EXPECT_EQ(one_step(PipeOp::dpx_vimin_s16x2_relu, 9, 3, 5), 0x00050005u);     // min(9, 3) = 3, then max(3, 5)
  EXPECT_EQ(one_step(PipeOp::dpx_vibmax_s32, 1, 3, 0), 3u);                    // 3 won: predicate false
  EXPECT_EQ(one_step(PipeOp::dpx_vibmax_s32, 4, 3, 0), 4u ^ 1u);               // 4 won: predicate true
  EXPECT_EQ(one_step(PipeOp::dpx_vibmin_u16x2, 1, 3, 0), 0x00010001u ^ 0x00010001u);  // both halves won
  EXPECT_EQ(one_step(PipeOp::dpx_vibmin_u32, -1, 3, 0), 3u);                   // 0xffffffff > 3 unsigned
  EXPECT_EQ(one_step(PipeOp::dpx_vibmin_s32, -1, 3, 0), 0xffffffffu ^ 1u);     // -1 < 3 signed
}

TEST(PipelineOps, DpxTableIsNativeFromSm90ExceptThe32BitPredicateForms) {
  int rows = 0;
  for (const PipeOpInfo& op : pipe_ops()) {
    if (!is_dpx_table(op.op)) continue;
    ++rows;
    EXPECT_FALSE(dpx_native(op.op, 89)) << op.name;
    const bool pred32 = std::string(op.name).rfind("vib", 0) == 0 && std::string(op.dtype).find("16x2") == std::string::npos;
    EXPECT_EQ(dpx_native(op.op, 90), !pred32) << op.name;
    EXPECT_EQ(op.results_per_step, std::string(op.dtype).find("16x2") != std::string::npos ? 2 : 1) << op.name;
  }
  EXPECT_EQ(rows, 36);  // every DPX intrinsic of the CUDA 13 math API
}
