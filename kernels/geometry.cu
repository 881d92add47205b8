#include "kernels/geometry.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/pchase.cuh"

namespace archbench {
namespace {

__global__ void write_offset_chase_kernel(std::uint8_t* base, const std::uint64_t* __restrict__ offsets,
                                          std::uint32_t n) {
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const std::uint64_t next = offsets[i + 1 == n ? 0 : i + 1];
    *reinterpret_cast<std::uint64_t*>(base + offsets[i]) = reinterpret_cast<std::uint64_t>(base + next);
  }
}

// Thread 0 of the first block to reach each SM (or of the target SM) chases; the others leave.
template <class Load>
__global__ void __launch_bounds__(32)
    sm_chase_kernel(std::uint64_t start, std::uint32_t warm_steps, std::uint32_t timed_blocks, int target_sm,
                    unsigned* __restrict__ claimed, SmChase* __restrict__ out) {
  if (threadIdx.x != 0) return;
  const std::uint32_t sm = dev::smid();
  if (target_sm >= 0 && sm != std::uint32_t(target_sm)) return;
  if (atomicCAS(&claimed[sm], 0u, 1u) != 0u) return;
  std::uint64_t p = start;
#pragma unroll 1
  for (std::uint32_t i = 0; i < warm_steps; ++i) p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
  dev::st_global_u64(&out[sm].final_pointer, p);
  const std::uint64_t c0 = dev::clock64_ordered();
  const std::uint64_t g0 = dev::globaltimer_ns();
#pragma unroll 1
  for (std::uint32_t b = 0; b < timed_blocks; ++b) {
#pragma unroll
    for (unsigned u = 0; u < kChainUnroll; ++u) p = Load::load(reinterpret_cast<const std::uint64_t*>(p));
  }
  dev::st_global_u64(&out[sm].final_pointer, p);
  const std::uint64_t c1 = dev::clock64_ordered();
  const std::uint64_t g1 = dev::globaltimer_ns();
  out[sm].cycles = c1 - c0;
  out[sm].ns = g1 - g0;
  out[sm].smid = sm;
  out[sm].ran = 1;
}

__global__ void __launch_bounds__(1)
    ca_nc_pair_kernel(std::uint64_t a, std::uint64_t b, std::uint32_t warm_steps, std::uint32_t timed_blocks,
                      PairChase* out, std::uint32_t pin_sm, std::uint32_t* claim) {
  if (!dev::claim_pinned_sm(pin_sm, claim)) return;
#pragma unroll 1
  for (std::uint32_t i = 0; i < warm_steps; ++i) {
    a = dev::LoadCa::load(reinterpret_cast<const std::uint64_t*>(a));
    b = dev::LoadNc::load(reinterpret_cast<const std::uint64_t*>(b));
  }
  dev::st_global_u64(&out->end_a, a ^ b);
  const std::uint64_t c0 = dev::clock64_ordered();
#pragma unroll 1
  for (std::uint32_t t = 0; t < timed_blocks; ++t) {
#pragma unroll
    for (unsigned u = 0; u < kChainUnroll; ++u) {
      a = dev::LoadCa::load(reinterpret_cast<const std::uint64_t*>(a));
      b = dev::LoadNc::load(reinterpret_cast<const std::uint64_t*>(b));
    }
  }
  dev::st_global_u64(&out->end_a, a);
  dev::st_global_u64(&out->end_b, b);
  out->cycles = dev::clock64_ordered() - c0;
}

__constant__ std::uint32_t c_chase[kConstChaseWords];
__device__ std::uint32_t g_pair_claim;

// j = the word at byte offset j of c_chase: a data-dependent constant load (LDC c[bank][Rj]), one
// per step and nothing else (the chase holds byte offsets, so no shift sits between two loads).
__device__ __forceinline__ std::uint32_t const_at(std::uint32_t byte_offset) {
  return *reinterpret_cast<const std::uint32_t*>(reinterpret_cast<const char*>(c_chase) + byte_offset);
}
// The first block to reach each SM chases; the others leave.
__global__ void __launch_bounds__(1)
    const_chase_kernel(std::uint32_t j, std::uint32_t warm_steps, std::uint32_t timed_blocks,
                       unsigned* __restrict__ claimed, ConstChase* __restrict__ out_per_sm) {
  const std::uint32_t sm = dev::smid();
  if (atomicCAS(&claimed[sm], 0u, 1u) != 0u) return;
  ConstChase* out = &out_per_sm[sm];
#pragma unroll 1
  for (std::uint32_t i = 0; i < warm_steps; ++i) j = const_at(j);
  dev::st_global_u32(&out->final_index, j);
  const std::uint64_t c0 = dev::clock64_ordered();
  const std::uint64_t g0 = dev::globaltimer_ns();
#pragma unroll 1
  for (std::uint32_t t = 0; t < timed_blocks; ++t) {
#pragma unroll
    for (unsigned u = 0; u < kChainUnroll; ++u) j = const_at(j);
  }
  dev::st_global_u32(&out->final_index, j);
  out->cycles = dev::clock64_ordered() - c0;
  out->ns = dev::globaltimer_ns() - g0;
  out->smid = sm;
  out->ran = 1;
}

// Grid-stride 16-byte ld.global.cg reads, folded into one word that is stored only if it equals
// a value the data never holds (so the loads stay and nothing else is written).
__global__ void stream_read_kernel(const uint4* __restrict__ data, std::size_t n, std::uint32_t* __restrict__ sink) {
  std::uint32_t fold = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcg(data + i);
    fold ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (fold == 0xA5C3E1F7u) *sink = fold;
}

}  // namespace

