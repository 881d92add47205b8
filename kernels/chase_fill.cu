// Device fill of stride chains (kernels/chase_fill.hpp).
#include "kernels/chase_fill.hpp"

#include <stdexcept>

#include "kernels/shared/cuda_check.hpp"

namespace archbench {
namespace {

__global__ void fill_pointers_kernel(std::uint64_t* d, std::size_t stride_words, std::size_t count) {
  const auto base = reinterpret_cast<std::uint64_t>(d);
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const std::size_t next = (i + 1 == count ? 0 : i + 1) * stride_words;
    d[i * stride_words / 2] = base + next * sizeof(std::uint32_t);
  }
}

__global__ void fill_indices_kernel(std::uint32_t* d, std::size_t stride_words, std::size_t count) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < count;
       i += std::size_t(gridDim.x) * blockDim.x)
    d[i * stride_words] = static_cast<std::uint32_t>((i + 1 == count ? 0 : i + 1) * stride_words);
}

void check_shape(std::size_t words, std::size_t stride_words, std::size_t count) {
  if (stride_words == 0 || count == 0 || (count - 1) * stride_words >= words)
    throw std::invalid_argument("stride chain fill: the chain does not fit its footprint");
}

constexpr int kFillBlocks = 1024, kFillThreads = 256;

}  // namespace

void fill_stride_chain_pointers(std::uint64_t* d, std::size_t words, std::size_t stride_words, std::size_t count) {
  check_shape(words, stride_words, count);
  if (stride_words % 2 || words % 2)
    throw std::invalid_argument("stride chain fill: pointers need 8-byte strides and footprints");
  ARCHBENCH_CUDA(cudaMemset(d, 0, words * sizeof(std::uint32_t)));
  fill_pointers_kernel<<<kFillBlocks, kFillThreads>>>(d, stride_words, count);
  cuda_check_launch("fill_stride_chain_pointers");
  ARCHBENCH_CUDA(cudaDeviceSynchronize());
}

void fill_stride_chain_indices(std::uint32_t* d, std::size_t words, std::size_t stride_words, std::size_t count) {
  check_shape(words, stride_words, count);
  ARCHBENCH_CUDA(cudaMemset(d, 0, words * sizeof(std::uint32_t)));
  fill_indices_kernel<<<kFillBlocks, kFillThreads>>>(d, stride_words, count);
  cuda_check_launch("fill_stride_chain_indices");
  ARCHBENCH_CUDA(cudaDeviceSynchronize());
}

}  // namespace archbench
