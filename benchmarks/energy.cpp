// Energy: what an operation costs in energy, from the board's own energy counter (NVML), on the
// kernels that already run each operation at its limit (docs/energy.md).
//   Energy/counter                                    the counter's update period and step, the
//                                                     power reading's update period
//   Energy/rest/idle                                  the board with nothing to do
//   Energy/rest/resident/warps_per_sm:W               W resident warps per SM doing nothing that counts
//   Energy/op/<op>/ilp:I/warps_per_sm:W               FFMA, DFMA, HFMA2, IMAD, MUFU.EX2 (Pipeline's chains)
//   Energy/mma_sync/<op>/ilp:I/warps_per_sm:W         mma.sync per data type (TensorCore's chains)
//   Energy/wgmma/<type>/ss/n:N/warpgroups_per_sm:G    wgmma per data type (TensorCore's loops)
//   Energy/bytes/<level>/<read|write|copy>            bytes served by shared memory, L1, L2, DRAM
//   Energy/host/pinned/<h2d|d2h>/bytes:B              pinned copies over the host link
//   Energy/p2p/<read|write>/gpu:0/peer:1              loads/stores by every SM of GPU 0 in GPU 1's memory
//   Energy/p2p/copy/src:0/dst:1/size:S                peer copies (copy engines); both boards metered
// Each figure is incremental: launches of 1x, 2x and 4x the work (the same kernel, shape and
// clock), each run back to back for a window on the way up and again on the way down (1x 2x 4x
// rest 4x 2x 1x), and the slope of their energy against their work, less the rest power of the
// same occupancy (the window in the middle) over the time the work takes. Energy is not in the
// default run: a minute of windows heats the board and moves the clocks other features measure
// at. `--benchmark_filter=Energy` runs it.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "analysis/throughput.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/runners/bandwidth_runner.hpp"
#include "fixtures/harness/calibrate.hpp"
#include "fixtures/runners/energy_runner.hpp"
#include "fixtures/runners/hostlink_runner.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "fixtures/runners/p2p_runner.hpp"
#include "fixtures/runners/pipeline_runner.hpp"
#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/runners/tensor_runner.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "kernels/energy.hpp"

