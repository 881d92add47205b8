// HostLink: data between host and device, and the link that carries it.
//   HostLink/link                                  the link (PCIe generation x width, NVML) and its
//                                                  per-direction peak; NUMA nodes of the GPU and the host
//   HostLink/copy/dir:D/memory:M/size:S            cudaMemcpyAsync (managed: cudaMemPrefetchAsync);
//                                                  D h2d, d2h, bidir (both at once, two buffers);
//                                                  M pinned, pageable, registered, managed; S 4 KiB .. 1 GiB
//   HostLink/sm/read|write/memory:pinned           every SM's 16-byte loads (stores) in mapped host memory
//   HostLink/latency/memory:pinned                 one thread's dependent loads through mapped host memory
// pct_of_link_peak: of the link's per-direction peak, twice that for bidir. Every copy is timed on
// the host from the first call to the last synchronise (what an application waits for), and its
// destination checked word by word afterwards.
#include <benchmark/benchmark.h>

#include <chrono>
#include <string>
#include <vector>

#include "analysis/stats.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/hostlink_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
// The SMs' accesses run over 256 MiB of pinned memory (a quick run 64 MiB: pinning and filling
// 256 MiB four times took most of a quick run's 1.5 s there).
constexpr std::size_t kSmFootprint = std::size_t(256) << 20, kQuickSmFootprint = std::size_t(64) << 20;
constexpr std::size_t kLatencyFootprint = std::size_t(64) << 20;

void set_peak(benchmark::State& state, double bytes_per_second, double directions) {
  const HostLinkModel m = host_link_model();
  if (!m.peak_bytes_per_second) return;
  state.counters["link_peak_bytes_per_second"] = *m.peak_bytes_per_second * directions;
  state.counters["pct_of_link_peak"] = 100.0 * bytes_per_second / (*m.peak_bytes_per_second * directions);
}

void numa(benchmark::State& state, int host_node) {
  state.counters["host_numa_node"] = host_node;
  state.counters["gpu_numa_node"] = gpu_numa_node();
}

void link(benchmark::State& state) {
  guarded(state, [&] {
    HostLinkModel m;
    timed_loop(state, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      m = host_link_model();
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    });
    state.counters["pcie_gen"] = m.pcie_gen;
    state.counters["pcie_width"] = m.pcie_width;
    state.counters["pcie_gen_current"] = m.pcie_gen_current;
    state.counters["pcie_width_current"] = m.pcie_width_current;
    state.counters["link_peak_bytes_per_second"] = m.peak_bytes_per_second.value_or(0);
    state.counters["gpu_numa_node"] = gpu_numa_node();
    state.counters["numa_nodes"] = numa_nodes();
    note(state, m.formula + (numa_nodes() > 1 ? "" : "; one NUMA node: no near and far socket to compare"));
    report_clocks(state, 0);
  });
}

void copy(benchmark::State& state, HostMemory memory, CopyDir dir, std::size_t bytes) {
  guarded(state, [&] {
    HostCopyBuffers buffers(memory, dir, bytes);
    const int copies = buffers.calibrate();
    std::vector<double> rates;
    HostCopy last;
    timed_loop(state, [&] {
      last = buffers.measure(copies);  // throws SelfCheckError on a wrong destination
      rates.push_back(last.bytes_per_second);
      return last.seconds;
    });
    report_sampled(state, "bytes_per_second", rates);
    state.counters["size_bytes"] = double(bytes);
    state.counters["copies"] = copies;
    state.counters["self_checked"] = 1;
    set_peak(state, median(rates), dir == CopyDir::bidir ? 2 : 1);
    numa(state, last.host_numa_node);
    report_clocks(state, 0);
  });
}

