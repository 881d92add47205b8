// Host calls that launch the bandwidth kernels: one instantiation per variant x width.
#include "kernels/bandwidth.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/bandwidth.cuh"
#include "kernels/shared/enum_names.hpp"

namespace archbench {
namespace {

using dev::bw::Kind;

template <BwLoad>
struct LoadTag {
  using T = dev::bw::LdDefault;
};  // none: unused
template <>
struct LoadTag<BwLoad::ca> {
  using T = dev::bw::LdCa;
};
template <>
struct LoadTag<BwLoad::cg> {
  using T = dev::bw::LdCg;
};
template <>
struct LoadTag<BwLoad::cs> {
  using T = dev::bw::LdCs;
};
template <>
struct LoadTag<BwLoad::lu> {
  using T = dev::bw::LdLu;
};
template <>
struct LoadTag<BwLoad::cv> {
  using T = dev::bw::LdCv;
};
template <>
struct LoadTag<BwLoad::nc> {
  using T = dev::bw::LdNc;
};
template <>
struct LoadTag<BwLoad::na> {
  using T = dev::bw::LdNa;
};
template <>
struct LoadTag<BwLoad::evict_last> {
  using T = dev::bw::LdEvictLast;
};
template <BwStore>
struct StoreTag {
  using T = dev::bw::StDefault;
};
template <>
struct StoreTag<BwStore::wb> {
  using T = dev::bw::StWb;
};
template <>
struct StoreTag<BwStore::cg> {
  using T = dev::bw::StCg;
};
template <>
struct StoreTag<BwStore::cs> {
  using T = dev::bw::StCs;
};
template <>
struct StoreTag<BwStore::wt> {
  using T = dev::bw::StWt;
};
template <>
struct StoreTag<BwStore::na> {
  using T = dev::bw::StNa;
};

// A read's fold that makes the grid-order kernel store it: the fill's fold is 0 at every width.
constexpr std::uint32_t kGridMarker = 1;

using Key = std::tuple<BwKind, BwLoad, BwStore, int, int, BwDist, BwData>;  // + width, unroll
using RawKernel = const void*;
using Launcher = void (*)(const BwLaunch&, WarpTiming*, dim3, dim3, BwPin, std::size_t smem);

template <BwKind K>
constexpr Kind kind_of() {
  return K == BwKind::read ? Kind::read : K == BwKind::write ? Kind::write : K == BwKind::copy ? Kind::copy : Kind::rmw;
}

// One kernel per (variant, width, unroll, distribution, data): its launcher and its address.
template <BwKind K, BwLoad L, BwStore S, int W, int U, BwDist D, BwData Data, bool kPinned = false>
struct Kernel {
  using V = typename dev::VecOf<W>::T;
  using Ld = typename LoadTag<L>::T;
  using St = typename StoreTag<S>::T;
  static RawKernel raw() {
    if constexpr (Data == BwData::shared_by_all)
      return reinterpret_cast<RawKernel>(dev::bw::bandwidth_shared_kernel<Ld, W, U>);
    else if constexpr (Data == BwData::line_lists)
      return reinterpret_cast<RawKernel>(dev::bw::bandwidth_lines_kernel<Ld, U>);
    else if constexpr (D == BwDist::dynamic_chunks)
      return reinterpret_cast<RawKernel>(dev::bw::bandwidth_dynamic_kernel<kind_of<K>(), Ld, St, W, U>);
    else if constexpr (D == BwDist::dynamic_blocks)
      return reinterpret_cast<RawKernel>(dev::bw::bandwidth_block_dynamic_kernel<kind_of<K>(), Ld, St, W, U>);
    else if constexpr (D == BwDist::grid_order)
      return reinterpret_cast<RawKernel>(dev::bw::bandwidth_grid_kernel<kind_of<K>(), Ld, St, W, U>);
    else
      return reinterpret_cast<RawKernel>(dev::bw::bandwidth_kernel<kind_of<K>(), Ld, St, W, U, kPinned>);
  }
  static void launch(const BwLaunch& l, WarpTiming* out, dim3 grid, dim3 block, BwPin pin, std::size_t smem) {
    const auto* src = static_cast<const V*>(l.src);
    auto* dst = static_cast<V*>(l.dst);
    const std::size_t n = l.footprint_bytes / W;
    if constexpr (Data == BwData::shared_by_all) {
      dev::bw::bandwidth_shared_kernel<Ld, W, U><<<grid, block>>>(src, n, l.passes, out);
    } else if constexpr (Data == BwData::line_lists) {
      dev::bw::bandwidth_lines_kernel<Ld, U>
          <<<grid, block, smem>>>(static_cast<const uint4*>(l.src), l.lines, l.line_offsets, l.passes, out);
    } else if constexpr (D == BwDist::dynamic_chunks) {
      dev::bw::bandwidth_dynamic_kernel<kind_of<K>(), Ld, St, W, U>
          <<<grid, block>>>(src, dst, n, l.passes, l.chunk_bytes / W, pin.tickets, out);
    } else if constexpr (D == BwDist::dynamic_blocks) {
      dev::bw::bandwidth_block_dynamic_kernel<kind_of<K>(), Ld, St, W, U>
          <<<grid, block>>>(src, dst, n, l.passes, l.chunk_bytes / W, pin.tickets, out);
    } else if constexpr (D == BwDist::grid_order) {
      dev::bw::bandwidth_grid_kernel<kind_of<K>(), Ld, St, W, U>
          <<<grid, block>>>(src, dst, n, l.grid_groups, l.grid_pieces, l.grid_edge, kGridMarker, out);
    } else {
      dev::bw::bandwidth_kernel<kind_of<K>(), Ld, St, W, U, kPinned><<<grid, block>>>(src, dst, n, l.passes, out, pin);
    }
  }
};

struct Entry {
  Launcher launch;
  RawKernel kernel;
  Launcher pinned = nullptr;  // width 16 of the variants the Bandwidth/shape sweep runs on fewer SMs
};

template <BwKind K, BwLoad L, BwStore S, int W, int U = 4, BwDist D = BwDist::static_slices,
          BwData Data = BwData::own_slice>
void add_one(std::map<Key, Entry>& m) {
  using Kn = Kernel<K, L, S, W, U, D, Data>;
  m[{K, L, S, W, U, D, Data}] = {Kn::launch, Kn::raw()};
}

template <BwKind K, BwLoad L, BwStore S>
void add_pinned(std::map<Key, Entry>& m) {
  m.at({K, L, S, 16, 4, BwDist::static_slices, BwData::own_slice}).pinned =
      Kernel<K, L, S, 16, 4, BwDist::static_slices, BwData::own_slice, true>::launch;
}

template <BwKind K, BwLoad L, BwStore S>
void add(std::map<Key, Entry>& m) {
  add_one<K, L, S, 4>(m);
  add_one<K, L, S, 8>(m);
  add_one<K, L, S, 16>(m);
}

// The DRAM shapes the Bandwidth/tune sweep tries (width 16) beyond the static unroll-4 default:
// static at unroll U and dynamic at U.
template <BwKind K, BwLoad L, BwStore S, int U>
void add_tuning(std::map<Key, Entry>& m) {
  add_one<K, L, S, 16, U, BwDist::static_slices>(m);
  add_one<K, L, S, 16, U, BwDist::dynamic_chunks>(m);
}

// Claims by whole blocks (contiguous regions per block, as a grid of short blocks reads).
template <BwKind K, BwLoad L, BwStore S, int... Us>
void add_block_tuning(std::map<Key, Entry>& m) {
  (add_one<K, L, S, 16, Us, BwDist::dynamic_blocks>(m), ...);
}

// Writes: stores in flight 2, 4 (the default) and 8, both distributions.
template <BwStore S>
void add_write_tuning(std::map<Key, Entry>& m) {
  add_tuning<BwKind::write, BwLoad::none, S, 2>(m);
  add_tuning<BwKind::write, BwLoad::none, S, 8>(m);
  add_one<BwKind::write, BwLoad::none, S, 16, 4, BwDist::dynamic_chunks>(m);
}

// Grid order (width 16): one and two accesses per thread; reads also 4 and 8 (more bytes in
// flight per SM: up to 256 KiB at 2 blocks of 32 warps).
template <BwKind K, BwLoad L, BwStore S>
void add_grid(std::map<Key, Entry>& m) {
  add_one<K, L, S, 16, 1, BwDist::grid_order>(m);
  add_one<K, L, S, 16, 2, BwDist::grid_order>(m);
  if constexpr (K == BwKind::read) {
    add_one<K, L, S, 16, 4, BwDist::grid_order>(m);
    add_one<K, L, S, 16, 8, BwDist::grid_order>(m);
  }
}

// The L2 read cases (Bandwidth/l2): every SM reads everything, or its own list of lines.
template <BwLoad L>
void add_l2_cases(std::map<Key, Entry>& m) {
  add_one<BwKind::read, L, BwStore::none, 16, 8, BwDist::static_slices, BwData::shared_by_all>(m);
  add_one<BwKind::read, L, BwStore::none, 16, 8, BwDist::static_slices, BwData::line_lists>(m);
}

const std::map<Key, Entry>& table() {
  static const std::map<Key, Entry> t = [] {
    std::map<Key, Entry> m;
    add<BwKind::read, BwLoad::def, BwStore::none>(m);
    add<BwKind::read, BwLoad::ca, BwStore::none>(m);
    add<BwKind::read, BwLoad::cg, BwStore::none>(m);
    add<BwKind::read, BwLoad::cs, BwStore::none>(m);
    add<BwKind::read, BwLoad::lu, BwStore::none>(m);
    add<BwKind::read, BwLoad::cv, BwStore::none>(m);
    add<BwKind::read, BwLoad::nc, BwStore::none>(m);
    add<BwKind::read, BwLoad::na, BwStore::none>(m);
    add<BwKind::write, BwLoad::none, BwStore::def>(m);
    add<BwKind::write, BwLoad::none, BwStore::wb>(m);
    add<BwKind::write, BwLoad::none, BwStore::cg>(m);
    add<BwKind::write, BwLoad::none, BwStore::cs>(m);
    add<BwKind::write, BwLoad::none, BwStore::wt>(m);
    add<BwKind::write, BwLoad::none, BwStore::na>(m);
    add<BwKind::copy, BwLoad::def, BwStore::def>(m);
    add<BwKind::copy, BwLoad::cg, BwStore::cg>(m);
    add<BwKind::copy, BwLoad::cs, BwStore::cs>(m);
    add<BwKind::rmw, BwLoad::def, BwStore::def>(m);
    add_pinned<BwKind::read, BwLoad::def, BwStore::none>(m);
    add_pinned<BwKind::read, BwLoad::ca, BwStore::none>(m);
    add_pinned<BwKind::read, BwLoad::cg, BwStore::none>(m);
    add_pinned<BwKind::read, BwLoad::na, BwStore::none>(m);
    add_pinned<BwKind::write, BwLoad::none, BwStore::def>(m);
    add_tuning<BwKind::read, BwLoad::def, BwStore::none, 8>(m);  // unroll 4: the static default above
    add_one<BwKind::read, BwLoad::def, BwStore::none, 16, 4, BwDist::dynamic_chunks>(m);
    add_tuning<BwKind::read, BwLoad::cg, BwStore::none, 8>(m);
    add_one<BwKind::read, BwLoad::cg, BwStore::none, 16, 4, BwDist::dynamic_chunks>(m);
    add_tuning<BwKind::read, BwLoad::nc, BwStore::none, 8>(m);
    add_one<BwKind::read, BwLoad::nc, BwStore::none, 16, 4, BwDist::dynamic_chunks>(m);
    add_write_tuning<BwStore::def>(m);
    add_write_tuning<BwStore::cs>(m);
    add_write_tuning<BwStore::cg>(m);
    add_tuning<BwKind::copy, BwLoad::def, BwStore::def, 8>(m);
    add_one<BwKind::copy, BwLoad::def, BwStore::def, 16, 4, BwDist::dynamic_chunks>(m);
    add_tuning<BwKind::copy, BwLoad::cs, BwStore::cs, 8>(m);
    add_one<BwKind::copy, BwLoad::cs, BwStore::cs, 16, 4, BwDist::dynamic_chunks>(m);
    add_tuning<BwKind::copy, BwLoad::cg, BwStore::cg, 8>(m);
    add_one<BwKind::copy, BwLoad::cg, BwStore::cg, 16, 4, BwDist::dynamic_chunks>(m);
    add_block_tuning<BwKind::read, BwLoad::def, BwStore::none, 4, 8>(m);
    add_block_tuning<BwKind::read, BwLoad::nc, BwStore::none, 4, 8>(m);
    add_block_tuning<BwKind::write, BwLoad::none, BwStore::def, 4>(m);
    add_block_tuning<BwKind::write, BwLoad::none, BwStore::cs, 4>(m);
    add_block_tuning<BwKind::copy, BwLoad::def, BwStore::def, 4, 8>(m);
    add_grid<BwKind::read, BwLoad::nc, BwStore::none>(m);
    add_grid<BwKind::write, BwLoad::none, BwStore::def>(m);
    add_grid<BwKind::write, BwLoad::none, BwStore::cs>(m);
    add_grid<BwKind::copy, BwLoad::def, BwStore::def>(m);
    add_grid<BwKind::copy, BwLoad::cg, BwStore::cg>(m);
    add_grid<BwKind::copy, BwLoad::evict_last, BwStore::def>(m);
    add_l2_cases<BwLoad::cg>(m);
    add_l2_cases<BwLoad::nc>(m);
    add_l2_cases<BwLoad::ca>(m);
    return m;
  }();
  return t;
}

Key key_of(const BwLaunch& l) {
  return {l.variant.kind, l.variant.load, l.variant.store, l.width, l.unroll, l.dist, l.data};
}

const Entry& entry(const BwLaunch& l) {
  const auto it = table().find(key_of(l));
  if (it == table().end())
    throw std::invalid_argument("bandwidth: no kernel for " + l.variant.name() + " at " + std::to_string(l.width) +
                                " B, unroll " + std::to_string(l.unroll) + ", " + bw_dist_name(l.dist) +
                                (l.data == BwData::own_slice       ? ""
                                 : l.data == BwData::shared_by_all ? ", shared"
                                                                   : ", lines"));
  return it->second;
}

void check_shape(int blocks, int threads_per_block) {
  if (blocks <= 0 || threads_per_block <= 0 || threads_per_block % 32 != 0 || threads_per_block > 1024)
    throw std::invalid_argument("bandwidth: threads per block must be a multiple of 32 in 32..1024, blocks > 0");
}

// Grid order: passes x groups blocks in one launch, a timing record per SM id (ids run below
// 2 x the SM count on every GPU seen); only the records of SMs that ran blocks at both ends.
std::vector<WarpTiming> run_grid_order(const BwLaunch& l, const Entry& e) {
  int device = 0, sm_count = 0, fit = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, e.kernel, l.threads_per_block, 0));
  const std::size_t n = l.footprint_bytes / l.width, group = std::size_t(l.threads_per_block) * l.unroll;
  const std::size_t groups = (n + group - 1) / group, resident = std::size_t(fit) * sm_count;
  // Groups per pass >= kMinChunksPerClaimer x the blocks resident at once (the dynamic claims' rule,
  // a group for a chunk): a group's next pass is dispatched long after this one ended.
  if (groups < kMinChunksPerClaimer * resident)
    throw std::invalid_argument("bandwidth: " + std::to_string(groups) + " thread groups per pass for " +
                                std::to_string(resident) + " resident blocks; grid order needs at least " +
                                std::to_string(kMinChunksPerClaimer) + " per resident block");
  if (groups * l.passes > 0x7fffffffu) throw std::invalid_argument("bandwidth: grid order needs more than 2^31 blocks");
  BwLaunch g = l;
  g.grid_groups = std::uint32_t(groups);
  g.grid_edge = std::uint32_t(2 * resident);  // two waves at each end
  WarpTiming unset;
  unset.start_ns = unset.start_cycles = ~std::uint64_t(0);
  DeviceBuffer<WarpTiming> per_sm(std::vector<WarpTiming>(2 * std::size_t(sm_count), unset));
  e.launch(g, per_sm.get(), dim3(std::uint32_t(groups * l.passes)), dim3(l.threads_per_block), BwPin{}, 0);
  cuda_check_launch("bandwidth_grid_kernel");
  std::vector<WarpTiming> seen;
  const std::vector<WarpTiming> records = per_sm.download();
  for (std::size_t sm = 0; sm < records.size(); ++sm) {
    WarpTiming r = records[sm];
    if (r.start_ns == unset.start_ns || r.end_ns == 0) continue;
    r.smid = std::uint32_t(sm);
    seen.push_back(r);
  }
  if (seen.empty()) throw std::runtime_error("bandwidth: no SM ran blocks at both ends of the grid");
  return seen;
}

}  // namespace

