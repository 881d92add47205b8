// AsyncCopy: how data moves between global and shared memory, by every path Hopper has.
//   AsyncCopy/load/ld_st/<level>/width:W/unroll:U/warps_per_block:T         the plain path, U loads in flight per thread
//   AsyncCopy/load/cp_async_<ca|cg>/<level>/width:W/stages:S/warps_per_block:T  LDGSTS, S commit groups in flight
//   AsyncCopy/load/bulk/<level>/stage_bytes:B/stages:S/pipelines:P/dist:<static|dynamic>
//                                                   TMA bulk copies: P warps per SM each issue their own, S in flight each
//   AsyncCopy/load/tensor/<level>/box:<dims>/swizzle:<none|32|64|128>/stages:S/pipelines:P   TMA tensor copies (1D-5D boxes)
//   AsyncCopy/load/bulk_multicast/<level>/cluster_size:C/stage_bytes:B/stages:S/pipelines:P  each block fetches 1/C, all receive it
//   AsyncCopy/store/<st_global|bulk_store|bulk_reduce_add>/<level>/stage_bytes:B/stages:S
//   AsyncCopy/store/tensor_store/<level>/box:<dims>/swizzle:none/stages:S
//   AsyncCopy/latency/<ld_st|cp_async_cg|bulk|tensor>/<level>/bytes:N       one copy at a time, issue to data in shared memory
//   AsyncCopy/latency/tensor/<level>/box:<dims>/swizzle:<none|32|64|128>    the same against a tensor copy's box
// <level>: L2 (a third of the L2, each SM its own chunks, read again every pass) or DRAM (8x the
// L2, streamed).
// Every load is checked word by word in an untimed launch before it is measured; every store's
// destination after each launch (kernels/async_copy.cuh).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "analysis/stats.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/async_copy_runner.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 3;
// Copies per launch: 32 from the L2 (a third of it must hold their lines), 128 from DRAM, whose
// copies spread by 15-25 % (sd) each: with 96 in all, the mean still moved by up to 10 % between
// processes of one board.
constexpr int kLatencyCopiesL2 = 32, kLatencyCopiesDram = 128;

AsyncCopyRunner& runner() {
  static AsyncCopyRunner r;
  return r;
}

bool skip_unsupported(benchmark::State& state, AsyncOp op) {
  if (const auto why = async_unsupported(op, Gpu::current().info())) {
    skip(state, *why);
    return true;
  }
  return false;
}

void bandwidth(benchmark::State& state, const AsyncCase& c) {
  if (skip_unsupported(state, c.op)) return;
  guarded(state, [&] {
    AsyncCopyRunner& r = runner();
    const std::uint32_t passes = r.calibrate(c);
    const std::vector<AsyncMeasurement> runs = timed_runs(
        state, [&] { return r.measure(c, passes); },
        [](const AsyncMeasurement& m) { return m.summary.gpu_window_ns * 1e-9; });
    std::vector<double> per_second, global_per_second, per_clk;
    for (const AsyncMeasurement& m : runs) {
      per_second.push_back(m.bytes_per_second);
      global_per_second.push_back(m.global_bytes_per_second);
      per_clk.push_back(m.bytes_per_clk_per_sm);
    }
    // bytes: into (loads) or out of (stores) shared memory; global bytes: read from or written to
    // global memory (a multicast delivers each byte it reads to every block of the cluster).
    report_sampled(state, "bytes_per_second", per_second);
    report_sampled(state, "global_bytes_per_second", global_per_second);
    report_sampled(state, "bytes_per_clk_per_sm", per_clk);
    state.counters["bytes_per_clk_per_sm_min"] =
        median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_min; });
    state.counters["bytes_per_clk_per_sm_max"] =
        median_of(runs, [](const auto& m) { return m.summary.per_sm_rate_max; });
    const AsyncMeasurement& last = runs.back();
    if (c.level == AsyncLevel::dram)
      state.counters["pct_of_dram_peak"] = median_of(runs, [](const auto& m) { return m.pct_of_dram_peak; });
    // `level`: the level the footprint targets by size. cp.async.ca allocates in L1: an L2
    // footprint whose share per SM fits the L1 beside the stages is served by the L1 (say so).
    state.counters["level"] = mem_level_value(last.level);
    if (c.level == AsyncLevel::l2 && last.level != MemLevel::l2)
      note(state, std::string("by size ") + mem_level_name(last.level) +
                      ": each SM's share of the footprint fits the L1 beside its stages");
    state.counters["bytes_in_flight_per_sm"] = last.bytes_in_flight_per_sm;
    state.counters["footprint_bytes"] = double(last.footprint);
    state.counters["blocks"] = last.blocks;
    state.counters["sms"] = last.summary.sms_used;
    state.counters["passes"] = last.passes;
    state.counters["bytes_per_launch"] = last.bytes;
    state.counters["stages"] = c.stages;
    report_clocks(state, median_of(runs, [](const auto& m) { return m.summary.sm_clock_mhz; }));
    // With --counters: the launch replayed under the profiler, and for loads the share of the
    // global bytes the L2 slices counted as reads (0 where the L1 serves them, below 100 % where
    // requests merge before a slice). Stores have none: their write sectors exceed the bytes on
    // an H100 (107 % for bulk stores to DRAM, 158 % for tensor stores), for reasons not measured.
    add_hw_counters(state, kHwMemory, {nullptr, [&] { r.measure(c, passes); }});
    const auto sectors = state.counters.find("hw_l2_read_sectors");
    if (async_op_info(c.op).is_load && sectors != state.counters.end() && last.global_bytes > 0)
      state.counters["l2_slice_pct"] = 100.0 * 32.0 * sectors->second.value / last.global_bytes;
  });
}

