// Host calls that launch the Atomics kernels: one instantiation per op x space x scope x form.
#include "kernels/atomics.hpp"

#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "kernels/shared/atomics_check.hpp"
#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/atomics.cuh"

namespace archbench {
namespace {

using dev::at::Pattern;
using Key = std::tuple<AtomOp, AtomSpace, AtomScope, AtomForm>;

struct Entry {
  const void* kernel;
  int bytes;
  void (*launch)(void* base, Pattern, std::uint32_t iters, WarpTiming*, std::uint64_t*, std::uint32_t slots, dim3 grid,
                 dim3 block, std::size_t smem);
};

template <class Op, AtomSpace S, AtomScope C, AtomForm F, bool kCas>
Entry entry() {
  using T = typename Op::type;
  return {reinterpret_cast<const void*>(dev::at::atomic_throughput_kernel<Op, S, C, F, kCas>), int(sizeof(T)),
          [](void* base, Pattern p, std::uint32_t iters, WarpTiming* out, std::uint64_t* cas, std::uint32_t slots,
             dim3 grid, dim3 block, std::size_t smem) {
            dev::at::atomic_throughput_kernel<Op, S, C, F, kCas>
                <<<grid, block, smem>>>(static_cast<T*>(base), p, iters, out, cas, slots);
          }};
}

// Every form of one op: atom (and red where it exists) at .gpu scope, and in shared memory.
template <class Op, bool kHasRed, bool kCas = false>
void add(std::map<Key, Entry>& m, AtomOp op) {
  m[{op, AtomSpace::global, AtomScope::gpu, AtomForm::atom}] =
      entry<Op, AtomSpace::global, AtomScope::gpu, AtomForm::atom, kCas>();
  m[{op, AtomSpace::shared, AtomScope::cta, AtomForm::atom}] =
      entry<Op, AtomSpace::shared, AtomScope::cta, AtomForm::atom, kCas>();
  if constexpr (kHasRed) {
    m[{op, AtomSpace::global, AtomScope::gpu, AtomForm::red}] =
        entry<Op, AtomSpace::global, AtomScope::gpu, AtomForm::red, false>();
    m[{op, AtomSpace::shared, AtomScope::cta, AtomForm::red}] =
        entry<Op, AtomSpace::shared, AtomScope::cta, AtomForm::red, false>();
  }
}

const std::map<Key, Entry>& table() {
  static const std::map<Key, Entry> t = [] {
    namespace at = dev::at;
    std::map<Key, Entry> m;
    add<at::AddU32, true>(m, AtomOp::add_u32);
    add<at::AddU64, true>(m, AtomOp::add_u64);
    add<at::AddF32, true>(m, AtomOp::add_f32);
    add<at::AddF64, true>(m, AtomOp::add_f64);
    add<at::AddF16x2, true>(m, AtomOp::add_f16x2);
    add<at::AddBf16x2, true>(m, AtomOp::add_bf16x2);
    add<at::MinU32, true>(m, AtomOp::min_u32);
    add<at::MaxU32, true>(m, AtomOp::max_u32);
    add<at::AndB32, true>(m, AtomOp::and_b32);
    add<at::OrB32, true>(m, AtomOp::or_b32);
    add<at::XorB32, true>(m, AtomOp::xor_b32);
    add<at::ExchB32, false>(m, AtomOp::exch_b32);
    add<at::ExchB64, false>(m, AtomOp::exch_b64);
    add<at::CasB32, false, true>(m, AtomOp::cas_b32);
    add<at::CasB64, false, true>(m, AtomOp::cas_b64);
    // The scope sweep: add.u32 at .cta and .sys as well.
    using G = AtomSpace;
    m[{AtomOp::add_u32, G::global, AtomScope::cta, AtomForm::atom}] =
        entry<at::AddU32, G::global, AtomScope::cta, AtomForm::atom, false>();
    m[{AtomOp::add_u32, G::global, AtomScope::sys, AtomForm::atom}] =
        entry<at::AddU32, G::global, AtomScope::sys, AtomForm::atom, false>();
    m[{AtomOp::add_u32, G::global, AtomScope::cta, AtomForm::red}] =
        entry<at::AddU32, G::global, AtomScope::cta, AtomForm::red, false>();
    m[{AtomOp::add_u32, G::global, AtomScope::sys, AtomForm::red}] =
        entry<at::AddU32, G::global, AtomScope::sys, AtomForm::red, false>();
    return m;
  }();
  return t;
}

AtomScope effective_scope(AtomSpace s, AtomScope c) { return s == AtomSpace::shared ? AtomScope::cta : c; }

std::uint32_t log2_exact(std::uint32_t v) {
  std::uint32_t l = 0;
  while ((1u << l) < v) ++l;
  if ((1u << l) != v) throw std::invalid_argument("atomics: threads per block must be a power of two");
  return l;
}

}  // namespace

AtomicRun run_atomics(const AtomicLaunch& l) {
  const auto it = table().find({l.op, l.space, effective_scope(l.space, l.scope), l.form});
  if (it == table().end())
    throw std::invalid_argument(std::string("atomics: no kernel for ") + atom_form_name(l.form) + "." +
                                atom_op_info(l.op).name + " in " + atom_space_name(l.space) + " at ." +
                                atom_scope_name(l.scope));
  if (l.blocks <= 0 || l.threads_per_block < 32 || l.threads_per_block > 1024 || l.threads_per_block % 32)
    throw std::invalid_argument("atomics: threads per block must be a multiple of 32 in 32..1024, blocks > 0");
  const Entry& e = it->second;
  const std::uint32_t spacing = l.spacing_bytes ? l.spacing_bytes : std::uint32_t(e.bytes);
  if (spacing % e.bytes) throw std::invalid_argument("atomics: spacing must be a multiple of the operand size");

  AtomicRun run;
  Pattern p{0, 0, 0, spacing / std::uint32_t(e.bytes), nullptr, 0};
  if (l.contention == Contention::near_l2 || l.contention == Contention::far_l2) {
    if (l.space != AtomSpace::global || e.bytes != 4 || !l.line_of || !l.probed_lines || l.threads_per_block > 1024)
      throw std::invalid_argument(
          "atomics: near/far L2 contention needs global memory, a 4-byte op and a probed line map");
    p.line_of = l.line_of;
    p.line_elems = kProbeLineBytes / 4;
    ARCHBENCH_CUDA(cudaMemset(l.probed_lines, 0, std::size_t(l.probed_line_count) * kProbeLineBytes));
    DeviceBuffer<WarpTiming> out(std::size_t(l.blocks) * (l.threads_per_block / 32));
    e.launch(l.probed_lines, p, l.iters, out.get(), nullptr, 0, dim3(l.blocks), dim3(l.threads_per_block), 0);
    cuda_check_launch("atomic_throughput_kernel");
    run.warps = out.download();
    run.probed_finals.resize(std::size_t(l.probed_line_count) * p.line_elems);
    ARCHBENCH_CUDA(
        cudaMemcpy(run.probed_finals.data(), l.probed_lines, run.probed_finals.size() * 4, cudaMemcpyDeviceToHost));
    return run;
  }
  const std::uint32_t threads = std::uint32_t(l.blocks) * l.threads_per_block;
  const std::uint32_t group_threads = l.space == AtomSpace::global ? threads : std::uint32_t(l.threads_per_block);
  switch (l.contention) {
    case Contention::all:
      p.mask = 0;
      run.slots_per_group = 1;
      break;
    case Contention::warp:
      p.shift = 5;
      p.mask = ~0u;
      run.slots_per_group = group_threads / 32;
      break;
    case Contention::block:
      p.shift = log2_exact(std::uint32_t(l.threads_per_block));
      p.mask = l.space == AtomSpace::global ? ~0u : 0u;
      run.slots_per_group = l.space == AtomSpace::global ? std::uint32_t(l.blocks) : 1;
      break;
    case Contention::sm:
      if (l.space == AtomSpace::shared) throw std::invalid_argument("atomics: per-SM contention is for global memory");
      p.by_sm = 1;
      run.slots_per_group = 1024;  // above any %smid
      break;
    case Contention::distinct:
      p.mask = ~0u;
      run.slots_per_group = group_threads;
      break;
    case Contention::near_l2:
    case Contention::far_l2:
      break;  // handled above
  }
  run.shift = p.shift;
  run.mask = p.mask;
  run.by_sm = p.by_sm != 0;

  const std::size_t cells = l.space == AtomSpace::global ? std::size_t(run.slots_per_group) * p.spacing_elems
                                                         : std::size_t(l.blocks) * run.slots_per_group;
  if (l.target && (l.space != AtomSpace::global || l.target_bytes < cells * e.bytes))
    throw std::invalid_argument("atomics: a target memory is for global memory and must hold " +
                                std::to_string(cells * e.bytes) + " bytes");
  DeviceBuffer<std::uint8_t> own;
  const std::size_t placement = l.space == AtomSpace::global && !l.target ? l.placement_bytes : 0;
  if (placement % 128) throw std::invalid_argument("atomics: a placement must be a whole number of 128 B lines");
  if (!l.target) own = DeviceBuffer<std::uint8_t>(placement + cells * e.bytes);
  std::uint8_t* const base = l.target ? static_cast<std::uint8_t*>(l.target) : own.get() + placement;
  {  // every address starts at the op's initial value
    std::vector<std::uint8_t> init(cells * e.bytes);
    const std::uint64_t v = atomic_initial(l.op);
    for (std::size_t i = 0; i < cells; ++i) std::memcpy(&init[i * e.bytes], &v, e.bytes);
    ARCHBENCH_CUDA(cudaMemcpy(base, init.data(), init.size(), cudaMemcpyHostToDevice));
  }
  const std::size_t cas_cells =
      l.space == AtomSpace::global ? run.slots_per_group : std::size_t(l.blocks) * run.slots_per_group;
  DeviceBuffer<std::uint64_t> cas(cas_cells);
  ARCHBENCH_CUDA(cudaMemset(cas.get(), 0, cas.bytes()));
  DeviceBuffer<WarpTiming> out(threads / 32);
  std::size_t smem = 0;
  if (l.space == AtomSpace::shared) {
    smem = std::size_t(run.slots_per_group) * p.spacing_elems * e.bytes;
    ARCHBENCH_CUDA(cudaFuncSetAttribute(e.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  }
  e.launch(base, p, l.iters, out.get(), cas.get(), run.slots_per_group, dim3(l.blocks), dim3(l.threads_per_block),
           smem);
  cuda_check_launch("atomic_throughput_kernel");
  run.warps = out.download();
  std::vector<std::uint8_t> raw(cells * e.bytes);
  ARCHBENCH_CUDA(cudaMemcpy(raw.data(), base, raw.size(), cudaMemcpyDeviceToHost));
  const std::size_t stride = l.space == AtomSpace::global ? std::size_t(p.spacing_elems) : 1;
  const std::size_t n_final = l.space == AtomSpace::global ? run.slots_per_group : cells;
  run.finals.resize(n_final);
  for (std::size_t i = 0; i < n_final; ++i) {
    std::uint64_t v = 0;
    std::memcpy(&v, &raw[i * stride * e.bytes], e.bytes);
    run.finals[i] = v;
  }
  run.cas_successes = cas.download();
  return run;
}

__device__ std::uint32_t g_latency_pin_claim;

AtomicChainTiming run_atomic_latency(AtomOp op, AtomSpace space, std::uint32_t iters, std::uint32_t pin_sm,
                                     std::uint32_t* lines,
                                     const std::uint32_t* line_of, std::uint32_t line_index) {
  namespace at = dev::at;
  DeviceBuffer<std::uint64_t> cell(1), out(3);
  const std::uint64_t init = atomic_initial(op);
  ARCHBENCH_CUDA(cudaMemcpy(cell.get(), &init, 8, cudaMemcpyHostToDevice));
  // Pinned to one SM (kernels/pinned_launch.cuh): the short and the long chain, whose slope is
  // the latency, use the same SM and so the same near (or far) line.
  std::uint32_t* claim = nullptr;
  ARCHBENCH_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&claim), g_latency_pin_claim));
  const auto go = [&](auto tag) {
    using Op = decltype(tag);
    using T = typename Op::type;
    launch_pinned("atomic_latency_kernel", claim, [&](int blocks, std::uint32_t sm) {
      if (space == AtomSpace::global && line_of)
        at::atomic_latency_kernel<Op, AtomSpace::global><<<blocks, 1>>>(
            reinterpret_cast<T*>(lines), iters, 0, out.get(), line_of, kProbeLineBytes, line_index, sm, claim);
      else if (space == AtomSpace::global)
        at::atomic_latency_kernel<Op, AtomSpace::global>
            <<<blocks, 1>>>(reinterpret_cast<T*>(cell.get()), iters, 0, out.get(), nullptr, 0, 0, sm, claim);
      else
        at::atomic_latency_kernel<Op, AtomSpace::shared>
            <<<blocks, 1>>>(reinterpret_cast<T*>(cell.get()), iters, 0, out.get(), nullptr, 0, 0, sm, claim);
    }, pin_sm);
  };
  switch (op) {
    case AtomOp::add_u32:
      go(at::AddU32{});
      break;
    case AtomOp::add_u64:
      go(at::AddU64{});
      break;
    case AtomOp::add_f32:
      go(at::AddF32{});
      break;
    case AtomOp::add_f64:
      go(at::AddF64{});
      break;
    case AtomOp::add_f16x2:
      go(at::AddF16x2{});
      break;
    case AtomOp::add_bf16x2:
      go(at::AddBf16x2{});
      break;
    case AtomOp::min_u32:
      go(at::MinU32{});
      break;
    case AtomOp::max_u32:
      go(at::MaxU32{});
      break;
    case AtomOp::and_b32:
      go(at::AndB32{});
      break;
    case AtomOp::or_b32:
      go(at::OrB32{});
      break;
    case AtomOp::xor_b32:
      go(at::XorB32{});
      break;
    case AtomOp::exch_b32:
      go(at::ExchB32{});
      break;
    case AtomOp::exch_b64:
      go(at::ExchB64{});
      break;
    case AtomOp::cas_b32:
      go(at::CasB32{});
      break;
    case AtomOp::cas_b64:
      go(at::CasB64{});
      break;
  }
  cuda_check_launch("atomic_latency_kernel");
  const auto o = out.download();
  return {o[0], o[2]};
}

