// MemLatency: global-memory load latency by pointer chase (Mei & Chu), per cache operator.
//   MemLatency/chain/<op>/footprint:F/stride:S  long chain of 64-bit pointers: load-to-use latency
//   MemLatency/fine/<op>/footprint:F/stride:S   per-access timing of a 32-bit index chase:
//                                               p50/p95, timer overhead beside it
// Sweeps: footprint 1 KiB .. 4x L2 (denser around the L1 and L2 edges) at a 128 B stride;
// stride 4 B (chain: 8 B) .. 2 MiB at a footprint of 4x L2.
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/chase_report.hpp"
#include "fixtures/runners/chase_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/sweep.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr std::size_t kLineStride = 128;  // footprint sweeps: one access per 128 B line
constexpr int kIterations = 3;            // timed launches per benchmark (medians reported)

ChaseRunner& runner() {
  static ChaseRunner r(Gpu::current().info().l2_bytes);
  return r;
}

// One benchmark body for both forms: prepare the chase, time kIterations launches, report.
template <ChaseForm kForm>
void chase_latency(benchmark::State& state, ChaseSpec spec, std::uint32_t pin_sm) {
  guarded(state, [&] {
    ChaseRunner& r = runner();
    r.prepare(spec, kForm, pin_sm);
    const long retries_before = r.clock_retries();
    if constexpr (kForm == ChaseForm::chain) {
      std::vector<ChainTiming> runs;
      timed_loop(state, [&] {
        runs.push_back(r.chain_once());
        return double(runs.back().ns) * 1e-9;
      });
      report_chain_latency(state, spec, runs, r.primed());
    } else {
      std::vector<FineTiming> runs;
      timed_loop(state, [&] {
        runs.push_back(r.fine_once());
        return double(runs.back().window_ns) * 1e-9;
      });
      report_fine_latency(state, spec, runs, r.primed(), pin_sm);
    }
    state.counters["sm_clock_dip_retries"] = double(r.clock_retries() - retries_before);
    // Where a short chase sits (ChaseRunner): its first line's offset and how far its lines' mean
    // L2 latency from the SM lies from the figure it was placed at (the map's cycles), and that figure.
    if (const ChaseRunner::Placed& at = r.placed(); at.placed) {
      state.counters["l2_placement_offset_bytes"] = double(at.offset_bytes);
      state.counters["l2_placed_lines_vs_target_cycles"] = at.lines_cycles - at.target_cycles;
      state.counters["l2_placement_target_cycles"] = at.target_cycles;
    }
    // --counters: kCounterSteps steps' own counters, the warm-up subtracted (ChaseRunner).
    if (add_hw_counters(state, kHwMemory, r.counter_replay(true), r.counter_replay(false)))
      state.counters["hw_steps"] = ChaseRunner::kCounterSteps;
  });
}
constexpr auto chain_latency = chase_latency<ChaseForm::chain>;
constexpr auto fine_latency = chase_latency<ChaseForm::fine>;

struct Point {
  std::string family;  // "MemLatency/chain/ld.ca"
  void (*fn)(benchmark::State&, ChaseSpec, std::uint32_t);
  ChaseSpec spec;
  std::size_t footprint, stride;
};

void register_mem_latency(const SuiteConfig& cfg) {
  const GpuInfo& g = cfg.gpu.info();
  const std::size_t l2 = g.l2_bytes, smem = g.smem_per_sm_bytes;
  const std::uint32_t sm = cfg.placement.reference_sm;  // every chase runs there
  // Short chases on lines at the GPU's median SM's L2 latency (ChaseRunner): what they read is
  // then the GPU's, whichever SM and lines they got.
  const double place_at = cfg.placement.measured.median_cycles;
  const std::size_t max_footprint = (4 * l2 + kLineStride - 1) / kLineStride * kLineStride;
  // The L1 edge lies near the unified L1/shared size, which the API does not give: shared memory
  // per SM bounds it from below. The L2 edges (near partition, whole L2) lie within [L2/4, 2 L2].
  const std::vector<DenseRegion> dense = cfg.quick ? std::vector<DenseRegion>{}
                                                   : std::vector<DenseRegion>{{smem / 2, 2 * smem, cfg.dense ? 16 : 8},
                                                                              {l2 / 4, 2 * l2, cfg.dense ? 12 : 6}};
  // No point within 6 % of half the L2: the near part's capacity, where a per-access median flips
  // between a near hit and a far one by board (25 MiB read 287-299 cycles on seven H100s and 528
  // on an eighth).
  const auto footprints = off_the_cliffs(log_sweep(1024, max_footprint,
                                                   cfg.quick   ? 1
                                                   : cfg.dense ? 4
                                                               : 2,
                                                   dense, kLineStride),
                                         {l2 / 2}, 0.06, 0.06, kLineStride);
  const auto strides = cfg.quick ? std::vector<std::size_t>{4, 32, 128, 4096, 2u << 20} : pow2_sweep(4, 2u << 20);
  // The strides chase 4x the L2; a quick run's the sweep's footprint nearest 2x the L2 (DRAM as
  // well: an H200 read 664.1 cycles there against 664.4 at 4x, and the strides at 4x took 1.5 of a
  // quick run's 5.6 s in MemLatency).
  const auto off_twice_l2 = [&](std::size_t f) { return std::abs(double(f) - 2.0 * double(l2)); };
  std::size_t stride_footprint = max_footprint;
  if (cfg.quick)
    for (std::size_t f : footprints)
      if (off_twice_l2(f) < off_twice_l2(stride_footprint)) stride_footprint = f;

  // Footprint-major order: consecutive benchmarks share one chase array (ChaseRunner reuses it).
  std::vector<Point> points;
  for (std::size_t f : footprints)
    for (CacheOp op : kAllCacheOps) {
      const std::string op_name = cache_op_name(op);
      points.push_back({"MemLatency/chain/" + op_name, chain_latency, {op}, f, kLineStride});
      points.push_back({"MemLatency/fine/" + op_name, fine_latency, {op}, f, kLineStride});
    }
  for (std::size_t s : strides)
    for (CacheOp op : {CacheOp::ca, CacheOp::cg}) {
      const std::string op_name = cache_op_name(op);
      if (s % 8 == 0)  // the chain chases 8-byte pointers
        points.push_back({"MemLatency/chain/" + op_name, chain_latency, {op}, stride_footprint, s});
      points.push_back({"MemLatency/fine/" + op_name, fine_latency, {op}, stride_footprint, s});
    }

  std::vector<BenchmarkPoint> named;
  for (const Point& p : points)
    named.push_back(
        {bench_name(p.family, {{"footprint", p.footprint}, {"stride", p.stride}}), [p, sm, place_at](benchmark::State& st) {
           ChaseSpec spec = p.spec;
           spec.footprint_bytes = p.footprint;
           spec.stride_bytes = p.stride;
           spec.place_at_cycles = place_at;
           p.fn(st, spec, sm);
         }});
  register_points("MemLatency", named, kIterations, {{"MemLatency/", {lower("latency_cycles")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(MemLatency, archbench::register_mem_latency);
