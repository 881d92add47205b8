// Atomics: throughput under contention and latency, per op, type, space, form and scope.
//   Atomics/<space>/<form>.<op>/<scope>/contention:C/spacing:S/warps_per_block:W/blocks_per_sm:B
//   Atomics/latency/<space>/atom.<op>       global: on a line whose L2 home is near the SM (and far)
// <space>: global, shared. <form>: atom (returns the old value), red (does not). <scope>: cta,
// gpu, sys (shared memory: cta). C: threads sharing one address: all, warp, block, sm, distinct.
// S: bytes between the addresses.
#include <benchmark/benchmark.h>

#include <functional>
#include <string>
#include <vector>

#include "kernels/shared/atomics_check.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/atomics_runner.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

// Timed launches per benchmark, the median reported. Throughput launches each place their
// addresses elsewhere (kPlacementStep apart: another 2 MiB page, and 9 lines on): where few lines
// take every atomic (contention all, warp, block, sm), the L2 slices they hash to set the rate,
// from 7 to 14 atomics/clk for one address per warp, fixed within a process and not between.
constexpr int kIterations = 5;
constexpr std::size_t kPlacementStep = (std::size_t(2) << 20) + 9 * 128;

std::optional<std::string> unsupported(AtomOp op) {
  const AtomOpInfo& info = atom_op_info(op);
  const int cc = Gpu::current().info().cc();
  if (cc < info.min_cc) return std::string(info.min_cc_reason) + "; this GPU is sm_" + std::to_string(cc);
  return std::nullopt;
}

void throughput(benchmark::State& state, AtomicLaunch l) {
  if (auto why = unsupported(l.op)) {
    skip(state, *why);
    return;
  }
  guarded(state, [&] {
    const GpuInfo& g = Gpu::current().info();
    l.iters = calibrate_atomics(l, g.sm_count);
    std::vector<AtomicMeasurement> runs;
    std::vector<double> per_clk, concurrent;
    timed_loop(state, [&] {
      l.placement_bytes = runs.size() * kPlacementStep;  // each launch on other pages (global memory)
      runs.push_back(measure_atomics(l, g.sm_count));    // throws SelfCheckError on a wrong final value
      per_clk.push_back(runs.back().atomics_per_clk);
      concurrent.push_back(runs.back().summary.per_sm_rate_mean * runs.back().summary.sms_used);
      return runs.back().summary.gpu_window_ns * 1e-9;
    });
    add_hw_counters(state, kHwMemory, {nullptr, [&] { measure_atomics(l, g.sm_count); }});
    const AtomicMeasurement& last = runs.back();
    state.counters["atomics_per_second"] = median_of(runs, [](const auto& m) { return m.atomics_per_second; });
    report_sampled(state, "atomics_per_clk", per_clk);
    // The SMs' rates added up: the grid's rate while every SM runs. The grid total above also
    // counts the launch's ragged end, where SMs that finished wait for the slowest; how ragged
    // differs between processes and boards (red.add.u32, a thread per address: 283-337).
    report_sampled(state, "atomics_per_clk_concurrent", concurrent);
    state.counters["atomics_per_clk_per_sm"] =
        median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_mean; });
    state.counters["threads_per_address"] = double(last.threads_per_address);
    state.counters["addresses"] = double(last.addresses);
    state.counters["spacing_bytes"] = l.spacing_bytes ? l.spacing_bytes : atom_op_info(l.op).bytes;
    state.counters["iterations"] = last.iters;  // per thread
    state.counters["warps_per_block"] = l.threads_per_block / 32;
    state.counters["blocks_per_sm"] = double(l.blocks) / g.sm_count;
    state.counters["sms"] = last.summary.sms_used;
    state.counters["self_checked"] = 1;
    if (l.contention == Contention::near_l2 || l.contention == Contention::far_l2) {
      const L2Homes& h = l2_homes();
      state.counters["l2_near_atomic_cycles"] = h.near_cycles;
      state.counters["l2_far_atomic_cycles"] = h.far_cycles;
      state.counters["l2_near_fraction"] = h.near_fraction;
      // A probability since 2026-11-24; l2_split_confidence held robust separations before, so the
      // name is retired rather than reused (a counter never changes meaning under one name).
      state.counters["l2_split_probability"] = h.min_split_confidence;
      state.counters["l2_split_robust_separation_min"] = h.min_robust_separation;
      state.counters["l2_sms_probed"] = h.sms_probed;
    }
    report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
  });
}

