#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "fixtures/harness/bench_name.hpp"

using namespace archbench;

// One rule for every name: the family, then "/key:value" per argument in order; integers in
// decimal, text as it is. scripts/plotlib.py's name_fields reads the same parts back.
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
