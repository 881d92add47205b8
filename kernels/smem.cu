// Host calls that launch the shared-memory kernels.
#include "kernels/smem.hpp"

#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/smem.cuh"
#include "kernels/shared/enum_names.hpp"

namespace archbench {
namespace {

using RawKernel = const void*;

template <template <int> class Pick>
RawKernel by_width(int access_bytes) {
  switch (access_bytes) {
    case 4:
      return Pick<4>::get();
    case 8:
      return Pick<8>::get();
    case 16:
      return Pick<16>::get();
    default:
      throw std::invalid_argument("smem: access width must be 4, 8 or 16 bytes");
  }
}
template <int W>
struct ChaseKernel {
  static RawKernel get() { return reinterpret_cast<RawKernel>(dev::smem::bank_chase_kernel<W>); }
};
template <int W>
struct ThroughputKernel {
  static RawKernel get() { return reinterpret_cast<RawKernel>(dev::smem::bank_throughput_kernel<W>); }
};

// Shared memory a pattern needs: every word up to its highest access, rounded to 16 B.
std::uint32_t pattern_bytes(int access_bytes, const std::vector<std::uint32_t>& offsets) {
  if (offsets.size() != 32) throw std::invalid_argument("smem: a pattern has one offset per lane of a 32-lane warp");
  std::uint32_t top = 0;
  for (std::uint32_t o : offsets) {
    if (o % std::uint32_t(access_bytes) != 0)
      throw std::invalid_argument("smem: offsets must be aligned to the access width");
    top = std::max(top, o);
  }
  return (top + std::uint32_t(access_bytes) + 15) / 16 * 16;
}

void allow_dynamic_smem(RawKernel k, std::uint32_t bytes) {
  ARCHBENCH_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
}

}  // namespace

WarpTiming run_smem_bank_chase(int access_bytes, const std::vector<std::uint32_t>& lane_offsets, std::uint32_t steps) {
  if (steps == 0 || steps % kSmemChaseUnroll != 0)
    throw std::invalid_argument("smem chase: steps must be a positive multiple of " + std::to_string(kSmemChaseUnroll));
  const std::uint32_t bytes = pattern_bytes(access_bytes, lane_offsets);
  const RawKernel k = by_width<ChaseKernel>(access_bytes);
  allow_dynamic_smem(k, bytes);
  DeviceBuffer<std::uint32_t> offsets(lane_offsets);
  DeviceBuffer<WarpTiming> out(1);
  const std::uint32_t* offsets_ptr = offsets.get();
  WarpTiming* out_ptr = out.get();
  std::uint32_t bytes_arg = bytes, steps_arg = steps;
  void* args[] = {&offsets_ptr, &bytes_arg, &steps_arg, &out_ptr};
  ARCHBENCH_CUDA(cudaLaunchKernel(k, dim3(1), dim3(32), args, bytes, nullptr));
  cuda_check_launch("bank_chase_kernel");
  return out.download().front();
}

std::vector<WarpTiming> run_smem_bank_throughput(int access_bytes, const std::vector<std::uint32_t>& lane_offsets,
                                                 std::uint32_t iterations, int blocks, int warps_per_block) {
  if (blocks < 1 || warps_per_block < 1 || warps_per_block > 32)
    throw std::invalid_argument("smem throughput: 1..32 warps per block and at least one block");
  const std::uint32_t bytes = pattern_bytes(access_bytes, lane_offsets);
  const RawKernel k = by_width<ThroughputKernel>(access_bytes);
  allow_dynamic_smem(k, bytes);
  DeviceBuffer<std::uint32_t> offsets(lane_offsets);
  DeviceBuffer<WarpTiming> out(std::size_t(blocks) * warps_per_block);
  const std::uint32_t* offsets_ptr = offsets.get();
  WarpTiming* out_ptr = out.get();
  std::uint32_t bytes_arg = bytes;
  void* args[] = {&offsets_ptr, &bytes_arg, &iterations, &out_ptr};
  ARCHBENCH_CUDA(cudaLaunchKernel(k, dim3(blocks), dim3(32 * warps_per_block), args, bytes, nullptr));
  cuda_check_launch("bank_throughput_kernel");
  return out.download();
}

std::uint32_t expected_smem_bank_check(int access_bytes, std::uint32_t offset, std::uint32_t iterations) {
  std::uint32_t one = 0;
  for (int j = 0; j < access_bytes / 4; ++j) one += offset + 4u * std::uint32_t(j);
  return one * std::uint32_t(kSmemLoadsPerIteration) * iterations;  // modulo 2^32, as on the GPU
}

constexpr EnumName<DsmPattern> kDsmPatternNames[] = {{DsmPattern::local, "local"},
                                                     {DsmPattern::pairs, "pairs"},
                                                     {DsmPattern::ring, "ring"},
                                                     {DsmPattern::one_to_all, "one_to_all"},
                                                     {DsmPattern::all_to_all, "all_to_all"}};
const char* dsm_pattern_name(DsmPattern p) { return name_of(kDsmPatternNames, p); }

const char* dsm_load_name(DsmLoad l) { return l == DsmLoad::weak ? "ld" : "ld.volatile"; }

namespace {

cudaLaunchConfig_t cluster_config(int size, int blocks, int threads, std::uint32_t smem_bytes,
                                  cudaLaunchAttribute& attribute) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem_bytes;
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = static_cast<unsigned>(size);
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return config;
}

// Sizes above the portable 8 need the kernel's opt-in; the driver still decides whether they fit.
void prepare_cluster_kernel(RawKernel k, int size, std::uint32_t smem_bytes) {
  allow_dynamic_smem(k, smem_bytes);
  if (size > 8) ARCHBENCH_CUDA(cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
}

}  // namespace

int dsm_max_active_clusters(int size, int threads, std::uint32_t smem_bytes) {
  int device = 0, supported = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device));
  if (!supported) return 0;
  const auto k = reinterpret_cast<RawKernel>(dev::smem::dsm_bandwidth_kernel<false>);
  prepare_cluster_kernel(k, size, smem_bytes);
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(size, size, threads, smem_bytes, attribute);
  int clusters = 0;
  const cudaError_t err = cudaOccupancyMaxActiveClusters(&clusters, k, &config);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // a size the GPU cannot launch: not a sticky error
    return 0;
  }
  return clusters;
}

