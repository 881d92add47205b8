// Primary-metric declarations (the JSON label compare.py reads) and planted slowdowns.
#include <gtest/gtest.h>

#include <stdexcept>

#include "fixtures/harness/primary_metrics.hpp"

using namespace archbench;

TEST(PrimaryMetrics, LabelsSayTheCounterAndItsDirectionOrTolerance) {
  EXPECT_EQ(primary_label({lower("latency_cycles")}), "primary=latency_cycles:lower");
  EXPECT_EQ(primary_label({lower("latency_cycles"), lower("latency_far_cycles")}),
            "primary=latency_cycles:lower,latency_far_cycles:lower");
  EXPECT_EQ(primary_label({value("capacity_bytes", 5), value("line_bytes", 0)}),
            "primary=capacity_bytes:5%,line_bytes:0%");
  EXPECT_EQ(primary_label({higher("bytes_per_clk_per_sm")}), "primary=bytes_per_clk_per_sm:higher");
}

TEST(PrimaryMetrics, TheLabelIsReadBackAsItWasWritten) {
  const PrimaryMetrics written = {lower("latency_cycles"), higher("bytes_per_second"), value("line_bytes", 0),
                                  value("capacity_bytes", 2.5)};
  const auto d = parse_label(primary_label(written) + " | method=0123456789ab | a note | with a bar");
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->primary.size(), written.size());
  for (std::size_t i = 0; i < written.size(); ++i) {
    EXPECT_EQ(d->primary[i].counter, written[i].counter);
    EXPECT_EQ(d->primary[i].kind, written[i].kind);
    EXPECT_EQ(d->primary[i].tolerance_pct, written[i].tolerance_pct);
  }
  EXPECT_EQ(d->method, "0123456789ab");
  EXPECT_EQ(d->note, "a note | with a bar");
  EXPECT_EQ(parse_label("primary=a:lower")->method, "");
  EXPECT_FALSE(parse_label("a note").has_value());
  EXPECT_FALSE(parse_label("primary=a:sideways").has_value());
  EXPECT_FALSE(parse_label("primary=a").has_value());
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
  for (const char* bad :
       {"slow:", "slow::3", "slow:Atomics", "slow:Atomics:", "slow:Atomics:x", "slow:Atomics:-1", "slow:Atomics:3%"}) {
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

// --- Method identifiers (fixtures/harness/method_ids.hpp) -----------------------------------------------------

#include "fixtures/harness/method_ids.hpp"

TEST(MethodIds, AreTwelveHexDigitsThatFollowTheDigestAndTheDeclaration) {
  const std::string id = archbench::method_id("2b0b7f3e9046ee48", "primary=latency_cycles:lower");
  ASSERT_EQ(id.size(), 12u);
  EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
  EXPECT_EQ(id, archbench::method_id("2b0b7f3e9046ee48", "primary=latency_cycles:lower"));   // stable
  EXPECT_NE(id, archbench::method_id("2b0b7f3e9046ee49", "primary=latency_cycles:lower"));   // the code
  EXPECT_NE(id, archbench::method_id("2b0b7f3e9046ee48", "primary=latency_cycles:higher"));  // the meaning
  // The two parts cannot slide into each other.
  EXPECT_NE(archbench::method_id("ab", "c"), archbench::method_id("a", "bc"));
}

TEST(MethodIds, EveryFeatureOfTheTableHasADigestAndAnUnknownOneIsADefect) {
  ASSERT_GE(archbench::feature_methods().size(), 16u);
  for (const archbench::FeatureMethod& m : archbench::feature_methods()) {
    EXPECT_EQ(std::string(m.digest).size(), 16u) << m.feature;
    EXPECT_GE(m.version, 1) << m.feature;
    EXPECT_EQ(&archbench::feature_method(m.feature), &m);
  }
  EXPECT_EQ(archbench::method_context(archbench::feature_method("Bandwidth")).rfind("digest ", 0), 0u);
  EXPECT_THROW(archbench::feature_method("NoSuchFeature"), std::logic_error);
}
