#include "kernels/l2persist.hpp"

#include <stdexcept>
#include <vector>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/clock.cuh"

namespace archbench {
namespace {

constexpr std::size_t kLine = 128;

__global__ void __launch_bounds__(1024)
    persist_read_kernel(const uint4* __restrict__ p, std::size_t n, unsigned long long* __restrict__ sum) {
  unsigned long long acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const uint4 v = p[i];
    acc += std::uint64_t(v.x) + v.y + v.z + v.w;
  }
  atomicAdd(sum, acc);
}

// Thread 0 of block b loads lines b, b + G, b + 2G, ...; each address carries the previous value
// AND zero_mask, so the loads are serialised without the compiler knowing. Each load is timed on
// its own: clock, load, a store of the value (the clock waits for it), clock.
__global__ void persist_probe_kernel(const std::uint8_t* __restrict__ base, std::size_t lines, std::uint32_t zero_mask,
                                     std::uint32_t* __restrict__ cycles_per_line, std::uint32_t* __restrict__ sink) {
  if (threadIdx.x != 0) return;
  std::uint32_t v = 0;
  for (std::size_t i = blockIdx.x; i < lines; i += gridDim.x) {
    const auto* p = reinterpret_cast<const std::uint32_t*>(base + i * kLine + (v & zero_mask));
    const std::uint64_t c0 = dev::clock64_ordered();
    asm volatile("ld.global.cg.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    dev::st_global_u32(sink + blockIdx.x, v);
    const std::uint64_t c1 = dev::clock64_ordered();
    cycles_per_line[i] = static_cast<std::uint32_t>(c1 - c0);
  }
}

int sm_count() {
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace

std::uint64_t persist_read(const void* buffer, std::size_t bytes, cudaStream_t stream, double* kernel_seconds) {
  if (bytes == 0 || bytes % 16) throw std::invalid_argument("persist_read: a positive multiple of 16 B");
  DeviceBuffer<unsigned long long> sum(1);
  cudaEvent_t start = nullptr, stop = nullptr;
  ARCHBENCH_CUDA(cudaEventCreate(&start));
  ARCHBENCH_CUDA(cudaEventCreate(&stop));
  ARCHBENCH_CUDA(cudaMemsetAsync(sum.get(), 0, sizeof(unsigned long long), stream));
  ARCHBENCH_CUDA(cudaEventRecord(start, stream));
  persist_read_kernel<<<sm_count(), 1024, 0, stream>>>(static_cast<const uint4*>(buffer), bytes / 16, sum.get());
  ARCHBENCH_CUDA(cudaGetLastError());
  ARCHBENCH_CUDA(cudaEventRecord(stop, stream));
  ARCHBENCH_CUDA(cudaStreamSynchronize(stream));
  float ms = 0;
  ARCHBENCH_CUDA(cudaEventElapsedTime(&ms, start, stop));
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (kernel_seconds) *kernel_seconds = double(ms) * 1e-3;
  unsigned long long s = 0;
  ARCHBENCH_CUDA(cudaMemcpy(&s, sum.get(), sizeof s, cudaMemcpyDeviceToHost));
  return s;
}

std::vector<std::uint32_t> persist_probe_cycles(const void* buffer, std::size_t bytes, cudaStream_t stream) {
  const std::size_t lines = bytes / kLine;
  if (lines == 0) throw std::invalid_argument("persist_probe: at least one 128-byte line");
  const int sms = sm_count();
  DeviceBuffer<std::uint32_t> cycles(lines), sink(static_cast<std::size_t>(sms));
  ARCHBENCH_CUDA(cudaMemsetAsync(cycles.get(), 0, cycles.bytes(), stream));
  persist_probe_kernel<<<sms, 32, 0, stream>>>(static_cast<const std::uint8_t*>(buffer), lines, 0u, cycles.get(),
                                               sink.get());
  ARCHBENCH_CUDA(cudaGetLastError());
  ARCHBENCH_CUDA(cudaStreamSynchronize(stream));
  std::vector<std::uint32_t> out = cycles.download();
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i] == 0) throw std::runtime_error("persist_probe: line " + std::to_string(i) + " was not loaded");
  return out;
}

}  // namespace archbench