void latency(benchmark::State& state, AtomOp op, AtomSpace space, std::uint32_t pin_sm) {
  if (auto why = unsupported(op)) {
    skip(state, *why);
    return;
  }
  guarded(state, [&] {
    // Global memory: on a line whose L2 home is near to the SM, and on one far from it.
    std::vector<double> cycles, far_cycles, mhz;
    AtomicLatency near, far;
    timed_loop(state, [&] {
      near = atomic_latency(op, space, pin_sm, Contention::near_l2);
      cycles.push_back(near.cycles);
      mhz.push_back(near.sm_clock_mhz);
      if (space == AtomSpace::global) {
        far = atomic_latency(op, space, pin_sm, Contention::far_l2);
        far_cycles.push_back(far.cycles);
      }
      return near.window_ns * 1e-9;
    });
    const double c = median(cycles), clock = median(mhz);
    state.counters["latency_cycles"] = c;
    state.counters["latency_ns"] = clock > 0 ? c * 1e3 / clock : 0;
    if (!far_cycles.empty()) {
      const double f = median(far_cycles);
      state.counters["latency_far_cycles"] = f;
      state.counters["latency_far_ns"] = clock > 0 ? f * 1e3 / clock : 0;
      // Where the chains' lines sit against the GPU's distance to each partition (probe steps).
      state.counters["l2_home_target_step_cycles"] = near.target_step_cycles;
      state.counters["l2_home_placed_vs_target_cycles"] = near.placed_vs_target_cycles;
      state.counters["l2_home_far_target_step_cycles"] = far.target_step_cycles;
      state.counters["l2_home_far_placed_vs_target_cycles"] = far.placed_vs_target_cycles;
    }
    report_clocks(state, clock);
  });
}

std::string shape_name(const AtomicLaunch& l, int sms) {
  const std::uint32_t spacing = l.spacing_bytes ? l.spacing_bytes : std::uint32_t(atom_op_info(l.op).bytes);
  return bench_name(std::string("Atomics/") + atom_space_name(l.space) + "/" + atom_form_name(l.form) + "." +
                        atom_op_info(l.op).name + "/" +
                        atom_scope_name(l.space == AtomSpace::shared ? AtomScope::cta : l.scope),
                    {{"contention", contention_name(l.contention)},
                     {"spacing", spacing},
                     {"warps_per_block", l.threads_per_block / 32},
                     {"blocks_per_sm", l.blocks / sms}});
}