namespace archbench {
namespace {

constexpr int kIterations = 1;  // one measurement of three windows and a rest window
// The 1x launch: ten calibrated launches' work (~20 ms), so that the host's few milliseconds
// between launches (its checks, and its CUDA calls waiting on the energy counter's reads) weigh
// little beside the work.
constexpr double kBaseLaunchFactor = 10;
constexpr std::uint64_t kRestHoldNs = 10'000'000;

// Each window's measured length, from the run's options: 0.8 s, --quick 0.5 s.
double window_seconds(const SuiteConfig& cfg) { return cfg.quick ? 0.5 : 0.8; }

// A host-side pause of the same length as a rest launch: the idle board.
void idle_pause() { std::this_thread::sleep_for(std::chrono::nanoseconds(kRestHoldNs)); }

std::function<void()> resident_rest(int blocks, int threads) {
  return [blocks, threads] { run_resident_rest(blocks, threads, kRestHoldNs); };
}

std::uint32_t scaled(std::uint32_t calibrated) { return std::uint32_t(calibrated * kBaseLaunchFactor); }

// The body every energy benchmark shares: measure, report, and the counters' replay of one 1x launch.
void run_energy(benchmark::State& state, const EnergyMeter& meter, double window_s, const EnergyWork& work,
                const std::string& unit, unsigned hw_groups, const std::string& second_unit = "",
                double second_per_unit = 0) {
  EnergyMeasurement m;
  timed_loop(state, [&] {
    m = measure_energy(meter, work, window_s);
    double seconds = m.rest.seconds;
    for (const auto* ws : {&m.windows, &m.windows_down})
      for (const EnergyWindow& w : *ws) seconds += w.seconds;
    return seconds;
  });
  report_energy(state, m, unit, second_unit, second_per_unit);
  if (hw_groups) add_hw_counters(state, hw_groups, {nullptr, [&] { work.launch(1); }});
}

// --- Arithmetic: Pipeline's chains at their limit --------------------------------------------------
void energy_op(benchmark::State& state, double window_s, PipeOp op, PipelineShape shape) {
  const PipeOpInfo& info = pipe_op_info(op);
  if (const auto why = pipe_op_unsupported(info, Gpu::current().info())) return skip(state, *why);
  guarded(state, [&] {
    const std::uint32_t base = scaled(calibrate_throughput_iterations(op, shape));
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      const ThroughputMeasurement t = measure_throughput(op, shape, base * k);  // self-checked
      return EnergyLaunch{t.summary.total_work, t.summary.per_sm_rate_mean, t.pct_of_peak,
                          t.summary.gpu_window_ns * 1e-9};
    };
    work.rest = resident_rest(shape.sms * shape.blocks_per_sm(), 32 * shape.warps_per_block());
    // A thread instruction (one lane's FFMA) is the operation; FP ops also per FLOP.
    const double flop_per_inst = double(info.results_per_step) * info.flops_per_result;
    run_energy(state, energy_meter(), window_s, work, "op", kHwInstructions, flop_per_inst > 0 ? "flop" : "",
               flop_per_inst);
    state.counters["ilp"] = shape.ilp;
    state.counters["warps_per_sm"] = shape.warps_per_sm;
  });
}

// --- Tensor cores ------------------------------------------------------------------------------------
void energy_mma(benchmark::State& state, double window_s, MmaOp op, MmaShape shape) {
  if (const auto why = mma_op_unsupported(mma_op_info(op), Gpu::current().info())) return skip(state, *why);
  guarded(state, [&] {
    const std::uint32_t base = scaled(measure_mma_throughput(op, shape, TensorFill::random).iterations);
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      const TensorThroughput t = measure_mma_throughput(op, shape, TensorFill::random, base * k);
      return EnergyLaunch{t.summary.total_work, t.summary.per_sm_rate_mean, t.pct_of_peak,
                          t.summary.gpu_window_ns * 1e-9};
    };
    work.rest = resident_rest(shape.sms, 32 * shape.warps_per_sm);
    run_energy(state, energy_meter(), window_s, work, "flop", kHwTensor);
    state.counters["ilp"] = shape.ilp;
    state.counters["warps_per_sm"] = shape.warps_per_sm;
  });
}

void energy_wgmma(benchmark::State& state, double window_s, WgmmaType type, int n, WgmmaShape shape) {
  if (const auto why = wgmma_unsupported()) return skip(state, *why);
  guarded(state, [&] {
    const std::uint32_t base = scaled(measure_wgmma_throughput(type, n, shape, TensorFill::random).iterations);
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      const TensorThroughput t = measure_wgmma_throughput(type, n, shape, TensorFill::random, base * k);
      return EnergyLaunch{t.summary.total_work, t.summary.per_sm_rate_mean, t.pct_of_peak,
                          t.summary.gpu_window_ns * 1e-9};
    };
    work.rest = resident_rest(shape.sms, 128 * shape.warpgroups_per_sm);
    run_energy(state, energy_meter(), window_s, work, "flop", kHwTensor);
    state.counters["warpgroups_per_sm"] = shape.warpgroups_per_sm;
  });
}

// --- Bytes by the level that serves them -------------------------------------------------------------
BandwidthRunner& runner() {
  static BandwidthRunner r;
  return r;
}

void energy_bytes(benchmark::State& state, double window_s, const BwCase& c) {
  guarded(state, [&] {
    BandwidthRunner& r = runner();
    const std::uint32_t base = scaled(r.calibrate(c));
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      const BwMeasurement b = r.measure(c, base * k);  // copy and write check their destination
      return EnergyLaunch{b.bytes, b.bytes_per_clk_per_sm, b.pct_of_peak, b.summary.gpu_window_ns * 1e-9};
    };
    work.rest = resident_rest(c.shape.sms * c.shape.blocks_per_sm, 32 * c.shape.warps_per_block);
    run_energy(state, energy_meter(), window_s, work, "byte", kHwMemory);
    state.counters["footprint_bytes"] = double(c.footprint);
    state.counters["width_bytes"] = c.width;
  });
}

constexpr std::uint32_t kSmemBytesPerBlock = 32u << 10;
constexpr int kSmemWidth = 8;
const BwShape kSmemShape{2, 16, 0};  // sms set at registration

