#include "kernels/scheduling.hpp"

#include <chrono>
#include <stdexcept>
#include <thread>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/clock.cuh"

namespace archbench {
namespace {

constexpr int kChains = kFfmaChains;
constexpr int kStepsPerChunk = kFfmaStepsPerChunk;

// kChains independent FFMA chains per thread: enough for one warp to issue every cycle.
struct FfmaChains {
  float x[kChains];
  __device__ __forceinline__ FfmaChains() {
#pragma unroll
    for (int j = 0; j < kChains; ++j) x[j] = float(threadIdx.x + j) * 1e-3f;
  }
  // kStepsPerChunk steps of every chain; 16 steps (128 FFMA) per loop iteration keep the loop
  // under 3 % of the issue slots.
  __device__ __forceinline__ void chunk(float b, float c) {
#pragma unroll 16
    for (int s = 0; s < kStepsPerChunk; ++s) {
#pragma unroll
      for (int j = 0; j < kChains; ++j) x[j] = fmaf(x[j], b, c);
    }
  }
  // Consumed by every kernel (stored or compared), so no chain can be dropped.
  __device__ __forceinline__ float sum() const {
    float acc = 0;
#pragma unroll
    for (int j = 0; j < kChains; ++j) acc += x[j];
    return acc;
  }
};

// b and c are run-time operands (the chains cannot be folded); they converge, so the values stay
// finite. Block 0's first thread records (globaltimer, clock64) every sample_ns.
__global__ void __launch_bounds__(1024)
    sustained_ffma_kernel(float b, float c, std::uint64_t duration_ns, std::uint64_t sample_ns,
                          KernelClockSample* samples, std::uint32_t max_samples, std::uint32_t* sample_count,
                          unsigned long long* chunks_done, float* sink) {
  FfmaChains chains;
  const bool sampler = blockIdx.x == 0 && threadIdx.x == 0;
  const std::uint64_t start = dev::globaltimer_ns();
  std::uint64_t next_sample = start;
  std::uint32_t taken = 0;
  unsigned long long chunks = 0;
  for (;;) {
    chains.chunk(b, c);
    ++chunks;
    const std::uint64_t now = dev::globaltimer_ns();
    if (sampler && now >= next_sample && taken < max_samples) {
      samples[taken++] = {now, dev::clock64_ordered()};
      next_sample += sample_ns;
    }
    if (now - start >= duration_ns) break;
  }
  const float acc = chains.sum();
  if (acc == 1234.5f) *sink = acc;  // consumed: the compiler must compute every chain
  atomicAdd(chunks_done, chunks);
  if (sampler) *sample_count = taken;
}

// Every warp: lane 0 records when it starts and ends (the end after a store of the chains' sum,
// so it waits for the last FFMA), its SM, its warp slot and its block.
__global__ void __launch_bounds__(1024) timeline_ffma_kernel(float b, float c, std::uint32_t chunks,
                                                             WarpRecord* __restrict__ out, float* __restrict__ sink) {
  const bool lane0 = threadIdx.x % 32 == 0;
  const std::uint64_t start_ns = dev::globaltimer_ns(), start_cycles = dev::clock64_ordered();
  FfmaChains chains;
  for (std::uint32_t k = 0; k < chunks; ++k) chains.chunk(b, c);
  const float acc = chains.sum();
  WarpRecord* mine = &out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32];
  if (lane0) dev::st_global_u32(&mine->smid, __float_as_uint(acc));  // overwritten below: orders the end clock
  const std::uint64_t end_cycles = dev::clock64_ordered(), end_ns = dev::globaltimer_ns();
  if (acc == 1234.5f) *sink = acc;
  if (lane0) {
    std::uint32_t warpid;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(warpid));
    *mine = WarpRecord{start_ns, end_ns, start_cycles, end_cycles, dev::smid(), warpid, blockIdx.x, threadIdx.x / 32};
  }
}

// Warp pairs: in one block of `warps` warps only warps a and b run (a == b: one alone), each 8
// FFMA chains, enough to issue every cycle; lane 0 of each records its cycles and %warpid.
__global__ void __launch_bounds__(1024)
    pair_ffma_kernel(float b, float c, int warp_a, int warp_b, std::uint32_t chunks, std::uint64_t* __restrict__ cycles,
                     std::uint32_t* __restrict__ warpids, float* __restrict__ sink) {
  const int warp = int(threadIdx.x / 32);
  if (warp != warp_a && warp != warp_b) return;
  FfmaChains chains;
  const std::uint64_t t0 = dev::clock64_ordered();
  for (std::uint32_t k = 0; k < chunks; ++k) chains.chunk(b, c);
  const float acc = chains.sum();
  if (threadIdx.x % 32 == 0) dev::st_global_u32(&warpids[warp], __float_as_uint(acc));  // the clock waits for the sum
  const std::uint64_t t1 = dev::clock64_ordered();
  if (acc == 1234.5f) *sink = acc;
  if (threadIdx.x % 32 == 0) {
    std::uint32_t id;
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(id));
    cycles[warp] = t1 - t0;
    warpids[warp] = id;
  }
}

}  // namespace

