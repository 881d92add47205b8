#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fixtures/harness/bench_name.hpp"

using namespace archbench;

// One rule for every name: the family, then "/key:value" per argument in order; integers in
// decimal, text as it is. The result file carries the parts as data (split_bench_name).
TEST(BenchName, FamilyThenKeyValueParts) {
  EXPECT_EQ(bench_name("MemLatency/chain/ld.ca", {{"footprint", std::size_t(251658240)}, {"stride", 128}}),
            "MemLatency/chain/ld.ca/footprint:251658240/stride:128");
  EXPECT_EQ(bench_name("Atomics/global/atom.add.u32/gpu",
                       {{"contention", "distinct"}, {"spacing", std::uint32_t(4)}, {"warps_per_block", 32}}),
            "Atomics/global/atom.add.u32/gpu/contention:distinct/spacing:4/warps_per_block:32");
  EXPECT_EQ(bench_name("L2Persist/kept", {{"hit_ratio", std::string("0.5")}}), "L2Persist/kept/hit_ratio:0.5");
  EXPECT_EQ(bench_name("Launch/end_to_end", {}), "Launch/end_to_end");
  EXPECT_EQ(bench_name("", {{"width", 16}}), "/width:16");
}

// P2P's names (a listing needs two GPUs, so they are held here): the pair, then its arguments.
TEST(BenchName, P2PNamesKeepTheirForm) {
  const bool bi = false;
  EXPECT_EQ(
      bench_name("P2P/copy", {{"src", 0}, {"dst", 1}, {"dir", bi ? "bi" : "uni"}, {"size", std::size_t(1) << 28}}),
      "P2P/copy/src:0/dst:1/dir:uni/size:268435456");
  EXPECT_EQ(bench_name("P2P/atomics", {{"gpu", 1}, {"peer", 0}, {"form", "red"}, {"contention", "all"}}),
            "P2P/atomics/gpu:1/peer:0/form:red/contention:all");
}

// The inverse the result file writes beside each name: the family and the arguments in order.
TEST(BenchName, SplitGivesTheFamilyAndTheArgumentsBack) {
  const NameParts p = split_bench_name(bench_name("MemLatency/chain/ld.ca", {{"footprint", 1024}, {"stride", 128}}));
  EXPECT_EQ(p.family, "MemLatency/chain/ld.ca");
  ASSERT_EQ(p.args.size(), 2u);
  EXPECT_EQ(p.args[0], (std::pair<std::string, std::string>{"footprint", "1024"}));
  EXPECT_EQ(p.args[1], (std::pair<std::string, std::string>{"stride", "128"}));
  EXPECT_EQ(split_bench_name("Launch/end_to_end").family, "Launch/end_to_end");
  EXPECT_TRUE(split_bench_name("Launch/end_to_end").args.empty());
  const NameParts box = split_bench_name("AsyncCopy/tma/box:64x64/swizzle:128");  // a shape holds its own part
  EXPECT_EQ(box.family, "AsyncCopy/tma");
  ASSERT_EQ(box.args.size(), 2u);
  EXPECT_EQ(box.args[0].second, "64x64");
  EXPECT_EQ(split_bench_name("/width:16").family, "");
}