constexpr EnumName<BwKind> kBwKindNames[] = {
    {BwKind::read, "read"}, {BwKind::write, "write"}, {BwKind::copy, "copy"}, {BwKind::rmw, "rmw"}};
const char* bw_kind_name(BwKind k) { return name_of(kBwKindNames, k); }
constexpr EnumName<BwLoad> kBwLoadNames[] = {{BwLoad::none, ""},    {BwLoad::def, "ld"},
                                             {BwLoad::ca, "ld.ca"}, {BwLoad::cg, "ld.cg"},
                                             {BwLoad::cs, "ld.cs"}, {BwLoad::lu, "ld.lu"},
                                             {BwLoad::cv, "ld.cv"}, {BwLoad::nc, "ld.nc"},
                                             {BwLoad::na, "ld.na"}, {BwLoad::evict_last, "ld.evict_last"}};
const char* bw_load_name(BwLoad op) { return name_of(kBwLoadNames, op); }
constexpr EnumName<BwStore> kBwStoreNames[] = {{BwStore::none, ""},    {BwStore::def, "st"},   {BwStore::wb, "st.wb"},
                                               {BwStore::cg, "st.cg"}, {BwStore::cs, "st.cs"}, {BwStore::wt, "st.wt"},
                                               {BwStore::na, "st.na"}};
