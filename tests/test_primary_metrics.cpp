// Primary-metric declarations (the JSON label compare.py reads) and planted slowdowns.
#include <gtest/gtest.h>

#include <stdexcept>

#include "fixtures/primary_metrics.hpp"

using namespace archbench;

TEST(PrimaryMetrics, LabelsSayTheCounterAndItsDirectionOrTolerance) {
  EXPECT_EQ(primary_label({lower("latency_cycles")}), "primary=latency_cycles:lower");
  EXPECT_EQ(primary_label({lower("latency_cycles"), lower("latency_far_cycles")}),
            "primary=latency_cycles:lower,latency_far_cycles:lower");
  EXPECT_EQ(primary_label({value("capacity_bytes", 5), value("line_bytes", 0)}),
            "primary=capacity_bytes:5%,line_bytes:0%");
  EXPECT_EQ(primary_label({higher("bytes_per_clk_per_sm")}), "primary=bytes_per_clk_per_sm:higher");
}

TEST(PrimaryMetrics, TheLongestMatchingRuleWins) {
  const std::vector<MetricRule> rules = {{"Geometry/", {lower("latency_cycles")}},
                                         {"Geometry/fill/ld.ca", {value("l1_fill_bytes", 0)}},
                                         {"Geometry/fill/ld.ca/stride:", {lower("latency_cycles")}}};
  EXPECT_EQ(resolve_primary(rules, "Geometry/fill/ld.ca")[0].counter, "l1_fill_bytes");
  EXPECT_EQ(resolve_primary(rules, "Geometry/fill/ld.ca/stride:64")[0].counter, "latency_cycles");
  EXPECT_EQ(resolve_primary(rules, "Geometry/l2/sweep/footprint:1")[0].counter, "latency_cycles");
  EXPECT_TRUE(resolve_primary(rules, "Tlb/latency/x").empty());
}

TEST(PrimaryMetrics, SlowFaultParsesAndRejectsWithAReason) {
  EXPECT_FALSE(parse_slow_fault(nullptr));
  EXPECT_FALSE(parse_slow_fault("trap"));
  const auto f = parse_slow_fault("slow:Atomics:3");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->feature, "Atomics");
  EXPECT_DOUBLE_EQ(f->pct, 3.0);
  for (const char* bad : {"slow:", "slow::3", "slow:Atomics", "slow:Atomics:", "slow:Atomics:x", "slow:Atomics:-1",
                          "slow:Atomics:3%"}) {
    try {
      parse_slow_fault(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("slow:<Feature>:<percent>"), std::string::npos) << e.what();
    }
  }
}

TEST(PrimaryMetrics, ASlowFaultMakesCostsLargerAndRatesSmallerAndLeavesValues) {
  EXPECT_DOUBLE_EQ(apply_slow_fault(100.0, Primary::Kind::lower, 3), 103.0);
  EXPECT_NEAR(apply_slow_fault(103.0, Primary::Kind::higher, 3), 100.0, 1e-12);
  EXPECT_DOUBLE_EQ(apply_slow_fault(128.0, Primary::Kind::value, 3), 128.0);
}
