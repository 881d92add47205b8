// P2P: the links between the GPUs of a node, for every ordered pair of visible GPUs (gpu i
// initiates, peer j owns the memory; i == j is the same kernel on local memory, the baseline).
//   P2P/link/gpu:I/peer:J                          peer access, native atomics, CUDA's rank, NVML's link
//   P2P/copy/src:I/dst:J/dir:D/size:S              cudaMemcpyPeerAsync; D uni, or bi (J -> I at once);
//                                                  the copies queued behind a gate, then released
//   P2P/remote_read/gpu:I/peer:J                   16-byte loads by every SM of I in J's memory
//   P2P/remote_write/gpu:I/peer:J                  16-byte stores, the same way
//   P2P/latency/gpu:I/peer:J/level:L               dependent ld.cg through J's memory; L peer_l2, peer_dram
//   P2P/atomics/gpu:I/peer:J/form:F/contention:C   F.add.u32 at .sys, C distinct (own address) or all (one);
//                                                  the rate is a slope over two launches (fixed costs out),
//                                                  each iteration at another placement of the cells
//   P2P/matrix                                     the pairs' headline numbers, as counters NAME[i][j]
// With fewer than two GPUs, P2P/pairs skips with the reason. pct_of_peak: of the link's
// per-direction peak (fixtures/harness/p2p_links.hpp), twice that for dir:bi; of DRAM for i == j.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/stats.hpp"
#include "kernels/shared/atomics_check.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/p2p_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/sweep.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;

// The headline number of each pair and metric, filled as the pair benchmarks run, reported by
// P2P/matrix at the end (so the matrix holds what this run measured, whatever the filter).
std::map<std::string, std::map<std::pair<int, int>, double>>& matrix() {
  static std::map<std::string, std::map<std::pair<int, int>, double>> m;
  return m;
}
void record(const std::string& metric, int i, int j, double v) { matrix()[metric][{i, j}] = v; }

// Clocks of the GPU that did the work (the kernel's own clock; for copies NVML's SM clock).
void report_gpu_clocks(benchmark::State& state, int gpu, double kernel_clock_mhz) {
  const Nvml& nvml = gpu_nvml(gpu);
  double clock = kernel_clock_mhz;
  if (clock <= 0)
    if (const auto s = nvml.sample()) clock = s->sm_clock_mhz;
  report_clocks(state, clock, nvml, kernel_clock_mhz > 0 ? gpu_info(gpu).max_sm_clock_mhz : 0);
  state.counters["gpu"] = gpu;
}

// Per-direction peak for i != j (the link), DRAM's for i == j.
std::optional<double> peak_of(int i, int j) {
  if (i == j)
    return gpu_info(i).dram_peak_bytes_per_s > 0 ? std::optional<double>(gpu_info(i).dram_peak_bytes_per_s)
                                                 : std::nullopt;
  return query_peer_link(i, j).model.peak_bytes_per_second;
}

void set_pct(benchmark::State& state, double bytes_per_second, std::optional<double> peak) {
  if (!peak || *peak <= 0) return;
  state.counters["peak_bytes_per_second"] = *peak;
  state.counters["pct_of_peak"] = 100.0 * bytes_per_second / *peak;
}