std::vector<DsmChaseResult> run_dsm_chase(int size, int clusters, std::uint32_t smem_bytes, std::uint32_t chase_bytes,
                                          std::uint32_t stride_bytes, std::uint32_t steps) {
  if (steps == 0 || steps % kSmemChaseUnroll != 0)
    throw std::invalid_argument("dsm chase: steps must be a positive multiple of " + std::to_string(kSmemChaseUnroll));
  if (chase_bytes % 4 != 0 || stride_bytes % 4 != 0 || stride_bytes == 0 || stride_bytes >= chase_bytes)
    throw std::invalid_argument("dsm chase: the stride and the chase must be whole words, the stride inside the chase");
  if (clusters < 1 || smem_bytes < chase_bytes)
    throw std::invalid_argument("dsm chase: at least one cluster, and the chase inside each block's shared memory");
  const auto k = reinterpret_cast<RawKernel>(dev::smem::dsm_chase_kernel);
  prepare_cluster_kernel(k, size, smem_bytes);
  const std::size_t slots = std::size_t(clusters) * std::size_t(size + 1);
  DeviceBuffer<std::uint64_t> cycles(slots), ns(slots);
  DeviceBuffer<std::uint32_t> final_offset(slots);
  DeviceBuffer<std::uint32_t> smids(std::size_t(clusters) * std::size_t(size));
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(size, clusters * size, 32, smem_bytes, attribute);
  ARCHBENCH_CUDA(cudaLaunchKernelEx(&config, dev::smem::dsm_chase_kernel, chase_bytes, stride_bytes, steps,
                                    cycles.get(), ns.get(), final_offset.get(), smids.get()));
  cuda_check_launch("dsm_chase_kernel");
  const auto all_cycles = cycles.download(), all_ns = ns.download();
  const auto all_final = final_offset.download();
  const auto all_smids = smids.download();
  std::vector<DsmChaseResult> out(static_cast<std::size_t>(clusters));
  for (std::size_t c = 0; c < out.size(); ++c) {
    DsmChaseResult& r = out[c];
    const std::size_t from = c * std::size_t(size + 1), to = from + std::size_t(size);
    r.cycles_per_rank.assign(all_cycles.begin() + std::ptrdiff_t(from), all_cycles.begin() + std::ptrdiff_t(to));
    r.ns_per_rank.assign(all_ns.begin() + std::ptrdiff_t(from), all_ns.begin() + std::ptrdiff_t(to));
    r.lds_cycles = all_cycles[to];
    r.lds_ns = all_ns[to];
    r.final_offset.assign(all_final.begin() + std::ptrdiff_t(from), all_final.begin() + std::ptrdiff_t(to + 1));
    r.smid_per_rank.assign(all_smids.begin() + std::ptrdiff_t(c * std::size_t(size)),
                           all_smids.begin() + std::ptrdiff_t((c + 1) * std::size_t(size)));
  }
  return out;
}

std::vector<WarpTiming> run_dsm_bandwidth(DsmPattern pattern, DsmLoad load, int size, int clusters, int warps_per_block,
                                          std::uint32_t smem_bytes, std::uint32_t src_bytes, std::uint32_t iterations) {
  if (warps_per_block < 1 || warps_per_block > 32 || clusters < 1)
    throw std::invalid_argument("dsm bandwidth: 1..32 warps per block and at least one cluster");
  if (src_bytes == 0 || src_bytes % 16 != 0 || src_bytes > smem_bytes)
    throw std::invalid_argument("dsm bandwidth: the source must be whole 16-byte words inside the block's memory");
  if (pattern == DsmPattern::pairs && size % 2 != 0)
    throw std::invalid_argument("dsm bandwidth: pairs needs an even cluster size");
  const auto kernel =
      load == DsmLoad::weak ? dev::smem::dsm_bandwidth_kernel<false> : dev::smem::dsm_bandwidth_kernel<true>;
  prepare_cluster_kernel(reinterpret_cast<RawKernel>(kernel), size, smem_bytes);
  const int blocks = clusters * size, threads = 32 * warps_per_block;
  DeviceBuffer<WarpTiming> out(std::size_t(blocks) * warps_per_block);
  cudaLaunchAttribute attribute{};
  const cudaLaunchConfig_t config = cluster_config(size, blocks, threads, smem_bytes, attribute);
  const std::uint32_t salt = 0;  // see dsm_bandwidth_kernel
  ARCHBENCH_CUDA(
      cudaLaunchKernelEx(&config, kernel, static_cast<int>(pattern), src_bytes, iterations, salt, out.get()));
  cuda_check_launch("dsm_bandwidth_kernel");
  return out.download();
}

std::uint32_t expected_dsm_check(int threads, int warp, std::uint32_t src_bytes, std::uint32_t iterations) {
  std::uint32_t one = 0;
  for (int u = 0; u < kSmemLoadsPerIteration; ++u) {
    const std::uint32_t offset = ((std::uint32_t(32 * warp) + std::uint32_t(u * threads)) * 16u) % src_bytes;
    one += 4 * offset + 0 + 4 + 8 + 12;
  }
  return one * iterations;
}

}  // namespace archbench
