// --counters on the CPU: the counter-name mapping and the served-level decision, on counter values
// an H100 SXM returned (GH100, CUPTI range profiler, 2026-11-24) and on synthetic ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "analysis/hw_counters.hpp"

using namespace archbench;

TEST(HwCounters, NamesAreUniqueAndSayTheirUnit) {
  std::set<std::string> cupti, json;
  const std::regex unit(
      "^hw_[a-z0-9_]+_(sectors|bytes|requests|wavefronts|conflicts|cycles|pct)$|^hw_inst_[a-z0-9_]+$");
  for (const HwMetric& m : hw_metrics()) {
    EXPECT_TRUE(cupti.insert(m.cupti).second) << m.cupti;
    EXPECT_TRUE(json.insert(m.counter).second) << m.counter;
    EXPECT_TRUE(std::regex_match(m.counter, unit)) << m.counter << " does not say its unit";
    // Counts are summed over the units; a ratio is NVPerf's share of the peak, named _pct; the
    // census's mean and maximum over the units are named so.
    const std::string c = m.cupti, j = m.counter;
    if (j.size() > 4 && j.compare(j.size() - 4, 4, "_pct") == 0)
      EXPECT_NE(c.find(".pct_of_peak"), std::string::npos) << c;
    else if (j.find("_mean_") != std::string::npos)
      EXPECT_NE(c.find(".avg"), std::string::npos) << c;
    else if (j.find("_max_") != std::string::npos)
      EXPECT_NE(c.find(".max"), std::string::npos) << c;
    else
      EXPECT_NE(c.find(".sum"), std::string::npos) << c << ": counts are summed over units";
    EXPECT_NE(m.group, 0u) << m.counter;
  }
  // What the issue asks for is there.
  for (const char* n :
       {"hw_l1_global_load_hit_sectors", "hw_l2_read_sectors", "hw_l2_write_sectors", "hw_l2_read_hit_sectors",
        "hw_l2_fabric_sectors", "hw_dram_read_bytes", "hw_dram_write_bytes", "hw_smem_load_bank_conflicts",
        "hw_smem_load_wavefronts", "hw_inst_executed", "hw_tensor_hmma_active_cycles"})
    EXPECT_EQ(json.count(n), 1u) << n;
}

TEST(HwCounters, GroupsSelectTheirCounters) {
  for (const HwMetric& m : hw_metrics_in(kHwShared)) EXPECT_NE(m.group & kHwShared, 0u) << m.counter;
  EXPECT_EQ(hw_metrics_in(0).size(), 0u);
  EXPECT_EQ(hw_metrics_in(kHwMemory | kHwShared | kHwInstructions | kHwTensor | kHwUnits).size(), hw_metrics().size());
  EXPECT_EQ(hw_metrics_in(kHwUnits).size(), 5u);
  const auto memory = hw_metrics_in(kHwMemory);
  EXPECT_TRUE(std::any_of(memory.begin(), memory.end(),
                          [](const HwMetric& m) { return std::string(m.counter) == "hw_dram_read_bytes"; }));
}

TEST(HwCounters, DifferenceIsPerNameAndNeverNegative) {
  const HwValues d = hw_difference({{"a", 10}, {"b", 3}, {"only_a", 1}, {"x_pct", 50}},
                                   {{"a", 4}, {"b", 5}, {"only_b", 1}, {"x_pct", 40}});
  EXPECT_DOUBLE_EQ(d.at("a"), 6);
  EXPECT_DOUBLE_EQ(d.at("b"), 0);
  EXPECT_EQ(d.count("only_a") + d.count("only_b"), 0u);
  EXPECT_EQ(d.count("x_pct"), 0u);  // a ratio is not a count
  // Nor is a mean or a maximum over the units.
  const HwValues m = hw_difference({{"hw_l2_slice_mean_sectors", 9}, {"hw_dram_channel_max_read_sectors", 9}},
                                   {{"hw_l2_slice_mean_sectors", 1}, {"hw_dram_channel_max_read_sectors", 1}});
  EXPECT_TRUE(m.empty());
}

namespace {

// The census counters of one read of 4x the L2: `slices` L2 slices sharing the sectors evenly
// (+-0.5 %), `channels` DRAM units of which `half` run at half width.
HwValues census_values(int slices, int channels, int half, double sectors = 1e8) {
  const double per_full = sectors / (channels - half / 2.0);
  return {{"hw_l2_slice_sectors", 1.5 * sectors},
          {"hw_l2_slice_mean_sectors", 1.5 * sectors / slices},
          {"hw_dram_channel_read_sectors", sectors},
          {"hw_dram_channel_mean_read_sectors", sectors / channels},
          {"hw_dram_channel_max_read_sectors", per_full * 1.005}};
}

}  // namespace

