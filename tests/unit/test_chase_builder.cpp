#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>

#include "fixtures/harness/chase_builder.hpp"

using namespace archbench;

TEST(StrideChain, VisitsEveryStrideOnceAndReturns) {
  const ChaseArray c = stride_chain(4096, 128);
  EXPECT_EQ(c.next.size(), 1024u);
  EXPECT_EQ(c.cycle_length, 32u);
  EXPECT_TRUE(is_single_cycle(c));
  EXPECT_EQ(c.next[0], 32u);
  EXPECT_EQ(c.next[31 * 32], 0u);  // last element wraps
  EXPECT_EQ(follow_chase(c, 0, 32), 0u);
  EXPECT_EQ(follow_chase(c, 0, 33), 32u);
}

TEST(StrideChain, FootprintNotMultipleOfStride) {
  const ChaseArray c = stride_chain(1000, 256);  // elements 0, 64, 128, 192 (of 250)
  EXPECT_EQ(c.cycle_length, 4u);
  EXPECT_TRUE(is_single_cycle(c));
  EXPECT_EQ(c.next[192], 0u);
}

TEST(StrideChain, SmallestStrideTouchesEveryWord) {
  const ChaseArray c = stride_chain(64, 4);
  EXPECT_EQ(c.cycle_length, 16u);
  for (std::uint32_t i = 0; i < 15; ++i) EXPECT_EQ(c.next[i], i + 1);
  EXPECT_EQ(c.next[15], 0u);
}

TEST(StrideChain, StrideEqualsFootprintIsASelfLoop) {
  const ChaseArray c = stride_chain(2 << 20, 2 << 20);
  EXPECT_EQ(c.cycle_length, 1u);
  EXPECT_EQ(follow_chase(c, 0, 1000), 0u);
}

TEST(StrideChain, RejectsBadInput) {
  EXPECT_THROW(stride_chain(0, 4), std::invalid_argument);
  EXPECT_THROW(stride_chain(4096, 0), std::invalid_argument);
  EXPECT_THROW(stride_chain(4096, 6), std::invalid_argument);
  EXPECT_THROW(stride_chain(4098, 4), std::invalid_argument);
  EXPECT_THROW(stride_chain(128, 256), std::invalid_argument);
}

// The shape the device fill and the runner's self-check use walks the chain the array encodes.
TEST(StrideChain, ShapeWalksAsTheArray) {
  for (const auto& [footprint, stride] : {std::pair<std::size_t, std::size_t>{4096, 128},
                                          {1000, 256},
                                          {64, 4},
                                          {2 << 20, 2 << 20},
                                          {(1 << 20) + 8, 24}}) {
    const ChaseArray c = stride_chain(footprint, stride);
    const StrideChain shape = stride_chain_shape(footprint, stride);
    EXPECT_EQ(shape.words, c.next.size());
    EXPECT_EQ(shape.cycle_length, c.cycle_length);
    EXPECT_EQ(shape.stride_words, stride / 4);
    for (std::uint64_t steps : {0ull, 1ull, 7ull, 1000ull, 123457ull})
      for (std::uint32_t from : {0u, std::uint32_t((c.cycle_length - 1) * (stride / 4))})
        EXPECT_EQ(shape.follow(from, steps), follow_chase(c, from, steps)) << footprint << "/" << stride;
  }
  EXPECT_THROW(stride_chain_shape(4096, 6), std::invalid_argument);
  EXPECT_THROW(stride_chain_shape(4096, 128).follow(31, 1), std::invalid_argument);  // not on the chain
  EXPECT_THROW(stride_chain_shape(4096, 128).follow(4096, 1), std::invalid_argument);
}

TEST(RandomCycle, IsOneCycleOverAllLines) {
  const ChaseArray c = random_cycle(64 * 1024, 128, 42);
  EXPECT_EQ(c.cycle_length, 512u);
  EXPECT_TRUE(is_single_cycle(c));
  std::set<std::uint32_t> targets;
  for (std::size_t line = 0; line < 512; ++line) {
    const std::uint32_t t = c.next[line * 32];
    EXPECT_EQ(t % 32, 0u) << "targets are line starts";
    targets.insert(t);
  }
  EXPECT_EQ(targets.size(), 512u) << "every line is entered exactly once";
}

