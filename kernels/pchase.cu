// Host calls that launch the pointer-chase kernels of kernels/pchase.cuh.
#include "kernels/pchase.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/pchase.cuh"
#include "kernels/pinned_launch.cuh"
#include "kernels/shared/enum_names.hpp"

namespace archbench {
namespace {

using dev::ChainOut;
using dev::FineOut;

// Results land in device globals: no allocation per run.
__device__ ChainOut g_chain_out;
__device__ FineOut g_fine_out;
__device__ std::uint32_t g_fine_cycles[kFineSamples];
__device__ std::uint32_t g_warm_sink;
__device__ std::uint32_t g_pin_claim;  // set by the block that runs on the pinned SM

// Grid-stride read of one word per 32-byte sector through L2 (ld.cg), from every SM. The xor is
// consumed by a store the compiler cannot rule out.
__global__ void warm_l2_kernel(const std::uint32_t* __restrict__ a, std::size_t words) {
  constexpr std::size_t kWordsPerSector = 8;
  std::uint32_t acc = 0;
  const std::size_t sectors = (words + kWordsPerSector - 1) / kWordsPerSector;
  for (std::size_t s = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; s < sectors;
       s += std::size_t(gridDim.x) * blockDim.x)
    acc ^= dev::LoadCg::load(a + s * kWordsPerSector);
  if (acc == 0x9e3779b9u) g_warm_sink = acc;
}

template <class Kernel>
void set_carveout(Kernel kernel, int carveout_pct) {
  ARCHBENCH_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, std::clamp(carveout_pct, 0, 100)));
}

template <class T>
T* symbol_address(const T& symbol) {
  void* p = nullptr;
  ARCHBENCH_CUDA(cudaGetSymbolAddress(&p, symbol));
  return static_cast<T*>(p);
}

template <class Load>
ChainTiming chain(std::uint64_t start, std::uint32_t warm, std::uint32_t timed, int carveout_pct,
                  std::uint32_t pin_sm) {
  auto kernel = dev::pchase_chain<Load, kChainUnroll>;
  set_carveout(kernel, carveout_pct);
  ChainOut* out = symbol_address(g_chain_out);
  std::uint32_t* claim = symbol_address(g_pin_claim);
  launch_pinned(
      "pchase_chain", claim,
      [&](int blocks, std::uint32_t sm) { kernel<<<blocks, 1>>>(start, warm, timed / kChainUnroll, out, sm, claim); },
      pin_sm);
  ChainOut o{};
  ARCHBENCH_CUDA(cudaMemcpyFromSymbol(&o, g_chain_out, sizeof o));
  return {o.cycles, o.ns, o.final_pointer, o.smid};
}

template <class Load, bool kTimerOnly>
FineTiming fine(const std::uint32_t* d, std::uint32_t start, std::uint32_t warm, int carveout_pct,
                std::uint32_t pin_sm) {
  auto kernel = dev::pchase_fine<Load, kFineSamples, kTimerOnly>;
  set_carveout(kernel, carveout_pct);
  std::uint32_t* cycles = symbol_address(g_fine_cycles)[0];
  FineOut* out = symbol_address(g_fine_out);
  std::uint32_t* claim = symbol_address(g_pin_claim);
  launch_pinned(
      "pchase_fine", claim,
      [&](int blocks, std::uint32_t sm) { kernel<<<blocks, 1>>>(d, start, warm, cycles, out, sm, claim); }, pin_sm);
  FineOut o{};
  FineTiming t;
  t.cycles.resize(kFineSamples);
  ARCHBENCH_CUDA(cudaMemcpyFromSymbol(&o, g_fine_out, sizeof o));
  ARCHBENCH_CUDA(cudaMemcpyFromSymbol(t.cycles.data(), g_fine_cycles, kFineSamples * sizeof(std::uint32_t)));
  t.window_cycles = o.window_cycles;
  t.window_ns = o.window_ns;
  t.final_index = o.final_index;
  t.smid = o.smid;
  return t;
}

}  // namespace

constexpr EnumName<CacheOp> kCacheOpNames[] = {{CacheOp::ca, "ld.ca"}, {CacheOp::cg, "ld.cg"}, {CacheOp::nc, "ld.nc"}};
const char* cache_op_name(CacheOp op) { return name_of(kCacheOpNames, op); }

ChainTiming run_chain_chase(CacheOp op, std::uint64_t start, std::uint32_t warm, std::uint32_t timed, int carveout_pct,
                            std::uint32_t pin_sm) {
  switch (op) {
    case CacheOp::ca:
      return chain<dev::LoadCa>(start, warm, timed, carveout_pct, pin_sm);
    case CacheOp::cg:
      return chain<dev::LoadCg>(start, warm, timed, carveout_pct, pin_sm);
    case CacheOp::nc:
      return chain<dev::LoadNc>(start, warm, timed, carveout_pct, pin_sm);
  }
  return {};
}