// The counts an H100 SXM (80 slices, 40 channels) and an H200 (94 slices, 48 channel units of
// which two carry half: 47 channels, its 6016-bit bus) returned, 2026-11-25.
TEST(HwCounters, UnitCensusCountsSlicesAndEnabledChannels) {
  const HwValues h100 = {{"hw_l2_slice_sectors", 102111129},
                         {"hw_l2_slice_mean_sectors", 1276389.11},
                         {"hw_dram_channel_read_sectors", 67110176},
                         {"hw_dram_channel_mean_read_sectors", 1677754.40},
                         {"hw_dram_channel_max_read_sectors", 1677848}};
  const HwValues h200 = {{"hw_l2_slice_sectors", 101619618},
                         {"hw_l2_slice_mean_sectors", 1081059.77},
                         {"hw_dram_channel_read_sectors", 67109776},
                         {"hw_dram_channel_mean_read_sectors", 1398120.33},
                         {"hw_dram_channel_max_read_sectors", 1427944}};
  const UnitCensus a = *unit_census(h100), b = *unit_census(h200);
  EXPECT_EQ(a.l2_slices, 80);
  EXPECT_EQ(a.dram_channels, 40);
  EXPECT_DOUBLE_EQ(a.dram_full_channels, 40);
  EXPECT_DOUBLE_EQ(a.dram_enabled_share(), 1.0);
  EXPECT_EQ(b.l2_slices, 94);
  EXPECT_EQ(b.dram_channels, 48);
  EXPECT_DOUBLE_EQ(b.dram_full_channels, 47);
  EXPECT_NEAR(b.dram_enabled_share(), 47.0 / 48, 1e-12);
  // Synthetic: a 1 % imbalance of the hash does not read as a missing channel; half a channel does.
  for (int half : {0, 1, 2, 4}) {
    const UnitCensus c = *unit_census(census_values(64, 32, half));
    EXPECT_EQ(c.l2_slices, 64);
    EXPECT_EQ(c.dram_channels, 32);
    EXPECT_DOUBLE_EQ(c.dram_full_channels, 32 - half / 2.0) << half;
  }
}

TEST(HwCounters, UnitCensusNeedsEveryCounterAndSomeTraffic) {
  const HwValues full = census_values(80, 40, 0);
  for (const auto& [name, value] : full) {
    HwValues v = full;
    v.erase(name);
    EXPECT_FALSE(unit_census(v)) << "without " << name;
    v = full;
    v[name] = 0;
    EXPECT_FALSE(unit_census(v)) << name << " = 0";
  }
  EXPECT_FALSE(unit_census({}));
}

namespace {

HwValues global(double ld, double hit, double st, double dram_r, double dram_w) {
  return {{"hw_l1_global_load_sectors", ld},
          {"hw_l1_global_load_hit_sectors", hit},
          {"hw_l1_global_store_sectors", st},
          {"hw_dram_read_bytes", dram_r},
          {"hw_dram_write_bytes", dram_w}};
}

MemLevel level_of(const HwValues& v) { return served_level(*served_shares(v)); }

}  // namespace

TEST(HwCounters, ServedLevelOnH100Bandwidth) {
  // Bandwidth/read/ld.ca/width:16/footprint:1081344: 99.98 % L1 hits.
  EXPECT_EQ(level_of(global(1.362e8, 1.3617e8, 0, 8.294e4, 1.162e5)), MemLevel::l1);
  // Bandwidth/read/ld.cg/width:16/footprint:1081344: no L1, no DRAM.
  EXPECT_EQ(level_of(global(1.242e8, 0, 0, 7.731e4, 3.648e5)), MemLevel::l2);
  // Bandwidth/write/st/width:16/footprint:1081344: stores, L2.
  EXPECT_EQ(level_of(global(0, 0, 7.68e7, 4.326e4, 3.953e5)), MemLevel::l2);
  // Bandwidth/copy/ld+st/width:16/footprint:1081344 (label L1): the loads hit L1, the stores go
  // to L2 (L1 is write-through), so no more than half of a copy's bytes can be L1's.
  const auto copy = served_shares(global(3.379e7, 3.357e7, 3.379e7, 9.472e4, 4.134e5));
  EXPECT_NEAR(copy->l1, 0.4967, 1e-3);
  EXPECT_EQ(served_level(*copy), MemLevel::l1_l2);
  // 216 MB (4 x the L2), ld.cg read and st write: DRAM bytes = the kernel's bytes.
  EXPECT_EQ(level_of(global(1.825e8, 0, 0, 5.84e9, 5.326e6)), MemLevel::dram);
  EXPECT_EQ(level_of(global(0, 0, 1.8925e8, 1.93e5, 6.056e9)), MemLevel::dram);
  // 111.5 MB (2.2 x the L2): labelled L2-DRAM by footprint, 99.7 % DRAM by the counters.
  EXPECT_EQ(level_of(global(1.882e8, 0, 0, 6.007e9, 6.077e6)), MemLevel::dram);
}

