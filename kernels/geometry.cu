#include "kernels/geometry.hpp"

#include <stdexcept>

#include "fixtures/cuda_check.hpp"
#include "fixtures/device_buffer.hpp"
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
__global__ void __launch_bounds__(32) sm_chase_kernel(std::uint64_t start, std::uint32_t warm_steps,
                                                      std::uint32_t timed_blocks, int target_sm,
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

}  // namespace

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
    case CacheOp::ca: sm_chase_kernel<dev::LoadCa><<<grid, block>>>(start, warm_steps, timed_blocks, target_sm, claimed.get(), out.get()); break;
    case CacheOp::cg: sm_chase_kernel<dev::LoadCg><<<grid, block>>>(start, warm_steps, timed_blocks, target_sm, claimed.get(), out.get()); break;
    case CacheOp::nc: sm_chase_kernel<dev::LoadNc><<<grid, block>>>(start, warm_steps, timed_blocks, target_sm, claimed.get(), out.get()); break;
  }
  cuda_check_launch("sm_chase");
  return out.download();
}

}  // namespace archbench