void energy_smem(benchmark::State& state, double window_s, bool write, BwShape shape) {
  guarded(state, [&] {
    BandwidthRunner& r = runner();
    const int threads = 32 * shape.warps_per_block, blocks = shape.blocks_per_sm * shape.sms;
    EnergyWork work;
    std::uint32_t base = 0;
    if (!write) {
      base = scaled(r.calibrate_smem(kSmemWidth, kSmemBytesPerBlock, shape));
      work.launch = [&](std::uint32_t k) {
        const BwMeasurement b = r.measure_smem(kSmemWidth, kSmemBytesPerBlock, shape, base * k);
        return EnergyLaunch{b.bytes, b.bytes_per_clk_per_sm, b.pct_of_peak, b.summary.gpu_window_ns * 1e-9};
      };
    } else {
      if (smem_write_max_blocks_per_sm(kSmemWidth, threads, kSmemBytesPerBlock) < shape.blocks_per_sm)
        throw Unsupported("shared-memory stores: " + std::to_string(shape.blocks_per_sm) +
                          " blocks do not fit on an SM");
      const auto launch = [&](std::uint32_t passes) {
        const double bytes = double(kSmemWritesPerThreadPerPass) * kSmemWidth * threads * blocks * passes;
        const std::vector<WarpTiming> w = run_smem_write(kSmemWidth, kSmemBytesPerBlock, passes, blocks, threads);
        const ThroughputSummary s = summarize_throughput(w, bytes / double(w.size()));
        return EnergyLaunch{bytes, s.per_sm_rate_mean, 0, s.gpu_window_ns * 1e-9};
      };
      constexpr std::uint32_t kTrial = 256;
      base = scaled(count_for_target(kTrial, launch(kTrial).gpu_seconds * 1e9, kBwTargetLaunchNs));
      work.launch = [&, launch](std::uint32_t k) { return launch(base * k); };
    }
    work.rest = resident_rest(blocks, threads);
    run_energy(state, energy_meter(), window_s, work, "byte", kHwShared);
    state.counters["width_bytes"] = kSmemWidth;
  });
}

// --- The host link -----------------------------------------------------------------------------------
void energy_host(benchmark::State& state, double window_s, CopyDir dir, std::size_t bytes) {
  guarded(state, [&] {
    HostCopyBuffers buffers(HostMemory::pinned, dir, bytes);
    const int base = buffers.calibrate();
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      buffers.measure(int(base * k));  // the destination checked afterwards
      return EnergyLaunch{double(bytes) * base * k, 0, 0};
    };
    work.rest = idle_pause;  // a copy occupies no SM: its rest is the idle board
    run_energy(state, energy_meter(), window_s, work, "byte", 0);
    state.counters["copy_bytes"] = double(bytes);
  });
}

// --- Bytes between two GPUs --------------------------------------------------------------------------
// Both boards draw a transfer's energy: the meter reads both counters, and reports each board's
// share beside the sum (pj_per_byte_local, pj_per_byte_peer).
const EnergyMeter& pair_meter(int local, int peer) {
  static std::map<std::pair<int, int>, std::unique_ptr<EnergyMeter>> meters;
  std::unique_ptr<EnergyMeter>& m = meters[{local, peer}];
  if (!m)
    m = std::make_unique<EnergyMeter>(std::vector<EnergyBoard>{{&gpu_nvml(local), "local"}, {&gpu_nvml(peer), "peer"}});
  return *m;
}

void report_link(benchmark::State& state, int local, int peer) {
  const PeerLink l = query_peer_link(local, peer);
  state.counters["gpu"] = local;
  state.counters["peer"] = peer;
  state.counters["nvlink_links"] = l.model.links;
  state.counters["link_peak_bytes_per_second"] = l.model.peak_bytes_per_second.value_or(0);
}

double pct_of_link(int local, int peer, double bytes_per_second) {
  const auto peak = query_peer_link(local, peer).model.peak_bytes_per_second;
  return peak && *peak > 0 ? 100 * bytes_per_second / *peak : 0;
}

