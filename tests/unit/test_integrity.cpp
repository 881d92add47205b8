// The integrity screen's host-side rules: the mma.sync fragment layout its inputs and references
// are built from (every element of A, B and C held by exactly one lane's half or register, at the
// places the PTX ISA's figures give), and the test-only plant's parser.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <utility>

#include "fixtures/runners/integrity_plant.hpp"
#include "kernels/mma_fragments.hpp"

namespace archbench {
namespace {

template <class Element>
std::set<std::pair<int, int>> covered(Element element, int per_lane) {
  std::set<std::pair<int, int>> seen;
  for (int lane = 0; lane < 32; ++lane)
    for (int i = 0; i < per_lane; ++i) {
      const RowCol rc = element(lane, i);
      EXPECT_TRUE(seen.insert({rc.row, rc.col}).second) << "lane " << lane << " item " << i;
    }
  return seen;
}

TEST(IntegrityMma, EveryElementHeldOnce) {
  const auto a = covered(mma_a_element, 8), b = covered(mma_b_element, 4), c = covered(mma_c_element, 4);
  EXPECT_EQ(a.size(), 16u * 16u);
  EXPECT_EQ(b.size(), 16u * 8u);
  EXPECT_EQ(c.size(), 16u * 8u);
  for (const auto& [row, col] : a) EXPECT_TRUE(row < 16 && col < 16);
  for (const auto& [row, col] : b) EXPECT_TRUE(row < 16 && col < 8);
  for (const auto& [row, col] : c) EXPECT_TRUE(row < 16 && col < 8);
}

TEST(IntegrityMma, PlacesOfThePtxFigures) {
  // A: lane 5 (group 1, thread 1 in its group) holds a0 at (1, 2), a3 at (9, 3), a6 at (9, 10).
  EXPECT_EQ(mma_a_element(5, 0).row, 1);
  EXPECT_EQ(mma_a_element(5, 0).col, 2);
  EXPECT_EQ(mma_a_element(5, 3).row, 9);
  EXPECT_EQ(mma_a_element(5, 3).col, 3);
  EXPECT_EQ(mma_a_element(5, 6).row, 9);
  EXPECT_EQ(mma_a_element(5, 6).col, 10);
  // B: lane 6 holds b0 at (4, 1), b3 at (13, 1).
  EXPECT_EQ(mma_b_element(6, 0).row, 4);
  EXPECT_EQ(mma_b_element(6, 0).col, 1);
  EXPECT_EQ(mma_b_element(6, 3).row, 13);
  // C: lane 31 holds c3 at (15, 7).
  EXPECT_EQ(mma_c_element(31, 3).row, 15);
  EXPECT_EQ(mma_c_element(31, 3).col, 7);
}

TEST(IntegrityPlant, ParsesAndRefuses) {
  const IntegrityPlant none = parse_integrity_plant(nullptr);
  EXPECT_EQ(none.sm, -1);
  EXPECT_EQ(none.dram_byte, -1);
  const IntegrityPlant p = parse_integrity_plant("sm:3,lane:7,dram_byte:123456788");
  EXPECT_EQ(p.sm, 3);
  EXPECT_EQ(p.lane, 7);
  EXPECT_EQ(p.dram_byte, 123456788);
  for (const char* bad : {"sm:x", "lane:32", "sm:-1", "dram_byte:6", "core:1", "sm:1x", "sm"})
    EXPECT_THROW(parse_integrity_plant(bad), std::invalid_argument) << bad;
}

}  // namespace
}  // namespace archbench
