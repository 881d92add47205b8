// Host calls that launch the bandwidth kernels: one instantiation per variant x width.
#include "kernels/bandwidth.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "fixtures/cuda_check.hpp"
#include "fixtures/device_buffer.hpp"
#include "kernels/bandwidth.cuh"

namespace archbench {
namespace {

using dev::bw::Kind;

template <BwLoad> struct LoadTag { using T = dev::bw::LdDefault; };  // none: unused
template <> struct LoadTag<BwLoad::ca> { using T = dev::bw::LdCa; };
template <> struct LoadTag<BwLoad::cg> { using T = dev::bw::LdCg; };
template <> struct LoadTag<BwLoad::cs> { using T = dev::bw::LdCs; };
template <> struct LoadTag<BwLoad::lu> { using T = dev::bw::LdLu; };
template <> struct LoadTag<BwLoad::cv> { using T = dev::bw::LdCv; };
template <> struct LoadTag<BwLoad::nc> { using T = dev::bw::LdNc; };
template <> struct LoadTag<BwLoad::na> { using T = dev::bw::LdNa; };
template <BwStore> struct StoreTag { using T = dev::bw::StDefault; };
template <> struct StoreTag<BwStore::wb> { using T = dev::bw::StWb; };
template <> struct StoreTag<BwStore::cg> { using T = dev::bw::StCg; };
template <> struct StoreTag<BwStore::cs> { using T = dev::bw::StCs; };
template <> struct StoreTag<BwStore::wt> { using T = dev::bw::StWt; };
template <> struct StoreTag<BwStore::na> { using T = dev::bw::StNa; };

using Key = std::tuple<BwKind, BwLoad, BwStore, int>;
using RawKernel = const void*;
using Launcher = void (*)(const BwLaunch&, WarpTiming*, dim3, dim3, BwPin);

template <BwKind K, BwLoad L, BwStore S, int W, bool kPinned = false>
void launch(const BwLaunch& l, WarpTiming* out, dim3 grid, dim3 block, BwPin pin) {
  using V = typename dev::VecOf<W>::T;
  constexpr Kind kind = K == BwKind::read ? Kind::read : K == BwKind::write ? Kind::write
                        : K == BwKind::copy ? Kind::copy : Kind::rmw;
  dev::bw::bandwidth_kernel<kind, typename LoadTag<L>::T, typename StoreTag<S>::T, W, kPinned><<<grid, block>>>(
      static_cast<const V*>(l.src), static_cast<V*>(l.dst), l.footprint_bytes / W, l.passes, out, pin);
}
template <BwKind K, BwLoad L, BwStore S, int W>
RawKernel raw() {
  constexpr Kind kind = K == BwKind::read ? Kind::read : K == BwKind::write ? Kind::write
                        : K == BwKind::copy ? Kind::copy : Kind::rmw;
  return reinterpret_cast<RawKernel>(
      dev::bw::bandwidth_kernel<kind, typename LoadTag<L>::T, typename StoreTag<S>::T, W>);
}

struct Entry {
  Launcher launch;
  RawKernel kernel;
  Launcher pinned = nullptr;  // width 16 of the variants the Bandwidth/shape sweep runs on fewer SMs
};

template <BwKind K, BwLoad L, BwStore S>
void add_pinned(std::map<Key, Entry>& m) {
  m.at({K, L, S, 16}).pinned = launch<K, L, S, 16, true>;
}

template <BwKind K, BwLoad L, BwStore S>
void add(std::map<Key, Entry>& m) {
  m[{K, L, S, 4}] = {launch<K, L, S, 4>, raw<K, L, S, 4>()};
  m[{K, L, S, 8}] = {launch<K, L, S, 8>, raw<K, L, S, 8>()};
  m[{K, L, S, 16}] = {launch<K, L, S, 16>, raw<K, L, S, 16>()};
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
    return m;
  }();
  return t;
}

const Entry& entry(const BwVariant& v, int width) {
  const auto it = table().find({v.kind, v.load, v.store, width});
  if (it == table().end())
    throw std::invalid_argument("bandwidth: no kernel for " + v.name() + " at " + std::to_string(width) + " B");
  return it->second;
}

void check_shape(int blocks, int threads_per_block) {
  if (blocks <= 0 || threads_per_block <= 0 || threads_per_block % 32 != 0 || threads_per_block > 1024)
    throw std::invalid_argument("bandwidth: threads per block must be a multiple of 32 in 32..1024, blocks > 0");
}

}  // namespace

const char* bw_kind_name(BwKind k) {
  switch (k) {
    case BwKind::read: return "read";
    case BwKind::write: return "write";
    case BwKind::copy: return "copy";
    case BwKind::rmw: return "rmw";
  }
  return "?";
}
const char* bw_load_name(BwLoad op) {
  switch (op) {
    case BwLoad::none: return "";
    case BwLoad::def: return "ld";
    case BwLoad::ca: return "ld.ca";
    case BwLoad::cg: return "ld.cg";
    case BwLoad::cs: return "ld.cs";
    case BwLoad::lu: return "ld.lu";
    case BwLoad::cv: return "ld.cv";
    case BwLoad::nc: return "ld.nc";
    case BwLoad::na: return "ld.na";
  }
  return "?";
}
const char* bw_store_name(BwStore op) {
  switch (op) {
    case BwStore::none: return "";
    case BwStore::def: return "st";
    case BwStore::wb: return "st.wb";
    case BwStore::cg: return "st.cg";
    case BwStore::cs: return "st.cs";
    case BwStore::wt: return "st.wt";
    case BwStore::na: return "st.na";
  }
  return "?";
}

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
    for (const auto& [key, e] : table())
      if (std::get<3>(key) == 16) out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key)});
    return out;
  }();
  return v;
}

std::vector<WarpTiming> run_bandwidth(const BwLaunch& l) {
  check_shape(l.blocks, l.threads_per_block);
  if (l.footprint_bytes == 0 || l.footprint_bytes % l.width != 0)
    throw std::invalid_argument("bandwidth: the footprint must be a positive multiple of the access width");
  const Entry& e = entry(l.variant, l.width);
  const std::size_t warps = std::size_t(l.blocks) * (l.threads_per_block / 32);
  DeviceBuffer<WarpTiming> out(warps);
  if (l.spread_sms == 0) {
    e.launch(l, out.get(), dim3(l.blocks), dim3(l.threads_per_block), BwPin{});
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
             BwPin{std::uint32_t(l.spread_sms), std::uint32_t(sm_count), per_sm, tickets.get()});
    cuda_check_launch("bandwidth_kernel");
    const std::vector<std::uint32_t> taken = tickets.download();
    if (std::all_of(taken.begin(), taken.end(), [per_sm](std::uint32_t t) { return t >= per_sm; })) return out.download();
  }
  throw std::runtime_error("bandwidth: the block scheduler left a chosen SM without its blocks");
}

int bandwidth_max_blocks_per_sm(const BwVariant& v, int width, int threads_per_block) {
  int blocks = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, entry(v, width).kernel, threads_per_block, 0));
  return blocks;
}

namespace {
RawKernel smem_kernel(int width) {
  switch (width) {
    case 4: return reinterpret_cast<RawKernel>(dev::bw::smem_read_kernel<4>);
    case 8: return reinterpret_cast<RawKernel>(dev::bw::smem_read_kernel<8>);
    case 16: return reinterpret_cast<RawKernel>(dev::bw::smem_read_kernel<16>);
    default: throw std::invalid_argument("smem bandwidth: width must be 4, 8 or 16");
  }
}
}  // namespace

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