// Loads (BwKind::read) or stores by every SM of `local` in `peer`'s memory: P2P's kernel. The rest
// is the same occupancy on `local` doing nothing; `peer` idles in both.
void energy_p2p_access(benchmark::State& state, double window_s, int local, int peer, BwKind kind) {
  guarded(state, [&] {
    RemoteAccessRunner runner(local, peer, kind);  // skips with the reason when local cannot reach peer's memory
    const std::uint32_t base = scaled(runner.calibrate());
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      const RemoteAccess a = runner.measure(base * k);  // stores are read back
      return EnergyLaunch{a.summary.total_work, a.bytes_per_clk_per_sm, pct_of_link(local, peer, a.bytes_per_second),
                          a.summary.gpu_window_ns * 1e-9};
    };
    const RemoteAccess shape = runner.measure(1);
    work.rest = [local, blocks = shape.blocks, threads = shape.threads_per_block] {
      DeviceScope on(local);
      run_resident_rest(blocks, threads, kRestHoldNs);
    };
    run_energy(state, pair_meter(local, peer), window_s, work, "byte", 0);
    state.counters["footprint_bytes"] = double(shape.footprint_bytes);
    state.counters["width_bytes"] = shape.width_bytes;
    report_link(state, local, peer);
  });
}

// cudaMemcpyPeerAsync local -> peer: the copy engines, no SM; the rest is both boards idle.
void energy_p2p_copy(benchmark::State& state, double window_s, int local, int peer, std::size_t bytes) {
  guarded(state, [&] {
    PeerCopier copier(local, peer, bytes, false);
    const int base = int(copier.calibrate() * kBaseLaunchFactor);
    EnergyWork work;
    work.launch = [&](std::uint32_t k) {
      const PeerCopy c = copier.measure(int(base * k));  // the destination read back
      return EnergyLaunch{c.bytes, 0, pct_of_link(local, peer, c.bytes_per_second), c.seconds};
    };
    work.rest = idle_pause;
    run_energy(state, pair_meter(local, peer), window_s, work, "byte", 0);
    state.counters["copy_bytes"] = double(bytes);
    report_link(state, local, peer);
  });
}

// --- The rest, and the counter itself ----------------------------------------------------------------
void energy_rest(benchmark::State& state, double window_s, int warps_per_sm) {
  guarded(state, [&] {
    const EnergyMeter& meter = energy_meter();
    const GpuInfo& g = Gpu::current().info();
    const int blocks_per_sm = (warps_per_sm + 31) / 32, warps_per_block = warps_per_sm / blocks_per_sm;
    const std::function<void()> rest = warps_per_sm == 0
                                           ? std::function<void()>(idle_pause)
                                           : resident_rest(g.sm_count * blocks_per_sm, 32 * warps_per_block);
    EnergyWindow w;
    timed_loop(state, [&] {
      w = meter.run(rest, window_s);
      return w.seconds;
    });
    report_window(state, w, "");
    state.counters["warps_per_sm"] = warps_per_sm;
    state.counters["throttled"] = w.clocks.throttled ? 1 : 0;
  });
}

void energy_counter(benchmark::State& state) {
  guarded(state, [&] {
    const EnergyMeter& meter = energy_meter();
    const GpuInfo& g = Gpu::current().info();
    EnergyMeter::Trace t;
    // Under a resident rest kernel: the board is awake, and the counter steps at its busy pace.
    timed_loop(state, [&] {
      t = meter.trace(resident_rest(g.sm_count, 1024), 12 * meter.period_s());
      return 12 * meter.period_s();
    });
    const CounterUpdates& e = t.energy;
    if (e.period_s <= 0) throw std::runtime_error("energy: the counter did not step during the trace");
    state.counters["energy_update_period_ms"] = e.period_s * 1e3;
    state.counters["energy_update_period_p10_ms"] = e.period_p10_s * 1e3;
    state.counters["energy_update_period_p90_ms"] = e.period_p90_s * 1e3;
    state.counters["energy_min_step_mj"] = e.min_step_mj;
    state.counters["energy_read_ms"] = e.read_interval_s * 1e3;
    state.counters["energy_updates"] = double(e.t_s.size());
    state.counters["power_update_period_ms"] = t.power.period_s * 1e3;
    state.counters["sm_clock_mhz"] = t.clocks.sm_clock_mhz;
    state.counters["throttled"] = t.clocks.throttled ? 1 : 0;
  });
}