L2HomeProbe probe_l2_home(std::uint32_t* lines, std::uint32_t n_lines, int blocks) {
  constexpr std::uint32_t kChain = 4;
  DeviceBuffer<std::uint32_t> cycles(std::size_t(blocks) * n_lines), sms(2 * std::size_t(blocks));
  L2HomeProbe probe;
  // Two passes, each line's reading the faster of the two: a chain that queued behind another
  // SM's probe of the same line reads 2-60x slow, and the blocks start at other lines in the
  // second pass (half an offset on), so the same line rarely queues twice.
  for (std::uint32_t pass = 0; pass < 2; ++pass) {
    dev::at::l2_home_probe_kernel<<<blocks, 32>>>(lines, n_lines, kProbeLineBytes / 4, kChain, 0, pass, cycles.get(),
                                                  sms.get());
    cuda_check_launch("l2_home_probe_kernel");
    const auto c = cycles.download();
    const auto s = sms.download();
    std::vector<char> seen;
    for (int b = 0; b < blocks; ++b) {
      const std::uint32_t sm = s[b];
      if (sm >= probe.cycles_by_sm.size()) probe.cycles_by_sm.resize(sm + 1);
      if (sm >= seen.size()) seen.resize(sm + 1, 0);
      if (seen[sm]) continue;  // a second block on one SM in this pass: keep the first
      seen[sm] = 1;
      auto& mine = probe.cycles_by_sm[sm];
      const auto first = c.begin() + std::ptrdiff_t(b) * n_lines;
      if (mine.empty()) {
        mine.assign(first, first + n_lines);
      } else {
        for (std::uint32_t i = 0; i < n_lines; ++i) mine[i] = std::min(mine[i], first[i]);
      }
    }
  }
  return probe;
}

}  // namespace archbench