void latency(benchmark::State& state, AsyncOp op, AsyncLevel level, std::uint32_t bytes, std::uint32_t pin_sm,
             double place_at, std::optional<TensorBox> box = std::nullopt) {
  if (skip_unsupported(state, op)) return;
  guarded(state, [&] {
    std::vector<double> cycles, mhz;
    int placement = 0;  // from DRAM, each iteration copies other lines (AsyncCopyRunner::latency)
    timed_loop(state, [&] {
      AsyncLatencyResult r;
      const double seconds = wall_seconds([&] {
        r = runner().latency(op, level, bytes, level == AsyncLevel::dram ? kLatencyCopiesDram : kLatencyCopiesL2,
                             pin_sm, box, placement++ % kAsyncLatencyPlacements, place_at);
      });
      cycles.insert(cycles.end(), r.cycles.begin(), r.cycles.end());
      mhz.push_back(r.sm_clock_mhz);
      return seconds;
    });
    // Every copy of every iteration is a sample: their mean, and the spread of the copies. Not the
    // median: a tensor copy's latencies from DRAM fall in two modes whose shares are near even (an
    // 8 KiB box: min 935, p90 1430 cycles in every process), and the median jumped between them
    // from one process to the next (999.5, 1222.5, 1210.5 on one board); the mean follows the shares.
    report_sampled(state, "latency_cycles", cycles, Centre::mean);
    state.counters["latency_median_cycles"] = median(cycles);
    state.counters["latency_min_cycles"] = *std::min_element(cycles.begin(), cycles.end());
    state.counters["latency_p90_cycles"] = percentile(cycles, 90.0);
    const double mean_cycles = mean(cycles);
    state.counters["bytes_per_clk"] = mean_cycles > 0 ? bytes / mean_cycles : 0;
    state.counters["bytes"] = bytes;
    // From the L2: where the copies sit (AsyncCopyRunner::latency), as MemLatency's chains report it.
    if (const AsyncCopyRunner::Placed& at = runner().placed(); at.placed) {
      state.counters["l2_placement_offset_bytes"] = double(at.offset_bytes);
      state.counters["l2_placed_lines_vs_target_cycles"] = at.copies_cycles - at.target_cycles;
      state.counters["l2_placement_target_cycles"] = at.target_cycles;
      state.counters["l2_placement_sm_shift_cycles"] = at.sm_shift_cycles;
    }
    report_clocks(state, median(mhz));
  });
}

