#include "kernels/hostlink.hpp"

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"

namespace archbench {
namespace {

__device__ __forceinline__ std::uint32_t word_at(std::size_t i, std::uint32_t seed) {
  return static_cast<std::uint32_t>(i * 2654435761u) ^ seed;
}

__global__ void fill_pattern_kernel(std::uint32_t* __restrict__ w, std::size_t n, std::uint32_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    w[i] = word_at(i, seed);
}

__global__ void mismatch_kernel(const std::uint32_t* __restrict__ w, std::size_t n, std::uint32_t seed,
                                unsigned long long* __restrict__ bad) {
  unsigned long long mine = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    mine += w[i] != word_at(i, seed);
  if (mine) atomicAdd(bad, mine);
}

int grid_for(std::size_t n) {
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t blocks = (n + 255) / 256;
  return int(blocks < std::size_t(sms) * 8 ? (blocks ? blocks : 1) : std::size_t(sms) * 8);
}

}  // namespace

void fill_pattern(std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  fill_pattern_kernel<<<grid_for(count), 256>>>(words, count, seed);
  cuda_check_launch("fill_pattern");
}

std::uint64_t count_pattern_mismatches(const std::uint32_t* words, std::size_t count, std::uint32_t seed) {
  DeviceBuffer<unsigned long long> bad(1);
  ARCHBENCH_CUDA(cudaMemset(bad.get(), 0, sizeof(unsigned long long)));
  mismatch_kernel<<<grid_for(count), 256>>>(words, count, seed, bad.get());
  cuda_check_launch("count_pattern_mismatches");
  return bad.download()[0];
}

}  // namespace archbench