const char* bw_store_name(BwStore op) { return name_of(kBwStoreNames, op); }

std::string BwVariant::name() const {
  std::string n = std::string(bw_kind_name(kind)) + "/";
  if (load != BwLoad::none) n += bw_load_name(load);
  if (load != BwLoad::none && store != BwStore::none) n += "+";
  if (store != BwStore::none) n += bw_store_name(store);
  return n;
}

const std::vector<BwVariant>& bw_variants() {
  static const std::vector<BwVariant> v = [] {
    std::vector<BwVariant> out;
    for (const auto& [key, e] : table()) {
      const auto& [kind, load, store, width, unroll, dist, data] = key;
      if (width == 16 && unroll == 4 && dist == BwDist::static_slices && data == BwData::own_slice)
        out.push_back({kind, load, store});
    }
    return out;
  }();
  return v;
}

constexpr EnumName<BwDist> kBwDistNames[] = {{BwDist::static_slices, "static"},
                                             {BwDist::dynamic_chunks, "dynamic"},
                                             {BwDist::dynamic_blocks, "dynamic-block"},
                                             {BwDist::grid_order, "grid"}};
const char* bw_dist_name(BwDist d) { return name_of(kBwDistNames, d); }

bool bw_has_kernel(const BwLaunch& l) { return table().count(key_of(l)) != 0; }