WarpPairTiming run_ffma_pair(int warps, int warp_a, int warp_b, std::uint32_t chunks) {
  if (warps < 2 || warps > 32 || warp_a < 0 || warp_b < 0 || warp_a >= warps || warp_b >= warps || chunks < 1)
    throw std::invalid_argument("warp pair: 2..32 warps per block, both warps inside it, 1+ chunks");
  DeviceBuffer<std::uint64_t> cycles(warps);
  DeviceBuffer<std::uint32_t> warpids(warps);
  DeviceBuffer<float> sink(1);
  pair_ffma_kernel<<<1, 32 * warps>>>(0.9999f, 1e-3f, warp_a, warp_b, chunks, cycles.get(), warpids.get(), sink.get());
  cuda_check_launch("pair_ffma_kernel");
  const auto c = cycles.download();
  const auto w = warpids.download();
  return {double(c[warp_a]), double(c[warp_b]), w[warp_a], w[warp_b]};
}

std::vector<WarpRecord> run_ffma_timeline(int blocks, int threads, std::uint32_t chunks) {
  if (blocks < 1 || threads < 32 || threads > 1024 || threads % 32 != 0 || chunks < 1)
    throw std::invalid_argument("timeline: 1+ blocks of 32..1024 threads, 1+ chunks");
  DeviceBuffer<WarpRecord> out(std::size_t(blocks) * (threads / 32));
  DeviceBuffer<float> sink(1);
  timeline_ffma_kernel<<<blocks, threads>>>(0.9999f, 1e-3f, chunks, out.get(), sink.get());
  cuda_check_launch("timeline_ffma_kernel");
  return out.download();
}

int ffma_timeline_resident_blocks(int threads) {
  int n = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, timeline_ffma_kernel, threads, 0));
  return n;
}

SustainedKernelRun run_sustained_ffma(double seconds, double sample_ms, int blocks, int threads,
                                      const std::function<void(double)>& beside) {
  if (!(seconds > 0) || !(sample_ms > 0) || blocks < 1 || threads < 32 || threads > 1024 || threads % 32 != 0)
    throw std::invalid_argument("sustained: seconds and sample interval > 0, 1+ blocks of 32..1024 threads");
  const auto max_samples = static_cast<std::uint32_t>(seconds * 1000.0 / sample_ms) + 16;
  DeviceBuffer<KernelClockSample> samples(max_samples);
  DeviceBuffer<std::uint32_t> count(1);
  DeviceBuffer<unsigned long long> chunks(1);
  DeviceBuffer<float> sink(1);
  ARCHBENCH_CUDA(cudaMemset(chunks.get(), 0, sizeof(unsigned long long)));
  ARCHBENCH_CUDA(cudaMemset(count.get(), 0, sizeof(std::uint32_t)));
  SustainedKernelRun run;
  const auto t0 = std::chrono::steady_clock::now();
  sustained_ffma_kernel<<<blocks, threads>>>(0.9999f, 1e-3f, static_cast<std::uint64_t>(seconds * 1e9),
                                             static_cast<std::uint64_t>(sample_ms * 1e6), samples.get(), max_samples,
                                             count.get(), chunks.get(), sink.get());
  ARCHBENCH_CUDA(cudaGetLastError());
  // The host's samples beside the kernel, at the same interval, until it finishes.
  while (cudaStreamQuery(nullptr) == cudaErrorNotReady) {
    if (beside) beside(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(sample_ms));
  }
  cuda_check_launch("sustained_ffma_kernel");
  std::uint32_t n = 0;
  ARCHBENCH_CUDA(cudaMemcpy(&n, count.get(), sizeof n, cudaMemcpyDeviceToHost));
  run.samples = samples.download();
  run.samples.resize(n);
  unsigned long long done = 0;
  ARCHBENCH_CUDA(cudaMemcpy(&done, chunks.get(), sizeof done, cudaMemcpyDeviceToHost));
  run.flop = double(done) * kStepsPerChunk * kChains * 2.0;
  if (n >= 2) run.kernel_seconds = double(run.samples.back().ns - run.samples.front().ns) * 1e-9;
  return run;
}

}  // namespace archbench