void register_async_copy(const SuiteConfig& cfg) {
  const GpuInfo& g = cfg.gpu.info();
  const std::uint32_t sm = cfg.placement.reference_sm;  // where one copy's latency is measured
  const double place_at = cfg.placement.measured.median_cycles;  // and the L2 distance its lines sit at
  std::vector<BenchmarkPoint> points;
  const std::vector<AsyncLevel> levels = {AsyncLevel::l2, AsyncLevel::dram};
  const std::vector<int> warps = cfg.quick ? std::vector<int>{32} : std::vector<int>{8, 32};
  const std::vector<int> depth = cfg.quick ? std::vector<int>{1, 8} : std::vector<int>{1, 2, 4, 8};
  // Cases that cannot fit this GPU (shared memory, or too small a footprint for the pipelines'
  // stages in flight) are not registered.
  // A tensor box's shape ("64x64") and a swizzle span's name in benchmark names.
  const auto box_shape = [](const TensorBox& b) { return b.name().substr(0, b.name().find('/')); };
  const auto swizzle_name = [](int swizzle) { return swizzle ? std::to_string(swizzle) : std::string("none"); };
  auto add = [&](const std::string& name, AsyncCase c) {
    if (!async_case_unfit(c, g))
      points.push_back({name, [c](benchmark::State& st) { bandwidth(st, c); }, {}, async_unsupported(c.op, g)});
  };
  for (AsyncLevel level : levels) {
    const std::string lv = std::string("/") + async_level_name(level);
    // Per-thread paths: U loads (ld_st) or S commit groups (cp.async) of one access per thread in flight.
    for (int w : warps)
      for (int width : kAsyncWidths)
        for (int u : depth) {
          AsyncCase c;
          c.op = AsyncOp::ld_st, c.level = level, c.width = width, c.unroll = u, c.warps_per_block = w, c.stages = 1;
          add(bench_name("AsyncCopy/load/ld_st" + lv, {{"width", width}, {"unroll", u}, {"warps_per_block", w}}), c);
        }
    for (AsyncOp op : {AsyncOp::cp_async_ca, AsyncOp::cp_async_cg})
      for (int w : warps)
        for (int width : kAsyncWidths) {
          if (op == AsyncOp::cp_async_cg && width != 16) continue;  // .cg copies 16 bytes only
          for (int s : depth) {
            AsyncCase c;
            c.op = op, c.level = level, c.width = width, c.warps_per_block = w, c.stages = s;
            add(bench_name(std::string("AsyncCopy/load/") + async_op_info(op).name + lv,
                           {{"width", width}, {"stages", s}, {"warps_per_block", w}}),
                c);
          }
        }
    // TMA bulk copies: copy size against copies in flight per pipeline and pipelines (issuing
    // warps) per SM, one block per SM; at DRAM also with dynamic claims.
    const std::vector<std::uint32_t> sizes = cfg.quick ? std::vector<std::uint32_t>{4096, 16384}
                                                       : std::vector<std::uint32_t>{1024, 4096, 16384, 32768, 65536};
    for (bool dynamic : level == AsyncLevel::dram ? std::vector<bool>{false, true} : std::vector<bool>{false})
      for (std::uint32_t b : sizes)
        for (int p : cfg.quick ? std::vector<int>{1, 4} : std::vector<int>{1, 2, 4, 8})
          for (int s : cfg.quick ? std::vector<int>{2} : std::vector<int>{1, 2, 4, 8}) {
            AsyncCase c;
            c.op = AsyncOp::bulk, c.level = level, c.stage_bytes = b, c.stages = s, c.warps_per_block = p,
            c.dynamic = dynamic;
            add(bench_name(
                    "AsyncCopy/load/bulk" + lv,
                    {{"stage_bytes", b}, {"stages", s}, {"pipelines", p}, {"dist", dynamic ? "dynamic" : "static"}}),
                c);
          }
    // TMA tensor copies: 1D-5D boxes (16 KiB, the 1D box at most 256 words), box shapes and swizzle
    // (8 KiB boxes, the inner dimension at the swizzle span); one and four pipelines, up to
    // 128 KiB in flight per SM.
    struct Tile {
      std::vector<std::uint32_t> dims;
      int swizzle;
    };
    std::vector<Tile> tiles = {{{256}, 0}, {{64, 64}, 0}, {{64, 8, 8}, 0}, {{64, 4, 4, 4}, 0}, {{64, 4, 4, 2, 2}, 0}};
    if (!cfg.quick) {
      for (std::uint32_t inner : {8u, 16u, 32u, 128u, 256u}) tiles.push_back({{inner, 2048 / inner}, 0});
      for (int sw : {32, 64, 128}) tiles.push_back({{std::uint32_t(sw / 4), std::uint32_t(2048 * 4 / sw)}, sw});
    }
    for (const Tile& t : tiles)
      for (int p : {1, 4}) {
        AsyncCase c;
        c.op = AsyncOp::tensor, c.level = level, c.warps_per_block = p;
        c.box = tensor_box(t.dims, t.swizzle);
        c.stages = 1;
        while (c.stages < 16 && std::size_t(c.stages) * 2 * p * c.box.words() * 4 <= (128u << 10) &&
               c.stages * 2 * p <= kAsyncMaxStages)
          c.stages *= 2;
        add(bench_name("AsyncCopy/load/tensor" + lv, {{"box", box_shape(c.box)},
                                                      {"swizzle", swizzle_name(t.swizzle)},
                                                      {"stages", c.stages},
                                                      {"pipelines", p}}),
            c);
      }
    // Multicast against the cluster size, 16 KiB stages, 128 KiB in flight per block (one block
    // per SM), one and four pipelines.
    for (int cluster : cfg.quick ? std::vector<int>{1, 4} : std::vector<int>{1, 2, 4, 8, 16})
      for (int p : {1, 4}) {
        AsyncCase c;
        c.op = AsyncOp::bulk_multicast, c.level = level, c.cluster = cluster, c.stage_bytes = 16384, c.stages = 8 / p;
        c.warps_per_block = p;
        add(bench_name(
                "AsyncCopy/load/bulk_multicast" + lv,
                {{"cluster_size", cluster}, {"stage_bytes", c.stage_bytes}, {"stages", c.stages}, {"pipelines", p}}),
            c);
      }
    // Stores: from shared memory, the plain path (every thread) and the TMA's bulk stores, bulk
    // reductions and tensor stores, against the groups left in flight.
    for (AsyncOp op : {AsyncOp::st_global, AsyncOp::bulk_store, AsyncOp::bulk_reduce_add})
      for (std::uint32_t b : cfg.quick || op == AsyncOp::st_global ? std::vector<std::uint32_t>{16384}
                                                                   : std::vector<std::uint32_t>{4096, 16384})
        for (int s : op == AsyncOp::st_global ? std::vector<int>{1} : depth) {
          AsyncCase c;
          c.op = op, c.level = level, c.stage_bytes = b, c.stages = s,
          c.warps_per_block = op == AsyncOp::st_global ? 32 : 1;
          add(bench_name(std::string("AsyncCopy/store/") + async_op_info(op).name + lv,
                         {{"stage_bytes", b}, {"stages", s}}),
              c);
        }
    for (int s : depth) {
      AsyncCase c;
      c.op = AsyncOp::tensor_store, c.level = level, c.stages = s, c.box = tensor_box({64, 64});
      add(bench_name("AsyncCopy/store/tensor_store" + lv,
                     {{"box", box_shape(c.box)}, {"swizzle", swizzle_name(0)}, {"stages", s}}),
          c);
    }
    // Latency against the copy's size.
    for (AsyncOp op : {AsyncOp::ld_st, AsyncOp::cp_async_cg, AsyncOp::bulk, AsyncOp::tensor})
      for (std::uint32_t bytes : cfg.quick ? std::vector<std::uint32_t>{16, 4096}
                                           : std::vector<std::uint32_t>{16, 64, 256, 1024, 4096, 16384, 65536})
        points.push_back(
            {bench_name(std::string("AsyncCopy/latency/") + async_op_info(op).name + lv, {{"bytes", bytes}}),
             [op, level, bytes, sm, place_at](benchmark::State& st) { latency(st, op, level, bytes, sm, place_at); },
             {},
             async_unsupported(op, g)});
    // A tensor copy's latency against its box: the rank (16 KiB boxes) and the swizzle (8 KiB
    // boxes, rows at the swizzle span, with and without it).
    if (!cfg.quick)
      for (const Tile& t : tiles) {
        const TensorBox box = tensor_box(t.dims, t.swizzle);
        const std::uint32_t bytes = box.words() * 4;
        if (box.dims == 1 || (box.dims == 2 && box.box[0] != 64 && box.box[0] * 4 != 32 && box.box[0] * 4 != 64 &&
                              box.box[0] * 4 != 128))
          continue;  // the 1D box and the wide 8 KiB rows are in the bandwidth sweep only
        points.push_back(
            {bench_name("AsyncCopy/latency/tensor" + lv,
                        {{"box", box_shape(box)}, {"swizzle", swizzle_name(t.swizzle)}}),
             [level, bytes, box, sm, place_at](benchmark::State& st) {
               latency(st, AsyncOp::tensor, level, bytes, sm, place_at, box);
             },
             {},
             async_unsupported(AsyncOp::tensor, g)});
      }
  }
  register_points("AsyncCopy", points, kIterations,
                  {{"AsyncCopy/load/", {higher("bytes_per_second")}},
                   {"AsyncCopy/store/", {higher("bytes_per_second")}},
                   {"AsyncCopy/latency/", {lower("latency_cycles")}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(AsyncCopy, archbench::register_async_copy);