double bw_bytes_of_warp(const BwLaunch& l, const WarpTiming& w, std::size_t warps) {
  if (l.data == BwData::line_lists) return 512.0 * w.work_units;  // accesses of 4 lines, every pass counted
  if (l.data == BwData::shared_by_all) return double(l.footprint_bytes) * l.passes * l.blocks / double(warps);
  if (l.dist == BwDist::dynamic_chunks) return double(w.work_units) * l.chunk_bytes * l.variant.accesses();
  if (l.dist == BwDist::dynamic_blocks)  // the block's chunks, shared by its warps
    return double(w.work_units) * l.chunk_bytes * l.variant.accesses() / double(l.threads_per_block / 32);
  return double(l.footprint_bytes) * l.passes * l.variant.accesses() / double(warps);  // static; grid: per SM
}

namespace {
std::vector<WarpTiming> launch_and_time(const BwLaunch& l) {
  check_shape(l.blocks, l.threads_per_block);
  if (l.footprint_bytes == 0 || l.footprint_bytes % l.width != 0)
    throw std::invalid_argument("bandwidth: the footprint must be a positive multiple of the access width");
  const Entry& e = entry(l);
  if (l.dist == BwDist::grid_order) return run_grid_order(l, e);
  const std::size_t warps = std::size_t(l.blocks) * (l.threads_per_block / 32);
  DeviceBuffer<WarpTiming> out(warps);
  if (l.dist != BwDist::static_slices) {
    const bool by_block = l.dist == BwDist::dynamic_blocks;
    const std::size_t claimers = by_block ? std::size_t(l.blocks) : warps;
    const std::size_t group = std::size_t(by_block ? l.threads_per_block : 32) * l.unroll * l.width;
    if (l.chunk_bytes == 0 || l.chunk_bytes % group != 0)
      throw std::invalid_argument("bandwidth: a dynamic chunk must be a multiple of " + std::to_string(group) + " B");
    if (!enough_chunks_per_claimer(l.footprint_bytes, l.chunk_bytes, claimers))
      throw std::invalid_argument("bandwidth: " + std::to_string(l.footprint_bytes / l.chunk_bytes) +
                                  " chunks per pass for " + std::to_string(claimers) +
                                  (by_block ? " blocks" : " warps") + "; dynamic distribution needs at least " +
                                  std::to_string(kMinChunksPerClaimer) + " per claimer");
    if (l.footprint_bytes % l.chunk_bytes != 0)
      throw std::invalid_argument("bandwidth: the footprint must be a multiple of the dynamic chunk");
    static DeviceBuffer<std::uint32_t> ticket(1);
    ARCHBENCH_CUDA(cudaMemset(ticket.get(), 0, sizeof(std::uint32_t)));
    BwPin pin;
    pin.tickets = ticket.get();
    e.launch(l, out.get(), dim3(l.blocks), dim3(l.threads_per_block), pin, 0);
    cuda_check_launch(by_block ? "bandwidth_block_dynamic_kernel" : "bandwidth_dynamic_kernel");
    return out.download();
  }
  if (l.data == BwData::line_lists) {
    int device = 0, smem_per_sm = 0, optin = 0;
    ARCHBENCH_CUDA(cudaGetDevice(&device));
    ARCHBENCH_CUDA(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
    ARCHBENCH_CUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    // More than half the SM's shared memory: one block per SM, the one that reads its list.
    const std::size_t smem = bw_lines_shared_bytes(l.max_lines_per_sm, std::size_t(smem_per_sm));
    if (smem > std::size_t(optin))
      throw std::invalid_argument("bandwidth: " + std::to_string(l.max_lines_per_sm) +
                                  " lines per SM do not fit in a block's shared memory");
    ARCHBENCH_CUDA(cudaFuncSetAttribute(e.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    e.launch(l, out.get(), dim3(l.blocks), dim3(l.threads_per_block), BwPin{}, smem);
    cuda_check_launch("bandwidth_lines_kernel");
    return out.download();
  }
  if (l.spread_sms == 0) {
    e.launch(l, out.get(), dim3(l.blocks), dim3(l.threads_per_block), BwPin{}, 0);
    cuda_check_launch("bandwidth_kernel");
    return out.download();
  }
  int device = 0, sm_count = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  if (l.spread_sms > sm_count || l.blocks % l.spread_sms != 0)
    throw std::invalid_argument("bandwidth: " + std::to_string(l.blocks) + " blocks do not spread evenly over " +
                                std::to_string(l.spread_sms) + " of " + std::to_string(sm_count) + " SMs");
  if (!e.pinned)
    throw std::invalid_argument("bandwidth: " + l.variant.name() + " at " + std::to_string(l.width) +
                                " B has no kernel for chosen SMs");
  const auto per_sm = std::uint32_t(l.blocks / l.spread_sms);
  DeviceBuffer<std::uint32_t> tickets(std::size_t(l.spread_sms));
  // A few blocks per SM over the whole GPU: the chosen SMs take theirs in the first wave, every
  // other block returns at once. A chosen SM left short (never seen) gets a larger grid.
  for (int grid = 2 * sm_count * int(per_sm); grid <= 32 * sm_count * int(per_sm); grid *= 4) {
    ARCHBENCH_CUDA(cudaMemset(tickets.get(), 0, tickets.bytes()));
    e.pinned(l, out.get(), dim3(grid), dim3(l.threads_per_block),
             BwPin{std::uint32_t(l.spread_sms), std::uint32_t(sm_count), per_sm, tickets.get()}, 0);
    cuda_check_launch("bandwidth_kernel");
    const std::vector<std::uint32_t> taken = tickets.download();
    if (std::all_of(taken.begin(), taken.end(), [per_sm](std::uint32_t t) { return t >= per_sm; }))
      return out.download();
  }
  throw std::runtime_error("bandwidth: the block scheduler left a chosen SM without its blocks");
}
}  // namespace

std::vector<WarpTiming> run_bandwidth(const BwLaunch& l) {
  std::vector<WarpTiming> timed = launch_and_time(l);
  // Lines a launch left at a raised L2 priority go back to normal, so that no later kernel over
  // the same arrays hits them: a plain copy right after an evict_last one read 0.7-1.0 % faster
  // (its source partly in the L2), and again as before after this reset.
  if (l.variant.loads_leave_priority_lines()) ARCHBENCH_CUDA(cudaCtxResetPersistingL2Cache());
  return timed;
}

int bandwidth_max_blocks_per_sm(const BwVariant& v, int width, int threads_per_block) {
  BwLaunch l;
  l.variant = v;
  l.width = width;
  return bandwidth_max_blocks_per_sm(l, threads_per_block);
}

int bandwidth_max_blocks_per_sm(const BwLaunch& l, int threads_per_block) {
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, entry(l).kernel, threads_per_block, 0));
  return blocks;
}

L2SideProbe probe_l2_sides(std::uint32_t* lines, std::uint32_t n_lines, std::uint32_t samples) {
  int device = 0, sm_count = 0, smem_per_sm = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  if (samples == 0 || samples > n_lines) throw std::invalid_argument("l2 side probe: 1..n_lines samples");
  // An odd step, so that the sample does not alias with a power-of-two period of the hash.
  std::uint32_t step = (n_lines - 1) / samples;
  if (step % 2 == 0 && step > 1) --step;
  // Cycles indexed by SM id: SM ids run below 2 x the SM count on every GPU seen.
  const std::size_t sm_slots = 2 * std::size_t(sm_count);
  DeviceBuffer<std::uint32_t> map(n_lines), sampled(sm_slots * samples), reference(2);
  ARCHBENCH_CUDA(cudaMemset(sampled.get(), 0, sampled.bytes()));
  dev::bw::l2_side_probe_kernel<<<1, 1024>>>(lines, n_lines, 0, 1, 0, map.get(), reference.get());
  cuda_check_launch("l2_side_probe_kernel");
  // One block per SM: more than half the SM's shared memory each.
  const int smem = smem_per_sm / 2 + 1024;
  ARCHBENCH_CUDA(
      cudaFuncSetAttribute(dev::bw::l2_side_probe_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  dev::bw::l2_side_probe_kernel<<<sm_count, 128, smem>>>(lines, n_lines, samples, step, 0, sampled.get(),
                                                         reference.get());
  cuda_check_launch("l2_side_probe_kernel");
  L2SideProbe p;
  const auto m = map.download();
  p.map_cycles.assign(m.begin(), m.end());
  p.reference_sm = int(reference.download()[0]);
  p.sample_step = step;
  const auto s = sampled.download();
  p.sample_cycles_by_sm.resize(sm_slots);
  for (std::size_t sm = 0; sm < sm_slots; ++sm) {
    auto first = s.begin() + std::ptrdiff_t(sm * samples);
    if (std::all_of(first, first + samples, [](std::uint32_t c) { return c == 0; })) continue;
    p.sample_cycles_by_sm[sm].assign(first, first + samples);
  }
  return p;
}

namespace {
RawKernel smem_kernel(int width) {
  switch (width) {
    case 4:
      return reinterpret_cast<RawKernel>(dev::bw::smem_read_kernel<4>);
    case 8:
      return reinterpret_cast<RawKernel>(dev::bw::smem_read_kernel<8>);
    case 16:
      return reinterpret_cast<RawKernel>(dev::bw::smem_read_kernel<16>);
    default:
      throw std::invalid_argument("smem bandwidth: width must be 4, 8 or 16");
  }
}
template <BwLoad L>
RawKernel l1_kernel_of(int width) {
  using Ld = typename LoadTag<L>::T;
  switch (width) {
    case 4:
      return reinterpret_cast<RawKernel>(dev::bw::l1_read_kernel<Ld, 4>);
    case 8:
      return reinterpret_cast<RawKernel>(dev::bw::l1_read_kernel<Ld, 8>);
    case 16:
      return reinterpret_cast<RawKernel>(dev::bw::l1_read_kernel<Ld, 16>);
    default:
      throw std::invalid_argument("L1 bandwidth: width must be 4, 8 or 16");
  }
}

RawKernel l1_kernel(BwLoad op, int width) {
  switch (op) {
    case BwLoad::def:
      return l1_kernel_of<BwLoad::def>(width);
    case BwLoad::ca:
      return l1_kernel_of<BwLoad::ca>(width);
    case BwLoad::nc:
      return l1_kernel_of<BwLoad::nc>(width);
    default:
      throw std::invalid_argument(std::string("L1 bandwidth: no kernel for ") + bw_load_name(op) +
                                  " (ld, ld.ca and ld.nc keep lines in the L1)");
  }
}
}  // namespace

std::vector<WarpTiming> run_l1_read(BwLoad op, int width, const void* src, std::uint32_t bytes, std::uint32_t passes,
                                    int blocks, int threads_per_block) {
  check_shape(blocks, threads_per_block);
  const RawKernel k = l1_kernel(op, width);
  const std::size_t warps = std::size_t(blocks) * (threads_per_block / 32);
  DeviceBuffer<WarpTiming> out(warps);
  WarpTiming* out_ptr = out.get();
  std::uint32_t zero = 0;  // kernels/bandwidth.cuh: a pass's addresses depend on the last one's fold
  void* args[] = {&src, &bytes, &passes, &zero, &out_ptr};
  ARCHBENCH_CUDA(cudaLaunchKernel(k, dim3(blocks), dim3(threads_per_block), args, 0, nullptr));
  cuda_check_launch("l1_read_kernel");
  return out.download();
}

int l1_read_max_blocks_per_sm(BwLoad op, int width, int threads_per_block) {
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, l1_kernel(op, width), threads_per_block, 0));
  return blocks;
}

std::vector<WarpTiming> run_smem_read(int width, std::uint32_t bytes, std::uint32_t passes, int blocks,
                                      int threads_per_block) {
  check_shape(blocks, threads_per_block);
  const RawKernel k = smem_kernel(width);
  ARCHBENCH_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  const std::size_t warps = std::size_t(blocks) * (threads_per_block / 32);
  DeviceBuffer<WarpTiming> out(warps);
  void* args[] = {&bytes, &passes, nullptr};
  WarpTiming* out_ptr = out.get();
  args[2] = &out_ptr;
  ARCHBENCH_CUDA(cudaLaunchKernel(k, dim3(blocks), dim3(threads_per_block), args, bytes, nullptr));
  cuda_check_launch("smem_read_kernel");
  return out.download();
}

int smem_read_max_blocks_per_sm(int width, int threads_per_block, std::uint32_t bytes) {
  const RawKernel k = smem_kernel(width);
  ARCHBENCH_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads_per_block, bytes));
  return blocks;
}

}  // namespace archbench
