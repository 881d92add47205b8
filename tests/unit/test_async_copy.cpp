// AsyncCopy's host side without a GPU: tensor boxes the TMA takes or refuses, the stage each case
// copies, which cases fit a GPU (shared memory, barriers, footprint per pipeline), and the source
// pattern the kernels check every landed word against.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "fixtures/runners/async_copy_shapes.hpp"

namespace archbench {
namespace {

// An H100 SXM as the API describes it (test data only).
GpuInfo h100() {
  GpuInfo g;
  g.sm_count = 132;
  g.l2_bytes = 50u << 20;
  g.smem_per_sm_bytes = 228u << 10;
  g.smem_per_block_optin_bytes = 227u << 10;
  g.reserved_smem_per_block_bytes = 1024;
  g.max_threads_per_sm = 2048;
  g.cc_major = 9;
  return g;
}

TEST(AsyncCopy, TensorBoxesTheTmaCannotTakeAreRefused) {
  EXPECT_THROW(tensor_box({}), std::invalid_argument);
  EXPECT_THROW(tensor_box({64, 2, 2, 2, 2, 2}), std::invalid_argument);  // six dimensions
  EXPECT_THROW(tensor_box({512}), std::invalid_argument);                // a dimension above 256
  EXPECT_THROW(tensor_box({64, 0}), std::invalid_argument);
  EXPECT_THROW(tensor_box({2, 64}), std::invalid_argument);       // 8-byte rows
  EXPECT_THROW(tensor_box({32, 64}, 16), std::invalid_argument);  // no such swizzle
  EXPECT_THROW(tensor_box({32, 64}, 64), std::invalid_argument);  // 128-byte rows, 64-byte span
  EXPECT_NO_THROW(tensor_box({32, 64}, 128));
  EXPECT_NO_THROW(tensor_box({64, 4, 4, 2, 2}));
}

TEST(AsyncCopy, TensorBoxesNameTheirShapeAndCountTheirWords) {
  const TensorBox b = tensor_box({64, 8, 8});
  EXPECT_EQ(b.name(), "64x8x8");
  EXPECT_EQ(b.words(), 4096u);
  EXPECT_EQ(b.inner_boxes, 16u);
  EXPECT_EQ(tensor_box({32, 64}, 128).name(), "32x64/swizzle:128");
  EXPECT_EQ(tensor_box({256}).inner_boxes, 1u);  // a 1D box: chunks along its only dimension
}

TEST(AsyncCopy, EachCaseCopiesTheStageItsPathDefines) {
  AsyncCase c;
  c.op = AsyncOp::ld_st, c.warps_per_block = 32, c.width = 16, c.unroll = 4;
  EXPECT_EQ(async_stage_bytes(c), 32u * 32 * 16 * 4);  // every thread's loads in flight
  c.op = AsyncOp::cp_async_ca, c.width = 8;
  EXPECT_EQ(async_stage_bytes(c), 32u * 32 * 8);  // one access per thread per commit group
  c.op = AsyncOp::tensor, c.box = tensor_box({64, 64});
  EXPECT_EQ(async_stage_bytes(c), 16384u);  // one box
  c.op = AsyncOp::bulk, c.stage_bytes = 4096;
  EXPECT_EQ(async_stage_bytes(c), 4096u);
}

TEST(AsyncCopy, CasesThatDoNotFitTheGpuSayWhy) {
  const GpuInfo g = h100();
  AsyncCase c;
  c.op = AsyncOp::bulk, c.level = AsyncLevel::dram, c.stage_bytes = 16384, c.stages = 8, c.warps_per_block = 1;
  EXPECT_FALSE(async_case_unfit(c, g));
  c.stage_bytes = 65536, c.stages = 4;  // 256 KiB of stages in one block
  ASSERT_TRUE(async_case_unfit(c, g));
  EXPECT_NE(async_case_unfit(c, g)->find("shared memory"), std::string::npos);
  c.stage_bytes = 1024, c.stages = 16, c.warps_per_block = 8;  // 128 stages: more than the block's barriers
  ASSERT_TRUE(async_case_unfit(c, g));
  EXPECT_NE(async_case_unfit(c, g)->find("barriers"), std::string::npos);
  // A third of the L2 in 16 KiB stages is ~1,000 chunks: not 8 pipelines x 132 SMs of them.
  c.level = AsyncLevel::l2, c.stage_bytes = 16384, c.stages = 1, c.warps_per_block = 8;
  ASSERT_TRUE(async_case_unfit(c, g));
  EXPECT_NE(async_case_unfit(c, g)->find("footprint"), std::string::npos);
  c.level = AsyncLevel::dram;
  EXPECT_FALSE(async_case_unfit(c, g));
  // Per-thread paths: a 128 KiB ld_st stage (32 warps x 8 loads of 16 B) per SM is more than a
  // third of the L2 holds.
  AsyncCase t;
  t.op = AsyncOp::ld_st, t.level = AsyncLevel::l2, t.warps_per_block = 32, t.width = 16, t.unroll = 8, t.stages = 1;
  EXPECT_TRUE(async_case_unfit(t, g));
  t.unroll = 4;
  EXPECT_FALSE(async_case_unfit(t, g));
}

TEST(AsyncCopy, FootprintsFollowTheDevicesL2) {
  GpuInfo g = h100();
  EXPECT_EQ(async_footprint(AsyncLevel::l2, g), g.l2_bytes / 3);
  EXPECT_EQ(async_footprint(AsyncLevel::dram, g), 8 * g.l2_bytes);
  g.l2_bytes = 60u << 20;  // another GPU's L2, another footprint
  EXPECT_EQ(async_footprint(AsyncLevel::dram, g), 8 * g.l2_bytes);
}

TEST(AsyncCopy, EveryPathHasOneNameAndLoadsAndStoresAreTold) {
  std::set<std::string> names;
  int loads = 0;
  for (const AsyncOpInfo& i : async_ops()) {
    EXPECT_TRUE(names.insert(i.name).second) << i.name;
    EXPECT_EQ(&async_op_info(i.op), &i);
    loads += i.is_load;
  }
  EXPECT_EQ(loads, 6);
  GpuInfo ampere = h100();
  ampere.cc_major = 8;
  EXPECT_TRUE(async_unsupported(AsyncOp::bulk, ampere));  // the TMA is sm_90
  EXPECT_FALSE(async_unsupported(AsyncOp::cp_async_cg, ampere));
}

// The kernels check every landed word against async_pattern of its index: distinct words have
// distinct values, so a word copied from the wrong place is caught.
TEST(AsyncCopy, SourcePatternTellsEveryWordApart) {
  std::unordered_set<std::uint32_t> seen;
  for (std::uint64_t w = 0; w < (1u << 20); ++w) EXPECT_TRUE(seen.insert(async_pattern(w)).second) << w;
}

TEST(AsyncCopy, LatencyCopiesReadTheLinesTheirBytesAndBoxRowsCover) {
  const TensorBox none;
  using Lines = std::vector<std::vector<std::size_t>>;
  // Plain copies: 16 B copies 4 KiB apart read one line each; 1 KiB copies 8 lines each.
  EXPECT_EQ(async_latency_lines(AsyncOp::bulk, 16, 4096, 3, none, 0), (Lines{{0}, {32}, {64}}));
  const Lines kib = async_latency_lines(AsyncOp::ld_st, 1024, 4096, 2, none, 0);
  EXPECT_EQ(kib, (Lines{{0, 1, 2, 3, 4, 5, 6, 7}, {32, 33, 34, 35, 36, 37, 38, 39}}));
  // A copy that straddles a line boundary reads both lines.
  EXPECT_EQ(async_latency_lines(AsyncOp::ld_st, 64, 96, 2, none, 0), (Lines{{0}, {0, 1}}));
  // A tensor copy of 16 B (a box of 4 words, 16 boxes to a tensor row of 256 B; copies 256 B apart,
  // so boxes 0, 16 and 32): each copy the first box of a row, rows 256 B = 2 lines apart.
  const TensorBox small = tensor_box({4, 1});
  const std::size_t region = 3 * 16 * 16;  // three copies of 16 x 16 B, whole rows of boxes
  EXPECT_EQ(async_latency_lines(AsyncOp::tensor, 16, 256, 3, small, region), (Lines{{0}, {2}, {4}}));
  // A 2D box of 64 x 4 words (1 KiB): its 4 rows lie a tensor row apart (16 boxes x 256 B = 4 KiB).
  const TensorBox tall = tensor_box({64, 4});
  EXPECT_EQ(async_latency_lines(AsyncOp::tensor, 1024, 1024, 1, tall, 16 * 1024),
            (Lines{{0, 1, 32, 33, 64, 65, 96, 97}}));
  // The layout the tensor map is encoded from: dims in words, strides in bytes.
  const TensorLayout t = tensor_layout(16 * 1024, tall);
  EXPECT_EQ(t.dims[0], 64u * 16u);
  EXPECT_EQ(t.dims[1], 4u);
  EXPECT_EQ(t.strides[0], 64u * 16u * 4u);
  EXPECT_THROW(tensor_layout(100, tall), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