void run_stream_read(const void* data, std::size_t bytes) {
  if (bytes == 0 || bytes % 16) throw std::invalid_argument("run_stream_read: a positive multiple of 16 bytes");
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  DeviceBuffer<std::uint32_t> sink(1);
  stream_read_kernel<<<4 * sms, 512>>>(static_cast<const uint4*>(data), bytes / 16, sink.get());
  cuda_check_launch("stream_read");
}

PairChase run_ca_nc_pair(std::uint64_t start_a, std::uint64_t start_b, std::uint32_t warm_steps,
                         std::uint32_t timed_steps, std::uint32_t pin_sm) {
  if (timed_steps == 0 || timed_steps % kChainUnroll) throw std::invalid_argument("run_ca_nc_pair: timed steps");
  DeviceBuffer<PairChase> out(1);
  std::uint32_t* claim = nullptr;
  ARCHBENCH_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&claim), g_pair_claim));
  launch_pinned("ca_nc_pair", claim, [&](int blocks, std::uint32_t sm) {
    ca_nc_pair_kernel<<<blocks, 1>>>(start_a, start_b, warm_steps, timed_steps / kChainUnroll, out.get(), sm, claim);
  }, pin_sm);
  return out.download()[0];
}

void upload_const_chase(const std::vector<std::uint32_t>& next) {
  if (next.empty() || next.size() > kConstChaseWords)
    throw std::invalid_argument("upload_const_chase: 1.." + std::to_string(kConstChaseWords) + " words");
  ARCHBENCH_CUDA(cudaMemcpyToSymbol(c_chase, next.data(), next.size() * sizeof(std::uint32_t)));
}

std::vector<ConstChase> run_const_chase_every_sm(std::uint32_t start, std::uint32_t warm_steps,
                                                 std::uint32_t timed_steps) {
  if (timed_steps == 0 || timed_steps % kChainUnroll) throw std::invalid_argument("run_const_chase: timed steps");
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t slots = std::size_t(sms) + 64;  // %smid may exceed the count on some parts
  DeviceBuffer<unsigned> claimed(slots);
  DeviceBuffer<ConstChase> out(slots);
  ARCHBENCH_CUDA(cudaMemset(claimed.get(), 0, claimed.bytes()));
  ARCHBENCH_CUDA(cudaMemset(out.get(), 0, out.bytes()));
  // Four blocks per SM: every SM receives at least one.
  const_chase_kernel<<<4 * sms, 1>>>(start, warm_steps, timed_steps / kChainUnroll, claimed.get(), out.get());
  cuda_check_launch("const_chase");
  std::vector<ConstChase> ran;
  for (const ConstChase& c : out.download())
    if (c.ran) ran.push_back(c);
  return ran;
}

