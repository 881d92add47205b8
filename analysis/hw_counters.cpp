#include "analysis/hw_counters.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace archbench {

const std::vector<HwMetric>& hw_metrics() {
  static const std::vector<HwMetric> all = {
      // Global memory through L1 (every ld.global / st.global, whatever the cache operator).
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "hw_l1_global_load_requests", kHwMemory},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "hw_l1_global_load_sectors", kHwMemory},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "hw_l1_global_load_hit_sectors", kHwMemory},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "hw_l1_global_store_sectors", kHwMemory},
      // L2, as the SMs asked it (srcunit tex), and what crossed from the other partition.
      {"lts__t_sectors_srcunit_tex_op_read.sum", "hw_l2_read_sectors", kHwMemory},
      {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "hw_l2_read_hit_sectors", kHwMemory},
      {"lts__t_sectors_srcunit_tex_op_write.sum", "hw_l2_write_sectors", kHwMemory},
      {"lts__t_sectors_srcunit_tex_op_atom.sum", "hw_l2_atom_sectors", kHwMemory},
      {"lts__t_sectors_srcunit_tex_op_red.sum", "hw_l2_red_sectors", kHwMemory},
      {"lts__t_sectors_srcunit_ltcfabric.sum", "hw_l2_fabric_sectors", kHwMemory},
      {"dram__bytes_read.sum", "hw_dram_read_bytes", kHwMemory},
      {"dram__bytes_write.sum", "hw_dram_write_bytes", kHwMemory},
      {"smsp__inst_executed_op_global_ld.sum", "hw_inst_global_load", kHwMemory},
      {"smsp__inst_executed_op_global_st.sum", "hw_inst_global_store", kHwMemory},
      {"smsp__inst_executed_op_global_atom.sum", "hw_inst_global_atom", kHwMemory},
      {"smsp__inst_executed_op_global_red.sum", "hw_inst_global_red", kHwMemory},
      // Shared memory: a request is one warp-wide instruction, a wavefront one pass of the banks.
      {"smsp__inst_executed_op_shared_ld.sum", "hw_inst_shared_load", kHwShared},
      {"smsp__inst_executed_op_shared_st.sum", "hw_inst_shared_store", kHwShared},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "hw_smem_load_wavefronts", kHwShared},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "hw_smem_store_wavefronts", kHwShared},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "hw_smem_load_bank_conflicts", kHwShared},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "hw_smem_store_bank_conflicts", kHwShared},
      // Warp instructions by pipe.
      {"smsp__inst_executed.sum", "hw_inst_executed", kHwInstructions},
      {"smsp__inst_executed_pipe_fma.sum", "hw_inst_pipe_fma", kHwInstructions},
      {"smsp__inst_executed_pipe_alu.sum", "hw_inst_pipe_alu", kHwInstructions},
      {"smsp__inst_executed_pipe_fp16.sum", "hw_inst_pipe_fp16", kHwInstructions},
      {"smsp__inst_executed_pipe_fp64.sum", "hw_inst_pipe_fp64", kHwInstructions},
      {"smsp__inst_executed_pipe_xu.sum", "hw_inst_pipe_xu", kHwInstructions},
      {"smsp__inst_executed_pipe_tensor.sum", "hw_inst_pipe_tensor", kHwInstructions | kHwTensor},
      // Tensor pipe activity (wgmma counts as hmma on GH100): cycles, and the share of the active
      // SMs' cycles at the pipe's peak rate (NVPerf's ratio, not a count: never differenced).
      {"sm__pipe_tensor_op_hmma_cycles_active.sum", "hw_tensor_hmma_active_cycles", kHwTensor},
      {"sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active", "hw_tensor_pipe_active_pct",
       kHwTensor},
      // The census of the memory side's units: every L2 slice's sectors and every DRAM channel's
      // reads, summed, and their mean (and maximum) over the units.
      {"lts__t_sectors.sum", "hw_l2_slice_sectors", kHwUnits},
      {"lts__t_sectors.avg", "hw_l2_slice_mean_sectors", kHwUnits},
      {"dram__sectors_read.sum", "hw_dram_channel_read_sectors", kHwUnits},
      {"dram__sectors_read.avg", "hw_dram_channel_mean_read_sectors", kHwUnits},
      {"dram__sectors_read.max", "hw_dram_channel_max_read_sectors", kHwUnits},
  };
  return all;
}

std::vector<HwMetric> hw_metrics_in(unsigned groups) {
  std::vector<HwMetric> out;
  for (const HwMetric& m : hw_metrics())
    if (m.group & groups) out.push_back(m);
  return out;
}

HwValues hw_difference(const HwValues& a, const HwValues& b) {
  HwValues out;
  const auto is_count = [](const std::string& n) {
    const bool ratio = n.size() > 4 && n.compare(n.size() - 4, 4, "_pct") == 0;
    return !ratio && n.find("_mean_") == std::string::npos && n.find("_max_") == std::string::npos;
  };
  for (const auto& [name, value] : a)
    if (auto it = b.find(name); it != b.end() && is_count(name)) out[name] = std::max(0.0, value - it->second);
  return out;
}

