#include "kernels/bandwidth_reference.hpp"

#include <cub/device/device_reduce.cuh>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/shared/self_check.hpp"
#include "kernels/shared/enum_names.hpp"

namespace archbench {

constexpr EnumName<BwReference> kBwReferenceNames[] = {{BwReference::memcpy_async, "cudaMemcpyAsync"},
                                                       {BwReference::memset_async, "cudaMemsetAsync"},
                                                       {BwReference::store_kernel, "store_kernel"},
                                                       {BwReference::cub_reduce_sum, "cub_reduce_sum"}};
const char* bw_reference_name(BwReference r) { return name_of(kBwReferenceNames, r); }

constexpr EnumName<BwReference> kBwReferenceKinds[] = {{BwReference::memcpy_async, "copy"},
                                                       {BwReference::memset_async, "write"},
                                                       {BwReference::store_kernel, "write"},
                                                       {BwReference::cub_reduce_sum, "read"}};
const char* bw_reference_kind(BwReference r) { return name_of(kBwReferenceKinds, r); }

namespace {

constexpr int kStoreBlock = 256;
constexpr std::size_t kCheckBytes = 4096;

// The store loop a user writes (gpu-stream's init): one value, grid-stride, 8-byte stores.
__global__ void reference_store_kernel(double* a, std::size_t n, double value) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    a[i] = value;
}

// -1, +1, -1, ... with a[0] = +1: every partial sum is a small integer, exact in any order; the sum
// is 2 for an even count.
__global__ void fill_alternating(float* a, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    a[i] = (i == 0 || (i & 1)) ? 1.0f : -1.0f;
}

__global__ void fill_bytes(std::uint32_t* a, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    a[i] = std::uint32_t(i * 2654435761u);
}

// The arrays of one call: allocated per batch (milliseconds against a 20-ms batch, outside its
// events), so that nothing stays allocated after Bandwidth.
struct Arrays {
  DeviceBuffer<std::uint8_t> src, dst, temp;
  DeviceBuffer<float> sum;
  explicit Arrays(std::size_t bytes) : src(bytes), dst(bytes), sum(1) {
    std::size_t temp_bytes = 0;
    ARCHBENCH_CUDA(cub::DeviceReduce::Sum(nullptr, temp_bytes, reinterpret_cast<const float*>(src.get()), sum.get(),
                                          bytes / sizeof(float)));
    temp = DeviceBuffer<std::uint8_t>(std::max<std::size_t>(temp_bytes, 1));
  }
};

int grid_for(const void* kernel, int block) {
  int dev = 0, sms = 0, per_sm = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&dev));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
  return sms * std::max(per_sm, 1);
}

void check_edges(const std::uint8_t* device, const std::uint8_t* expected_device, std::size_t bytes, int byte_value,
                 const char* what) {
  const std::size_t n = std::min(kCheckBytes, bytes);
  for (std::size_t at : {std::size_t(0), bytes - n}) {
    std::vector<std::uint8_t> got(n), want(n, std::uint8_t(byte_value));
    ARCHBENCH_CUDA(cudaMemcpy(got.data(), device + at, n, cudaMemcpyDeviceToHost));
    if (expected_device) ARCHBENCH_CUDA(cudaMemcpy(want.data(), expected_device + at, n, cudaMemcpyDeviceToHost));
    if (got != want)
      throw SelfCheckError(std::string("bandwidth reference ") + what + ": the destination holds wrong bytes");
  }
}

}  // namespace