void write_offset_chase(std::uint8_t* base, const std::uint64_t* d_offsets, std::uint32_t n) {
  if (n == 0) throw std::invalid_argument("write_offset_chase: no elements");
  write_offset_chase_kernel<<<std::min<std::uint32_t>((n + 255) / 256, 1024), 256>>>(base, d_offsets, n);
  cuda_check_launch("write_offset_chase");
}

std::vector<SmChase> run_sm_chase(CacheOp op, std::uint64_t start, std::uint32_t warm_steps, std::uint32_t timed_steps,
                                  int target_sm, int sm_count) {
  if (timed_steps == 0 || timed_steps % kChainUnroll) throw std::invalid_argument("run_sm_chase: timed steps");
  if (target_sm >= sm_count) throw std::invalid_argument("run_sm_chase: no SM " + std::to_string(target_sm));
  DeviceBuffer<unsigned> claimed(std::size_t(sm_count) + 64);  // %smid may exceed the count on some parts
  DeviceBuffer<SmChase> out(std::size_t(sm_count) + 64);
  ARCHBENCH_CUDA(cudaMemset(claimed.get(), 0, claimed.bytes()));
  ARCHBENCH_CUDA(cudaMemset(out.get(), 0, out.bytes()));
  // Four blocks per SM: every SM receives at least one.
  const dim3 grid(4 * sm_count), block(32);
  const std::uint32_t timed_blocks = timed_steps / kChainUnroll;
  switch (op) {
    case CacheOp::ca:
      sm_chase_kernel<dev::LoadCa>
          <<<grid, block>>>(start, warm_steps, timed_blocks, target_sm, claimed.get(), out.get());
      break;
    case CacheOp::cg:
      sm_chase_kernel<dev::LoadCg>
          <<<grid, block>>>(start, warm_steps, timed_blocks, target_sm, claimed.get(), out.get());
      break;
    case CacheOp::nc:
      sm_chase_kernel<dev::LoadNc>
          <<<grid, block>>>(start, warm_steps, timed_blocks, target_sm, claimed.get(), out.get());
      break;
  }
  cuda_check_launch("sm_chase");
  return out.download();
}

namespace {

// Each block records its SM after a pause long enough that the whole grid is resident at once.
__global__ void cluster_sm_kernel(std::uint32_t* sm_of_block) {
  const std::uint64_t t0 = dev::clock64_ordered();
  while (dev::clock64_ordered() - t0 < 20000) {
  }
  if (threadIdx.x == 0) sm_of_block[blockIdx.x] = dev::smid();
}

}  // namespace

std::vector<std::vector<std::uint32_t>> run_cluster_sms(int cluster_size, std::uint32_t smem_bytes, int fewer) {
  int device = 0, supported = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device));
  if (!supported || cluster_size < 1) return {};
  ARCHBENCH_CUDA(cudaFuncSetAttribute(cluster_sm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem_bytes)));
  if (cluster_size > 8)
    ARCHBENCH_CUDA(cudaFuncSetAttribute(cluster_sm_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = unsigned(cluster_size);
  attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(cluster_size));
  config.blockDim = dim3(32);
  config.dynamicSmemBytes = smem_bytes;
  config.attrs = &attribute;
  config.numAttrs = 1;
  int fit = 0;
  if (cudaOccupancyMaxActiveClusters(&fit, cluster_sm_kernel, &config) != cudaSuccess || fit == 0) {
    (void)cudaGetLastError();  // a size the GPU cannot place: no lists, not an error
    return {};
  }
  const int clusters = std::max(1, fit - fewer);
  config.gridDim = dim3(unsigned(clusters * cluster_size));
  DeviceBuffer<std::uint32_t> sm_of_block{std::size_t(clusters) * std::size_t(cluster_size)};
  ARCHBENCH_CUDA(cudaLaunchKernelEx(&config, cluster_sm_kernel, sm_of_block.get()));
  cuda_check_launch("cluster_sm_kernel");
  const std::vector<std::uint32_t> sm = sm_of_block.download();
  std::vector<std::vector<std::uint32_t>> out(sm.size() / std::size_t(cluster_size));
  for (std::size_t b = 0; b < sm.size(); ++b) out[b / std::size_t(cluster_size)].push_back(sm[b]);
  return out;
}

}  // namespace archbench