TEST(HwCounters, ServedLevelOnH100Chases) {
  // MemLatency/chain/ld.ca/footprint:914176/stride:128, 16384 steps (the replay's difference):
  // 97 KB of DRAM reads and 410 KB of writes that are no chase's; with 4x the steps (the suite's
  // kCounterSteps) the reads are within 5 %, and writes are not counted for a kernel that stores nothing.
  EXPECT_EQ(level_of(global(4 * 16384, 0, 0, 9.702e4, 4.101e5)), MemLevel::l2);
  // footprint:104857600 (primed): ~195 DRAM bytes per 32-byte step, DRAM latency: DRAM.
  EXPECT_EQ(level_of(global(16384, 0, 0, 3.202e6, 2.793e5)), MemLevel::dram);
  // footprint:209715200/stride:8: 3 of 4 steps hit the line in L1, the first misses to DRAM.
  const auto s = served_shares(global(16384, 12288, 0, 16384 * 64 / 4, 0));
  EXPECT_NEAR(s->l1, 0.75, 1e-9);
  EXPECT_EQ(served_level(*s), MemLevel::l1_l2);
}

TEST(HwCounters, AtomicsAreServedByL2) {
  // Atomics/global/atom.add.u32/gpu/contention:far_l2 on an H100: 2.48e7 atomic sectors, a few
  // thousand load sectors of the launch's own bookkeeping.
  HwValues v = global(4224, 3696, 0, 1.152e4, 1.51e5);
  v["hw_l2_atom_sectors"] = 2.484e7;
  v["hw_l2_red_sectors"] = 0;
  v["hw_l2_read_sectors"] = 528;
  v["hw_l2_write_sectors"] = 0;
  v["hw_l2_fabric_sectors"] = 2.4865e7;
  EXPECT_EQ(level_of(v), MemLevel::l2);
  const HwValues d = hw_derived(v);
  EXPECT_NEAR(d.at("hw_l2_fabric_pct"), 100.0, 0.5);  // every atomic crossed to the far partition
  EXPECT_DOUBLE_EQ(d.at("hw_level"), mem_level_value(MemLevel::l2));
}

TEST(HwCounters, DerivedCountersNeedTheirInputs) {
  EXPECT_FALSE(served_shares({}).has_value());
  EXPECT_FALSE(served_shares(global(0, 0, 0, 1e6, 1e6)).has_value());  // nothing asked of global memory
  const HwValues smem = {{"hw_smem_load_wavefronts", 4.0e6}, {"hw_inst_shared_load", 1.0e6}};
  const HwValues d = hw_derived(smem);
  EXPECT_DOUBLE_EQ(d.at("hw_smem_load_wavefronts_per_request"), 4.0);
  EXPECT_EQ(d.count("hw_level"), 0u);
  EXPECT_EQ(d.count("hw_l1_hit_pct"), 0u);
}

TEST(HwCounters, LevelBetweenLevels) {
  ServedShares s;
  s.l1 = 0.5, s.l2 = 0.45, s.dram = 0.05;
  EXPECT_EQ(served_level(s), MemLevel::l1_l2);
  s.l1 = 0.05, s.l2 = 0.5, s.dram = 0.45;
  EXPECT_EQ(served_level(s), MemLevel::l2_dram);
  s.l1 = 0.0, s.l2 = 0.08, s.dram = 0.92;
  EXPECT_EQ(served_level(s), MemLevel::dram);
  s.l1 = 0.3, s.l2 = 0.3, s.dram = 0.4;
  EXPECT_EQ(served_level(s), MemLevel::l2_dram);
}