void register_atomics(const SuiteConfig& cfg) {
  const int sms = cfg.gpu.info().sm_count;
  const std::uint32_t sm = cfg.placement.reference_sm;  // where the latency chains run
  std::vector<BenchmarkPoint> points;
  // Where each SM's atomics go to lines of its own, the SMs' rates add up and their sum is the
  // primary; where SMs share lines, the grid total (kernels/shared/atomics_check.hpp). So too with
  // fewer than 4 warps per SM: each SM's rate is then its few lines' round trip, near or far
  // as the placement falls (the sum read 35.7 and 45.6 at one warp per SM in two processes),
  // while the grid total, set by the SMs whose lines are far, repeats (29.3 in both).
  const auto add = [&](AtomicLaunch l) {
    const std::uint32_t spacing = l.spacing_bytes ? l.spacing_bytes : std::uint32_t(atom_op_info(l.op).bytes);
    const int warps_per_sm = l.blocks / sms * l.threads_per_block / 32;
    PrimaryMetrics primary;
    if (l.space == AtomSpace::global && warps_per_sm >= 4 &&
        sms_own_their_lines(l.contention, l.threads_per_block, spacing))
      primary = {higher("atomics_per_clk_concurrent")};
    points.push_back({shape_name(l, sms), [l](benchmark::State& st) { throughput(st, l); }, primary});
  };
  AtomicLaunch base;
  base.blocks = sms;
  base.threads_per_block = 1024;

  // Every op and form against contention, both spaces.
  for (AtomSpace space : {AtomSpace::global, AtomSpace::shared})
    for (const AtomOpInfo& info : atom_ops())
      for (AtomForm form : {AtomForm::atom, AtomForm::red}) {
        if (form == AtomForm::red && !info.has_red) continue;
        if (cfg.quick && !(info.op == AtomOp::add_u32 || info.op == AtomOp::cas_b32 || info.op == AtomOp::add_f32))
          continue;
        for (Contention c :
             {Contention::all, Contention::warp, Contention::block, Contention::sm, Contention::distinct}) {
          if (space == AtomSpace::shared && (c == Contention::block || c == Contention::sm)) continue;
          if (cfg.quick && c != Contention::all && c != Contention::distinct) continue;
          AtomicLaunch l = base;
          l.op = info.op;
          l.space = space;
          l.form = form;
          l.contention = c;
          add(l);
        }
      }
  if (!cfg.quick) {
    // Scope: add.u32 at .cta, .gpu, .sys.
    for (AtomForm form : {AtomForm::atom, AtomForm::red})
      for (AtomScope scope : {AtomScope::cta, AtomScope::sys})
        for (Contention c : {Contention::all, Contention::distinct}) {
          AtomicLaunch l = base;
          l.form = form;
          l.scope = scope;
          l.contention = c;
          add(l);
        }
    // A warp's addresses in a line whose L2 home partition is near to its SM, or far from it.
    for (AtomForm form : {AtomForm::atom, AtomForm::red})
      for (Contention c : {Contention::near_l2, Contention::far_l2}) {
        AtomicLaunch l = base;
        l.form = form;
        l.contention = c;
        add(l);
      }
    // Spacing between the addresses of a warp's lanes: same 32 B sector, same 128 B line, lines apart.
    for (AtomForm form : {AtomForm::atom, AtomForm::red})
      for (std::uint32_t spacing : {8u, 16u, 32u, 64u, 128u, 256u}) {
        AtomicLaunch l = base;
        l.form = form;
        l.contention = Contention::distinct;
        l.spacing_bytes = spacing;
        add(l);
      }
    // Launch shape: warps per block x blocks per SM.
    for (AtomSpace space : {AtomSpace::global, AtomSpace::shared})
      for (Contention c : {Contention::all, Contention::distinct})
        for (int blocks_per_sm : {1, 2})
          for (int warps : {1, 2, 4, 8, 16, 32}) {
            if (blocks_per_sm == 1 && warps == 32) continue;  // the default, above
            AtomicLaunch l = base;
            l.space = space;
            l.contention = c;
            l.blocks = sms * blocks_per_sm;
            l.threads_per_block = 32 * warps;
            add(l);
          }
  }
  // Latency of a dependent chain.
  for (AtomSpace space : {AtomSpace::global, AtomSpace::shared})
    for (const AtomOpInfo& info : atom_ops()) {
      if (cfg.quick && info.op != AtomOp::add_u32) continue;
      points.push_back({std::string("Atomics/latency/") + atom_space_name(space) + "/atom." + info.name,
                        [op = info.op, space, sm](benchmark::State& st) { latency(st, op, space, sm); }});
    }

  register_points("Atomics", points, kIterations,
                  {{"Atomics/", {higher("atomics_per_clk")}},
                   {"Atomics/latency/global/", {lower("latency_cycles"), lower("latency_far_cycles")}},
                   {"Atomics/latency/shared/", {lower("latency_cycles")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Atomics, archbench::register_atomics);