BwReferenceTiming run_bw_reference(BwReference r, std::size_t array_bytes, int reps) {
  if (array_bytes < 2 * kCheckBytes || array_bytes % 16 != 0 || reps < 1)
    throw std::invalid_argument("bandwidth reference: arrays of at least 8 KiB, a multiple of 16 B, and one operation");
  Arrays a(array_bytes);
  if (r == BwReference::cub_reduce_sum) {
    fill_alternating<<<1024, 256>>>(reinterpret_cast<float*>(a.src.get()), array_bytes / sizeof(float));
    cuda_check_launch("bandwidth reference fill");
  } else if (r == BwReference::memcpy_async) {
    fill_bytes<<<1024, 256>>>(reinterpret_cast<std::uint32_t*>(a.src.get()), array_bytes / 4);
    cuda_check_launch("bandwidth reference fill");
  }
  const double stored = 1.0 + double(reps);  // a runtime operand
  std::size_t temp_bytes = a.temp.bytes();
  // The store kernel's grid, queried before the timed batch (no host calls between its launches).
  const int store_grid =
      r == BwReference::store_kernel ? grid_for(reinterpret_cast<const void*>(reference_store_kernel), kStoreBlock) : 0;
  const auto once = [&] {
    switch (r) {
      case BwReference::memcpy_async:
        ARCHBENCH_CUDA(cudaMemcpyAsync(a.dst.get(), a.src.get(), array_bytes, cudaMemcpyDeviceToDevice, 0));
        break;
      case BwReference::memset_async:
        ARCHBENCH_CUDA(cudaMemsetAsync(a.dst.get(), 0xa5, array_bytes, 0));
        break;
      case BwReference::store_kernel:
        reference_store_kernel<<<store_grid, kStoreBlock>>>(reinterpret_cast<double*>(a.dst.get()),
                                                            array_bytes / sizeof(double), stored);
        cuda_check_launch("reference_store_kernel");
        break;
      case BwReference::cub_reduce_sum:
        ARCHBENCH_CUDA(cub::DeviceReduce::Sum(a.temp.get(), temp_bytes, reinterpret_cast<const float*>(a.src.get()),
                                              a.sum.get(), array_bytes / sizeof(float)));
        break;
    }
  };
  once();  // untimed: first touch, CUB's first launch
  cudaEvent_t start = nullptr, stop = nullptr;
  ARCHBENCH_CUDA(cudaEventCreate(&start));
  ARCHBENCH_CUDA(cudaEventCreate(&stop));
  ARCHBENCH_CUDA(cudaEventRecord(start, 0));
  for (int k = 0; k < reps; ++k) once();
  ARCHBENCH_CUDA(cudaEventRecord(stop, 0));
  ARCHBENCH_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  ARCHBENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);

  switch (r) {
    case BwReference::memcpy_async:
      check_edges(a.dst.get(), a.src.get(), array_bytes, 0, "cudaMemcpyAsync");
      break;
    case BwReference::memset_async:
      check_edges(a.dst.get(), nullptr, array_bytes, 0xa5, "cudaMemsetAsync");
      break;
    case BwReference::store_kernel: {
      std::vector<double> edge(kCheckBytes / sizeof(double));
      for (std::size_t at : {std::size_t(0), array_bytes - kCheckBytes}) {
        ARCHBENCH_CUDA(cudaMemcpy(edge.data(), a.dst.get() + at, kCheckBytes, cudaMemcpyDeviceToHost));
        for (double v : edge)
          if (v != stored) throw SelfCheckError("bandwidth reference store_kernel: the destination holds wrong values");
      }
      break;
    }
    case BwReference::cub_reduce_sum: {
      const std::vector<float> sum = a.sum.download();
      const std::size_t n = array_bytes / sizeof(float);
      const float want = n % 2 == 0 ? 2.0f : 1.0f;
      if (sum.at(0) != want)
        throw SelfCheckError("bandwidth reference cub_reduce_sum: the sum is " + std::to_string(sum.at(0)) + ", not " +
                             std::to_string(want));
      break;
    }
  }
  BwReferenceTiming t;
  t.reps = reps;
  t.seconds = double(ms) * 1e-3;
  t.bytes = double(array_bytes) * reps * (r == BwReference::memcpy_async ? 2 : 1);
  return t;
}

}  // namespace archbench