const std::vector<MetricRule> kEnergyMetrics = {
    {"Energy/op/", {lower("pj_per_op")}},
    {"Energy/mma_sync/", {lower("pj_per_flop")}},
    {"Energy/wgmma/", {lower("pj_per_flop")}},
    {"Energy/bytes/", {lower("pj_per_byte")}},
    {"Energy/host/", {lower("pj_per_byte")}},
    {"Energy/p2p/", {lower("pj_per_byte")}},
    // The rest powers and the counter's period are the board's and the driver's: values, each
    // compared within its tolerance (idle power moves with the board's temperature).
    {"Energy/rest/", {value("power_w", 10)}},
    {"Energy/counter", {value("energy_update_period_ms", 10)}}};

void register_energy(const SuiteConfig& cfg) {
  const GpuInfo& g = cfg.gpu.info();
  const int all = g.sm_count;
  const double window = window_seconds(cfg);
  std::vector<BenchmarkPoint> points;
  points.push_back({"Energy/counter", [](benchmark::State& st) { energy_counter(st); }});
  for (int w : cfg.quick ? std::vector<int>{0, 32} : std::vector<int>{0, 1, 32, 64})
    points.push_back(
        {w == 0 ? std::string("Energy/rest/idle") : bench_name("Energy/rest/resident", {{"warps_per_sm", w}}),
         [w, window](benchmark::State& st) { energy_rest(st, window, w); }});

  struct OpCase {
    PipeOp op;
    int ilp;
  };
  std::vector<OpCase> ops = {{PipeOp::ffma, 8}, {PipeOp::dfma, 4}};
  if (!cfg.quick) ops.insert(ops.end(), {{PipeOp::hfma2, 8}, {PipeOp::imad, 4}, {PipeOp::mufu_ex2, 4}});
  for (const OpCase& c : ops) {
    const PipelineShape shape{c.ilp, 32, all};
    points.push_back(
        {bench_name(std::string("Energy/op/") + pipe_op_info(c.op).name, {{"ilp", c.ilp}, {"warps_per_sm", 32}}),
         [c, shape, window](benchmark::State& st) { energy_op(st, window, c.op, shape); }});
  }
  std::vector<MmaOp> mmas = {MmaOp::f16_m16n8k16_f32};
  if (!cfg.quick)
    mmas.insert(mmas.end(),
                {MmaOp::bf16_m16n8k16_f32, MmaOp::tf32_m16n8k8_f32, MmaOp::s8_m16n8k32_s32, MmaOp::f64_m8n8k4_f64});
  for (MmaOp op : mmas) {
    const MmaShape shape{4, 8, all};
    points.push_back({std::string("Energy/mma_sync/") + mma_op_info(op).name + "/ilp:4/warps_per_sm:8",
                      [op, shape, window](benchmark::State& st) { energy_mma(st, window, op, shape); },
                      {},
                      mma_op_unsupported(mma_op_info(op), cfg.gpu.info())});
  }
  // --quick: one type of each class the orderings check (16-bit, TF32, 8-bit float, 8-bit integer);
  // bf16 runs the f16 datapath and is in the full run only.
  std::vector<WgmmaType> wgmmas = {WgmmaType::f16_f32, WgmmaType::tf32_f32, WgmmaType::e4m3_f32, WgmmaType::s8_s32};
  if (!cfg.quick) wgmmas.insert(wgmmas.begin() + 1, WgmmaType::bf16_f32);
  for (WgmmaType t : wgmmas) {
    const WgmmaShape shape{WgmmaMode::ss, 2, all};
    points.push_back({std::string("Energy/wgmma/") + wgmma_type_info(t).name + "/ss/n:256/warpgroups_per_sm:2",
                      [t, shape, window](benchmark::State& st) { energy_wgmma(st, window, t, 256, shape); },
                      {},
                      wgmma_unsupported_on(cfg.gpu.info().cc())});
  }

  BwShape smem_shape = kSmemShape;
  smem_shape.sms = all;
  points.push_back({"Energy/bytes/smem/read",
                    [smem_shape, window](benchmark::State& st) { energy_smem(st, window, false, smem_shape); }});
  points.push_back({"Energy/bytes/smem/write",
                    [smem_shape, window](benchmark::State& st) { energy_smem(st, window, true, smem_shape); }});
  // Footprints from the GPU's own sizes: an L1 slice per SM a quarter of its shared memory, a
  // third of the L2, and DRAM 8x the L2 (a copy's two arrays 4x each).
  const BwShape shape{1, 32, all};
  const std::size_t align = 16 * 1024 * std::size_t(all);
  const auto round = [align](std::size_t b) { return (b + align - 1) / align * align; };
  struct BytesCase {
    const char* name;
    BwVariant variant;
    std::size_t footprint;
  };
  const std::vector<BytesCase> cases = {
      {"L1/read", {BwKind::read, BwLoad::ca, BwStore::none}, round(g.smem_per_sm_bytes / 4 * all)},
      {"L2/read", {BwKind::read, BwLoad::cg, BwStore::none}, round(g.l2_bytes / 3)},
      {"L2/write", {BwKind::write, BwLoad::none, BwStore::def}, round(g.l2_bytes / 3)},
      {"DRAM/read", {BwKind::read, BwLoad::def, BwStore::none}, round(8 * g.l2_bytes)},
      {"DRAM/write", {BwKind::write, BwLoad::none, BwStore::def}, round(8 * g.l2_bytes)},
      {"DRAM/copy", {BwKind::copy, BwLoad::def, BwStore::def}, round(4 * g.l2_bytes)}};
  for (const BytesCase& c : cases) {
    if (cfg.quick && std::string(c.name).find("read") == std::string::npos) continue;
    const BwCase bc{c.variant, 16, c.footprint, shape};
    points.push_back(
        {std::string("Energy/bytes/") + c.name, [bc, window](benchmark::State& st) { energy_bytes(st, window, bc); }});
  }
  points.push_back({"Energy/bytes/L1/write",
                    [](benchmark::State& st) {
                      skip(st,
                           "the L1 is write-through on this architecture: a store's bytes go to the L2 "
                           "(Energy/bytes/L2/write)");
                    },
                    {lower("pj_per_byte")}});
  constexpr std::size_t kHostCopyBytes = 64u << 20;
  for (CopyDir d : {CopyDir::h2d, CopyDir::d2h}) {
    if (cfg.quick && d == CopyDir::d2h) continue;
    points.push_back({bench_name(std::string("Energy/host/pinned/") + copy_dir_name(d), {{"bytes", kHostCopyBytes}}),
                      [d, window](benchmark::State& st) { energy_host(st, window, d, kHostCopyBytes); }});
  }
  // Between two GPUs (GPU 0 and 1; the link's type and peak in the counters): loads and stores by
  // every SM of one in the other's memory, and copy-engine copies.
  if (Gpu::device_count() < 2) {
    points.push_back({"Energy/p2p",
                      [](benchmark::State& st) {
                        skip(st, "energy between GPUs needs at least 2 visible GPUs; " +
                                     std::to_string(Gpu::device_count()) + " visible");
                      },
                      {lower("pj_per_byte")}});
  } else {
    for (BwKind kind : {BwKind::read, BwKind::write}) {
      if (cfg.quick && kind == BwKind::write) continue;
      points.push_back(
          {bench_name(kind == BwKind::read ? "Energy/p2p/read" : "Energy/p2p/write", {{"gpu", 0}, {"peer", 1}}),
           [kind, window](benchmark::State& st) { energy_p2p_access(st, window, 0, 1, kind); }});
    }
    constexpr std::size_t kPeerCopyBytes = std::size_t(256) << 20;
    if (!cfg.quick)
      points.push_back({bench_name("Energy/p2p/copy", {{"src", 0}, {"dst", 1}, {"size", kPeerCopyBytes}}),
                        [window](benchmark::State& st) { energy_p2p_copy(st, window, 0, 1, kPeerCopyBytes); }});
  }
  register_points("Energy", points, kIterations, kEnergyMetrics);
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Energy, archbench::register_energy);