TEST(RandomCycle, DeterministicPerSeedAndNotSequential) {
  const ChaseArray a = random_cycle(1 << 20, 128, 7), b = random_cycle(1 << 20, 128, 7);
  const ChaseArray c = random_cycle(1 << 20, 128, 8);
  EXPECT_EQ(a.next, b.next);
  EXPECT_NE(a.next, c.next);
  std::size_t sequential = 0;
  for (std::size_t line = 0; line + 1 < (1 << 20) / 128; ++line) sequential += a.next[line * 32] == (line + 1) * 32;
  EXPECT_LT(sequential, 20u);
}

TEST(RandomCycle, SingleLine) {
  const ChaseArray c = random_cycle(128, 128, 1);
  EXPECT_EQ(c.cycle_length, 1u);
  EXPECT_TRUE(is_single_cycle(c));
}

TEST(IsSingleCycle, DetectsBrokenChase) {
  ChaseArray c = stride_chain(4096, 128);
  c.next[5 * 32] = 32;  // short cycle 32 -> ... -> 160 -> 32
  EXPECT_FALSE(is_single_cycle(c));
}

TEST(PointerChase, SameCycleAsAbsoluteAddresses) {
  const ChaseArray c = stride_chain(4096, 128);
  const std::uint64_t base = 0x7f0000000000ull;
  const auto p = to_pointer_chase(c, base);
  ASSERT_EQ(p.size(), 512u);
  // Walk the pointers as the kernel does: p = *p.
  std::uint64_t addr = base;
  for (std::size_t k = 0; k < c.cycle_length; ++k) {
    const std::uint64_t next = p.at((addr - base) / 8);
    EXPECT_EQ(pointer_to_index(next, base), follow_chase(c, pointer_to_index(addr, base), 1));
    addr = next;
  }
  EXPECT_EQ(addr, base) << "returns to the start after one cycle";
}

TEST(PointerChase, RandomCycleConverts) {
  const ChaseArray c = random_cycle(1 << 16, 64, 3);
  const auto p = to_pointer_chase(c, 4096);
  std::uint64_t addr = 4096;
  for (std::size_t k = 0; k < c.cycle_length; ++k) addr = p.at((addr - 4096) / 8);
  EXPECT_EQ(addr, 4096u);
}

TEST(PointerChase, RejectsUnalignedStrides) {
  EXPECT_THROW(to_pointer_chase(stride_chain(4096, 4), 0), std::invalid_argument);
  EXPECT_THROW(to_pointer_chase(stride_chain(4096, 12), 0), std::invalid_argument);
  EXPECT_THROW(to_pointer_chase(stride_chain(4096, 8), 4), std::invalid_argument);
  EXPECT_NO_THROW(to_pointer_chase(stride_chain(4096, 8), 0));
}

namespace archbench {
namespace {

TEST(ChaseBuilder, OffsetListsForTheGeometryChases) {
  const auto s = stride_offsets(1024, 128);
  ASSERT_EQ(s.size(), 8u);
  for (std::size_t i = 0; i < s.size(); ++i) EXPECT_EQ(s[i], i * 128);
  EXPECT_EQ(stride_offsets(1000, 160).size(), 7u);  // 0 .. 960: every element fits whole
  const auto d = spaced_offsets(5, 65536);
  ASSERT_EQ(d.size(), 5u);
  EXPECT_EQ(d.back(), 4u * 65536);
  EXPECT_THROW(stride_offsets(1024, 12), std::invalid_argument);  // not 8-byte aligned
  EXPECT_THROW(stride_offsets(64, 128), std::invalid_argument);   // stride above the footprint
  EXPECT_THROW(spaced_offsets(0, 128), std::invalid_argument);
}

}  // namespace
}  // namespace archbench
