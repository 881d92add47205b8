// The GPU's own counters that --counters reads (CUPTI's range profiler, fixtures/harness/hw_profiler.hpp),
// the JSON names they are reported under, and what is derived from them: hit rates, wavefronts
// per request, and the memory level that served a kernel's bytes (pure C++, unit-tested).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/memory_levels.hpp"

namespace archbench {

// Counters come in groups, so that a benchmark's replay collects only what it is checked with
// (fewer profiler passes): a bit mask.
enum HwGroup : unsigned {
  kHwMemory = 1,        // L1 / L2 / DRAM sectors and bytes, L2 partition crossings, global instructions
  kHwShared = 2,        // shared-memory wavefronts, bank conflicts and instructions
  kHwInstructions = 4,  // warp instructions executed, by pipe
  kHwTensor = 8,        // tensor pipe activity
  kHwUnits = 16,        // the L2 slices and DRAM channels that carry traffic (unit_census)
};

// One raw counter: its name for CUPTI/NVPerf (with the .sum roll-up; the census's .avg and .max
// roll-ups over the units are named _mean_ and _max_), its JSON counter name, which says the unit
// (sectors are 32 bytes), and its group.
struct HwMetric {
  const char* cupti;
  const char* counter;
  unsigned group;
};
// Every counter --counters asks for; a GPU that lacks one reports the others.
const std::vector<HwMetric>& hw_metrics();
std::vector<HwMetric> hw_metrics_in(unsigned groups);

// Counter name -> value. A missing name was not collected on this GPU.
using HwValues = std::map<std::string, double>;

// a - b, name by name (counts in both; a ratio, *_pct, and a mean or maximum over the units,
// *_mean_* / *_max_*, are left out): isolates the part of a replay that a baseline replay
// without the timed work does not have (a chase's timed steps without its warm-up).
HwValues hw_difference(const HwValues& a, const HwValues& b);

// Which level served the bytes a kernel asked of global memory, from the counters:
//  - L1: load sectors that hit in L1;
//  - DRAM: DRAM bytes read (at most the load bytes that missed L1) and written (at most the
//    store bytes), atomics' sectors counted on both sides;
//  - L2: the rest of the bytes asked for.
// Stores are never served by L1 (it is write-through); atomics are performed in L2. Shares are of
// all bytes asked for. The L2's own hit counter is not used: on an H100 a single-SM chase that
// reads ~200 DRAM bytes per step (and runs at DRAM latency) still counts 100 % hits in the
// partition near the SM.
struct ServedShares {
  double requested_bytes = 0;  // global load + store sectors x 32
  double l1 = 0, l2 = 0, dram = 0;
};
std::optional<ServedShares> served_shares(const HwValues& v);  // nullopt: no global bytes asked

// The level that served at least `dominant` of the bytes; else the transition (L1-L2 or L2-DRAM)
// whose two levels served that much together.
inline constexpr double kServedDominant = 0.9;
MemLevel served_level(const ServedShares& s, double dominant = kServedDominant);

// The derived counters added beside the raw ones (each only where its inputs were collected):
//  hw_l1_hit_pct, hw_l2_hit_pct, hw_l2_fabric_pct (sectors that crossed between the L2
//  partitions, of all sectors the SMs asked of L2), hw_smem_load_wavefronts_per_request,
//  hw_smem_store_wavefronts_per_request, hw_served_l1_pct,
//  hw_served_l2_pct, hw_served_dram_pct, hw_level (mem_level_value of served_level).
HwValues hw_derived(const HwValues& raw);

// The L2 slices and DRAM channels that carry data, from the kHwUnits counters of a replay that
// reads a buffer of several times the L2 through every SM (each slice and each channel takes its
// share of the addresses). The profiler's units are counted as sum / mean. A DRAM channel the
// memory runs at part width shows as a unit with less traffic: sum / max counts the traffic in
// full channels (to a half). An H200's 6016-bit bus reads 48 channel units carrying 47 full
// channels' traffic, and 94 L2 slices; an H100's 5120-bit bus 40 of 40, and 80 slices.
struct UnitCensus {
  int l2_slices = 0;
  int dram_channels = 0;          // units the profiler counts
  double dram_full_channels = 0;  // their traffic in full channels
  // The share of the channels' width that is enabled.
  double dram_enabled_share() const { return dram_channels > 0 ? dram_full_channels / dram_channels : 0; }
};
// nullopt when a counter is missing or no traffic was counted.
std::optional<UnitCensus> unit_census(const HwValues& v);

}  // namespace archbench