void link(benchmark::State& state, int i, int j) {
  guarded(state, [&] {
    PeerLink l;
    timed_loop(state, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      l = query_peer_link(i, j);
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    state.counters["can_access_peer"] = l.can_access_peer;
    state.counters["native_atomics"] = l.native_atomics;
    state.counters["performance_rank"] = l.performance_rank;
    state.counters["nvml"] = l.facts.nvml;
    state.counters["nvlink_active_links"] = double(l.facts.active_nvlinks.size());
    state.counters["nvlink_links"] = l.model.links;
    state.counters["nvlink_speed_mbps"] = l.facts.nvlink_speed_mbps;
    state.counters["nvlink_version"] = l.facts.nvlink_version;
    state.counters["nvml_nvlink_p2p_status"] = l.facts.nvlink_p2p_status;
    state.counters["pcie_gen"] = l.facts.pcie_gen;
    state.counters["pcie_width"] = l.facts.pcie_width;
    state.counters["topology_level"] = l.facts.topology_level;
    state.counters["link_peak_bytes_per_second"] = l.model.peak_bytes_per_second.value_or(0);
    note(state, std::string(link_type_name(l.model.type)) + "; " + l.model.formula + "; topology " +
                    topology_level_name(l.facts.topology_level));
    report_gpu_clocks(state, i, 0);
    record("can_access_peer", i, j, l.can_access_peer);
    record("nvlink_links", i, j, l.model.links);
    record("link_peak_bytes_per_second", i, j, l.model.peak_bytes_per_second.value_or(0));
  });
}

void copy(benchmark::State& state, int i, int j, bool bidirectional, std::size_t bytes, bool headline) {
  guarded(state, [&] {
    PeerCopier copier(i, j, bytes, bidirectional);
    const int copies = copier.calibrate();
    // destinations read back
    const std::vector<PeerCopy> runs = timed_runs(
        state, [&] { return copier.measure(copies); }, [](const PeerCopy& m) { return m.seconds; });
    std::vector<double> rates;
    for (const PeerCopy& r : runs) rates.push_back(r.bytes_per_second);
    report_sampled(state, "bytes_per_second", rates);  // with its spread: compare's band for small copies
    const double bps = median(rates);
    state.counters["size_bytes"] = double(bytes);
    state.counters["copies"] = copies;
    state.counters["peer_access"] = runs.back().peer_access;
    state.counters["self_checked"] = 1;
    const auto peak = peak_of(i, j);
    set_pct(state, bps, peak ? std::optional<double>(*peak * (bidirectional ? 2 : 1)) : std::nullopt);
    report_gpu_clocks(state, i, 0);
    if (headline) record(bidirectional ? "copy_bi_bytes_per_second" : "copy_uni_bytes_per_second", i, j, bps);
  });
}

void remote_access(benchmark::State& state, int i, int j, BwKind kind) {
  guarded(state, [&] {
    RemoteAccessRunner runner(i, j, kind);  // skips with the reason when i cannot reach j's memory
    const std::uint32_t passes = runner.calibrate();
    // stores are read back
    const std::vector<RemoteAccess> runs = timed_runs(
        state, [&] { return runner.measure(passes); },
        [](const RemoteAccess& m) { return m.summary.gpu_window_ns * 1e-9; });
    const RemoteAccess& last = runs.back();
    const double bps = median_of(runs, [](const auto& m) { return m.bytes_per_second; });
    state.counters["bytes_per_second"] = bps;
    state.counters["bytes_per_clk_per_sm"] = median_of(runs, [](const auto& m) { return m.bytes_per_clk_per_sm; });
    state.counters["footprint_bytes"] = double(last.footprint_bytes);
    state.counters["passes"] = passes;
    state.counters["width_bytes"] = last.width_bytes;
    state.counters["sms"] = last.summary.sms_used;
    state.counters["warps_per_sm"] = last.summary.max_warps_per_sm;
    state.counters["self_checked"] = kind == BwKind::write;
    set_pct(state, bps, peak_of(i, j));
    report_gpu_clocks(state, i, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
    record(kind == BwKind::read ? "read_bytes_per_second" : "write_bytes_per_second", i, j, bps);
  });
}

void latency(benchmark::State& state, int i, int j, bool peer_l2, std::uint32_t pin_sm) {
  guarded(state, [&] {
    RemoteLatencyRunner runner(i, j, peer_l2, pin_sm);
    // throws SelfCheckError when the chase went astray
    const std::vector<RemoteLatency> runs = timed_runs(
        state, [&] { return runner.measure(); }, [](const RemoteLatency& m) { return m.ns * m.steps * 1e-9; });
    const double cycles = median_of(runs, [](const auto& m) { return m.cycles; });
    const double ns = median_of(runs, [](const auto& m) { return m.ns; });
    state.counters["latency_cycles"] = cycles;
    state.counters["latency_ns"] = ns;
    state.counters["footprint_bytes"] = double(runs.back().footprint_bytes);
    state.counters["steps"] = runs.back().steps;
    state.counters["self_checked"] = 1;
    report_gpu_clocks(state, i, median_of(runs, [](const auto& m) { return m.sm_clock_mhz; }));
    const std::string level = peer_l2 ? "peer_l2" : "peer_dram";
    record("latency_" + level + "_ns", i, j, ns);
    record("latency_" + level + "_cycles", i, j, cycles);
  });
}

void atomics(benchmark::State& state, int i, int j, AtomForm form, Contention contention, bool headline) {
  guarded(state, [&] {
    RemoteAtomicsRunner runner(i, j, form, contention);
    // throws SelfCheckError on a lost update
    const std::vector<RemoteAtomics> runs = timed_runs(
        state, [&] { return runner.measure(); }, [](const RemoteAtomics& m) { return m.window_ns * 1e-9; });
    const double rate = median_of(runs, [](const auto& m) { return m.atomics_per_second; });
    const AtomicMeasurement& last = runs.back().launch;
    state.counters["atomics_per_second"] = rate;
    // Per clock, each sample at its own placement of the cells, with their spread (compare's band).
    std::vector<double> per_clk;
    for (const RemoteAtomics& r : runs)
      if (r.launch.summary.sm_clock_mhz > 0)
        per_clk.push_back(r.atomics_per_second / (r.launch.summary.sm_clock_mhz * 1e6));
    report_sampled(state, "atomics_per_clk", per_clk);
    state.counters["launch_atomics_per_second"] =
        median_of(runs, [](const auto& m) { return m.launch.atomics_per_second; });
    state.counters["launch_fixed_us"] = median_of(runs, [](const auto& m) { return m.launch_fixed_ns / 1e3; });
    state.counters["threads_per_address"] = double(last.threads_per_address);
    state.counters["addresses"] = double(last.addresses);
    state.counters["iterations"] = runs.back().iters_long;
    state.counters["iterations_short"] = runs.back().iters_short;
    state.counters["self_checked"] = 1;
    report_gpu_clocks(state, i, median_of(runs, [](const auto& m) { return m.launch.summary.sm_clock_mhz; }));
    if (headline)
      record(std::string("atomics_") + (contention == Contention::all ? "one_address" : "distinct") + "_per_second", i,
             j, rate);
  });
}

void matrix_report(benchmark::State& state, int gpus) {
  timed_loop(state, [&] { return 1e-6; });
  if (matrix().empty()) {
    skip(state, "no P2P pair was measured in this run (benchmark filter)");
    return;
  }
  state.counters["gpus"] = gpus;
  for (const auto& [metric, cells] : matrix())
    for (const auto& [pair, value] : cells)
      state.counters[metric + "[" + std::to_string(pair.first) + "][" + std::to_string(pair.second) + "]"] = value;
  report_clocks(state, 0);
}

// Links: bytes per second; the peer's latency in the initiator's cycles; atomics per clock. The link
// itself (its type and peak) is a value: a changed link is a finding.
const std::vector<MetricRule> kP2PMetrics = {{"P2P/", {value("gpus", 0)}},
                                             {"P2P/link/", {value("link_peak_bytes_per_second", 0)}},
                                             {"P2P/copy/", {higher("bytes_per_second")}},
                                             {"P2P/remote_read/", {higher("bytes_per_second")}},
                                             {"P2P/remote_write/", {higher("bytes_per_second")}},
                                             {"P2P/latency/", {lower("latency_cycles")}},
                                             {"P2P/atomics/", {higher("atomics_per_clk")}}};

void register_p2p(const SuiteConfig& cfg) {
  const int gpus = Gpu::device_count();
  std::vector<BenchmarkPoint> points;
  if (gpus < 2) {
    points.push_back({"P2P/pairs", [gpus](benchmark::State& st) {
                        skip(st, "P2P needs at least 2 visible GPUs; " + std::to_string(gpus) +
                                     " visible (CUDA_VISIBLE_DEVICES?)");
                      }});
    register_points("P2P", points, 1, kP2PMetrics);
    return;
  }
  for (int g = 0; g < gpus; ++g) {
    const GpuInfo& info = gpu_info(g);
    benchmark::AddCustomContext("p2p_gpu" + std::to_string(g), info.name + " " + info.uuid + " " + info.pci_bus_id);
  }
  const std::vector<std::size_t> sizes = cfg.quick
                                             ? std::vector<std::size_t>{std::size_t(256) << 20}
                                             : std::vector<std::size_t>{std::size_t(64) << 10, std::size_t(1) << 20,
                                                                        std::size_t(16) << 20, std::size_t(256) << 20};
  const std::vector<AtomForm> forms =
      cfg.quick ? std::vector<AtomForm>{AtomForm::atom} : std::vector<AtomForm>{AtomForm::atom, AtomForm::red};
  const std::vector<Contention> contentions = cfg.quick
                                                  ? std::vector<Contention>{Contention::distinct}
                                                  : std::vector<Contention>{Contention::distinct, Contention::all};
  for (int i = 0; i < gpus; ++i)
    for (int j = 0; j < gpus; ++j)
      if (i != j)
        points.push_back(
            {bench_name("P2P/link", {{"gpu", i}, {"peer", j}}), [i, j](benchmark::State& st) { link(st, i, j); }});
  for (bool bi : {false, true})
    for (int i = 0; i < gpus; ++i)
      for (int j = 0; j < gpus; ++j)
        for (std::size_t bytes : sizes)
          if (i != j && (!bi || i < j))  // bidirectional is symmetric: one per unordered pair
            points.push_back(
                {bench_name("P2P/copy", {{"src", i}, {"dst", j}, {"dir", bi ? "bi" : "uni"}, {"size", bytes}}),
                 [=](benchmark::State& st) { copy(st, i, j, bi, bytes, bytes == sizes.back()); }});
  for (BwKind kind : {BwKind::read, BwKind::write})
    for (int i = 0; i < gpus; ++i)
      for (int j = 0; j < gpus; ++j)
        points.push_back(
            {bench_name(kind == BwKind::read ? "P2P/remote_read" : "P2P/remote_write", {{"gpu", i}, {"peer", j}}),
             [=](benchmark::State& st) { remote_access(st, i, j, kind); }});
  for (bool peer_l2 : {true, false})
    for (int i = 0; i < gpus; ++i)
      for (int j = 0; j < gpus; ++j)
        points.push_back(
            {bench_name("P2P/latency", {{"gpu", i}, {"peer", j}, {"level", peer_l2 ? "peer_l2" : "peer_dram"}}),
             [=, sm = cfg.placement.reference_sm](benchmark::State& st) { latency(st, i, j, peer_l2, sm); }});
  for (AtomForm form : forms)
    for (Contention c : contentions)
      for (int i = 0; i < gpus; ++i)
        for (int j = 0; j < gpus; ++j)
          points.push_back({bench_name("P2P/atomics", {{"gpu", i},
                                                       {"peer", j},
                                                       {"form", atom_form_name(form)},
                                                       {"contention", c == Contention::all ? "all" : "distinct"}}),
                            [=](benchmark::State& st) { atomics(st, i, j, form, c, form == AtomForm::atom); }});
  points.push_back({"P2P/matrix", [gpus](benchmark::State& st) { matrix_report(st, gpus); }});
  register_points("P2P", points, kIterations, kP2PMetrics);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(P2P, archbench::register_p2p);