FineTiming run_fine_chase(CacheOp op, const std::uint32_t* d, std::uint32_t start, std::uint32_t warm, int carveout_pct,
                          std::uint32_t pin_sm) {
  switch (op) {
    case CacheOp::ca:
      return fine<dev::LoadCa, false>(d, start, warm, carveout_pct, pin_sm);
    case CacheOp::cg:
      return fine<dev::LoadCg, false>(d, start, warm, carveout_pct, pin_sm);
    case CacheOp::nc:
      return fine<dev::LoadNc, false>(d, start, warm, carveout_pct, pin_sm);
  }
  return {};
}

FineTiming run_fine_timer_overhead(std::uint32_t pin_sm) { return fine<dev::LoadCa, true>(nullptr, 0, 0, 0, pin_sm); }

std::size_t fine_chase_shared_bytes() {
  cudaFuncAttributes attr{};
  ARCHBENCH_CUDA(cudaFuncGetAttributes(&attr, dev::pchase_fine<dev::LoadCa, kFineSamples, false>));
  return attr.sharedSizeBytes;
}

void warm_l2(const std::uint32_t* d, std::size_t words) {
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  warm_l2_kernel<<<sms * 4, 256>>>(d, words);
  cuda_check_launch("warm_l2_kernel");
}

namespace {

// Every listed line's first 8 bytes = its own address (line_latency's chase stays on the line).
__global__ void write_self_pointers(const std::uint64_t* __restrict__ addresses, std::uint32_t lines) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < lines) *reinterpret_cast<std::uint64_t*>(addresses[i]) = addresses[i];
}

std::vector<float> line_latency(const std::vector<std::uint64_t>& addresses, int pin_sm) {
  if (addresses.empty() || addresses.size() > 0xffffffffu)
    throw std::invalid_argument("line latency: between 1 and 2^32 - 1 lines");
  for (std::uint64_t a : addresses)
    if (a % 8) throw std::invalid_argument("line latency: a line address is not 8-byte aligned");
  int device = 0, sms = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (pin_sm >= sms)
    throw std::invalid_argument("line latency: SM " + std::to_string(pin_sm) + " does not exist (" +
                                std::to_string(sms) + " SMs)");
  const auto lines = std::uint32_t(addresses.size());
  DeviceBuffer<std::uint64_t> d_addresses(addresses);
  write_self_pointers<<<(lines + 255) / 256, 256>>>(d_addresses.get(), lines);
  cuda_check_launch("write_self_pointers");
  DeviceBuffer<float> out{std::size_t(sms) * lines};
  DeviceBuffer<std::uint32_t> claims{std::size_t(sms)};
  DeviceBuffer<std::uint64_t> sink{1};
  ARCHBENCH_CUDA(cudaMemset(out.get(), 0, out.size() * sizeof(float)));
  // 8 one-warp blocks per SM, more where the block scheduler left the SM asked for out.
  for (int blocks = 8 * sms;; blocks *= 4) {
    ARCHBENCH_CUDA(cudaMemset(claims.get(), 0, claims.size() * sizeof(std::uint32_t)));
    dev::line_latency<dev::LoadCg, kLineLatencySteps>
        <<<blocks, 32>>>(d_addresses.get(), lines, out.get(), claims.get(), pin_sm, std::uint32_t(sms), sink.get());
    cuda_check_launch("line_latency");
    if (pin_sm < 0) break;
    std::uint32_t claimed = 0;
    ARCHBENCH_CUDA(cudaMemcpy(&claimed, claims.get() + pin_sm, sizeof claimed, cudaMemcpyDeviceToHost));
    if (claimed) break;
    if (blocks >= 128 * sms)
      throw std::runtime_error("line latency: no block was scheduled on SM " + std::to_string(pin_sm));
  }
  std::vector<float> all = out.download();
  if (pin_sm < 0) return all;
  return std::vector<float>(all.begin() + std::ptrdiff_t(pin_sm) * lines,
                            all.begin() + std::ptrdiff_t(pin_sm + 1) * lines);
}

}  // namespace

std::vector<float> line_latency_one_sm(const std::vector<std::uint64_t>& addresses, std::uint32_t pin_sm) {
  return line_latency(addresses, int(pin_sm));
}

std::vector<float> line_latency_every_sm(const std::vector<std::uint64_t>& addresses) {
  return line_latency(addresses, -1);
}

std::vector<std::uint64_t> line_addresses(std::uint64_t base, std::uint32_t lines, std::uint32_t line_bytes) {
  std::vector<std::uint64_t> a(lines);
  for (std::uint32_t i = 0; i < lines; ++i) a[i] = base + std::uint64_t(i) * line_bytes;
  return a;
}

}  // namespace archbench