void sm_access(benchmark::State& state, bool write, std::size_t footprint) {
  guarded(state, [&] {
    const std::uint32_t passes = calibrate_host_sm_access(write, footprint);
    std::vector<double> rates;
    timed_loop(state, [&] {
      const HostSmAccess m = measure_host_sm_access(write, footprint, passes);  // writes checked
      rates.push_back(m.bytes_per_second);
      return m.seconds;
    });
    report_sampled(state, "bytes_per_second", rates);
    state.counters["footprint_bytes"] = double(footprint);
    state.counters["passes"] = passes;
    state.counters["width_bytes"] = 16;
    state.counters["self_checked"] = write ? 1 : 0;
    set_peak(state, median(rates), 1);
    report_clocks(state, 0);
  });
}

void latency(benchmark::State& state, std::uint32_t pin_sm) {
  guarded(state, [&] {
    std::vector<double> ns, cycles, mhz;
    int node = -1;
    timed_loop(state, [&] {
      const HostLatency l = measure_host_latency(kLatencyFootprint, pin_sm);  // throws on a wrong end
      ns.push_back(l.ns);
      cycles.push_back(l.cycles);
      mhz.push_back(l.sm_clock_mhz);
      node = l.host_numa_node;
      return l.ns * 1024 * 1e-9;
    });
    report_sampled(state, "latency_ns", ns);
    state.counters["latency_cycles"] = median(cycles);
    state.counters["footprint_bytes"] = double(kLatencyFootprint);
    state.counters["self_checked"] = 1;
    numa(state, node);
    report_clocks(state, median(mhz));
  });
}

const std::vector<MetricRule> kHostLinkMetrics = {{"HostLink/link", {value("link_peak_bytes_per_second", 0)}},
                                                  {"HostLink/copy/", {higher("bytes_per_second")}},
                                                  {"HostLink/sm/", {higher("bytes_per_second")}},
                                                  {"HostLink/latency/", {lower("latency_ns")}}};

void register_hostlink(const SuiteConfig& cfg) {
  // A quick run ends at 64 MiB: the 1-GiB copies took 16 of its 18 s (allocating, pinning and
  // checking 1 GiB per benchmark), and a pinned copy is at the link's rate well before 64 MiB.
  const std::size_t largest = cfg.quick ? std::size_t(64) << 20 : std::size_t(1) << 30;
  std::vector<std::size_t> sizes;
  for (std::size_t s = 4096; s <= largest; s *= cfg.quick ? 128 : 8) sizes.push_back(s);
  if (sizes.back() != largest) sizes.push_back(largest);
  struct Case {
    CopyDir dir;
    HostMemory memory;
  };
  const std::vector<Case> cases = {{CopyDir::h2d, HostMemory::pinned},     {CopyDir::d2h, HostMemory::pinned},
                                   {CopyDir::bidir, HostMemory::pinned},   {CopyDir::h2d, HostMemory::pageable},
                                   {CopyDir::d2h, HostMemory::pageable},   {CopyDir::h2d, HostMemory::registered},
                                   {CopyDir::d2h, HostMemory::registered}, {CopyDir::bidir, HostMemory::registered},
                                   {CopyDir::h2d, HostMemory::managed},    {CopyDir::d2h, HostMemory::managed}};
  std::vector<BenchmarkPoint> points;
  points.push_back({"HostLink/link", link});
  for (const Case& c : cases)
    for (std::size_t s : sizes)
      points.push_back(
          {bench_name("HostLink/copy",
                      {{"dir", copy_dir_name(c.dir)}, {"memory", host_memory_name(c.memory)}, {"size", s}}),
           [c, s](benchmark::State& st) { copy(st, c.memory, c.dir, s); }});
  const std::size_t sm_footprint = cfg.quick ? kQuickSmFootprint : kSmFootprint;
  points.push_back(
      {"HostLink/sm/read/memory:pinned", [sm_footprint](benchmark::State& st) { sm_access(st, false, sm_footprint); }});
  points.push_back(
      {"HostLink/sm/write/memory:pinned", [sm_footprint](benchmark::State& st) { sm_access(st, true, sm_footprint); }});
  points.push_back({"HostLink/latency/memory:pinned",
                    [sm = cfg.placement.reference_sm](benchmark::State& st) { latency(st, sm); }});
  register_points("HostLink", points, kIterations, kHostLinkMetrics);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(HostLink, archbench::register_hostlink);