namespace {

std::optional<double> get(const HwValues& v, const char* name) {
  const auto it = v.find(name);
  if (it == v.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::optional<ServedShares> served_shares(const HwValues& v) {
  const auto ld = get(v, "hw_l1_global_load_sectors"), hit = get(v, "hw_l1_global_load_hit_sectors"),
             st = get(v, "hw_l1_global_store_sectors"), dram_r = get(v, "hw_dram_read_bytes"),
             dram_w = get(v, "hw_dram_write_bytes");
  if (!ld || !hit || !st || !dram_r || !dram_w) return std::nullopt;
  constexpr double kSector = 32;
  const double atomic_bytes =
      (get(v, "hw_l2_atom_sectors").value_or(0) + get(v, "hw_l2_red_sectors").value_or(0)) * kSector;
  const double load_bytes = *ld * kSector, store_bytes = *st * kSector;
  ServedShares s;
  s.requested_bytes = load_bytes + store_bytes + atomic_bytes;
  if (s.requested_bytes <= 0) return std::nullopt;
  const double l1 = std::min(*hit * kSector, load_bytes);
  // DRAM traffic beyond what could need it is not "serving" (a 64-byte fetch for a 32-byte
  // sector; write-backs of lines dirtied before the range; traffic of no kernel of ours): reads
  // are capped at the load bytes that missed L1, writes at the store bytes, plus the atomics'.
  const double dram = std::min(*dram_r, load_bytes - l1 + atomic_bytes) + std::min(*dram_w, store_bytes + atomic_bytes);
  s.l1 = l1 / s.requested_bytes;
  s.dram = std::min(1.0 - s.l1, dram / s.requested_bytes);
  s.l2 = std::max(0.0, 1.0 - s.l1 - s.dram);
  return s;
}

MemLevel served_level(const ServedShares& s, double dominant) {
  if (s.l1 >= dominant) return MemLevel::l1;
  if (s.l2 >= dominant) return MemLevel::l2;
  if (s.dram >= dominant) return MemLevel::dram;
  // Between levels: L1-L2 when L1 and L2 together served at least `dominant`, L2-DRAM when L2 and
  // DRAM did; L1 and DRAM alone (a chase whose line's first sector misses to DRAM and the rest
  // hit L1) by the larger of the two.
  if (s.l1 + s.l2 >= dominant) return MemLevel::l1_l2;
  if (s.l2 + s.dram >= dominant) return MemLevel::l2_dram;
  return s.l1 >= s.dram ? MemLevel::l1_l2 : MemLevel::l2_dram;
}

HwValues hw_derived(const HwValues& raw) {
  HwValues d;
  const auto ratio_pct = [&](const char* name, const char* num, const char* den) {
    const auto n = get(raw, num), q = get(raw, den);
    if (n && q && *q > 0) d[name] = 100.0 * *n / *q;
  };
  ratio_pct("hw_l1_hit_pct", "hw_l1_global_load_hit_sectors", "hw_l1_global_load_sectors");
  ratio_pct("hw_l2_hit_pct", "hw_l2_read_hit_sectors", "hw_l2_read_sectors");
  if (const auto fabric = get(raw, "hw_l2_fabric_sectors")) {
    double asked = 0;
    bool any = false;
    for (const char* n : {"hw_l2_read_sectors", "hw_l2_write_sectors", "hw_l2_atom_sectors", "hw_l2_red_sectors"})
      if (const auto x = get(raw, n)) asked += *x, any = true;
    if (any && asked > 0) d["hw_l2_fabric_pct"] = 100.0 * *fabric / asked;
  }
  const auto per = [&](const char* name, const char* num, const char* den) {
    const auto n = get(raw, num), q = get(raw, den);
    if (n && q && *q > 0) d[name] = *n / *q;
  };
  per("hw_smem_load_wavefronts_per_request", "hw_smem_load_wavefronts", "hw_inst_shared_load");
  per("hw_smem_store_wavefronts_per_request", "hw_smem_store_wavefronts", "hw_inst_shared_store");
  if (const auto s = served_shares(raw)) {
    d["hw_served_l1_pct"] = 100.0 * s->l1;
    d["hw_served_l2_pct"] = 100.0 * s->l2;
    d["hw_served_dram_pct"] = 100.0 * s->dram;
    d["hw_level"] = mem_level_value(served_level(*s));
  }
  return d;
}

std::optional<UnitCensus> unit_census(const HwValues& v) {
  const auto slices = get(v, "hw_l2_slice_sectors"), slice_mean = get(v, "hw_l2_slice_mean_sectors"),
             dram = get(v, "hw_dram_channel_read_sectors"), dram_mean = get(v, "hw_dram_channel_mean_read_sectors"),
             dram_max = get(v, "hw_dram_channel_max_read_sectors");
  if (!slices || !slice_mean || !dram || !dram_mean || !dram_max) return std::nullopt;
  if (!(*slice_mean > 0) || !(*dram_mean > 0) || !(*dram_max > 0) || !(*slices > 0) || !(*dram > 0))
    return std::nullopt;
  UnitCensus c;
  c.l2_slices = int(std::lround(*slices / *slice_mean));
  c.dram_channels = int(std::lround(*dram / *dram_mean));
  // To a half channel: the address hash leaves the full channels a few hundredths apart.
  c.dram_full_channels = std::min(double(c.dram_channels), std::round(2 * *dram / *dram_max) / 2);
  return c;
}

}  // namespace archbench
