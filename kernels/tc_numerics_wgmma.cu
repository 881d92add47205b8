// Tensor-core numerics of wgmma (sm_90a only; built into archbench_wgmma): one warpgroup, one
// wgmma.mma_async m64n8k* per launch, A (64 rows) and B (8 rows) in shared memory in the K-major
// layout of kernels/shared/tensor_ops.hpp, the accumulators starting at c (scale-d true). The host
// (kernels/tc_numerics.cu) lays every row of A and of B out as the test vectors, so every element
// of D is the same dot product.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/shared/tensor_ops.hpp"
#include "kernels/tc_numerics.hpp"
#include "kernels/wgmma_descriptor.cuh"

namespace archbench {
namespace dev::wgmma_numerics {

constexpr int kN = 8;  // m64n8: 4 accumulator registers per thread
constexpr int kBBytes = kN * kWgmmaKBytes;

// Operands: %0..%3 D (in: c; C the constraint of the accumulator's type), %4 A, %5 B descriptors;
// scale-d true: D = A B + D.
#define AB_WGMMA_NUMERICS(SHAPE_TYPES, TAIL, C)                                       \
  asm volatile(                                                                       \
      "{\n.reg .pred p;\nsetp.eq.u32 p, 1, 1;\nwgmma.fence.sync.aligned;\n"           \
      "wgmma.mma_async.sync.aligned." SHAPE_TYPES " {%0, %1, %2, %3}, %4, %5, p" TAIL \
      ";\n"                                                                           \
      "wgmma.commit_group.sync.aligned;\nwgmma.wait_group.sync.aligned 0;\n}\n"       \
      : "+" C(d[0]), "+" C(d[1]), "+" C(d[2]), "+" C(d[3])                            \
      : "l"(da), "l"(db)                                                              \
      : "memory")

// T: the op's index in tc_numerics_wgmma_ops().
template <int T>
__global__ void __launch_bounds__(128)
    tc_numerics_wgmma_kernel(const uint4* __restrict__ images, std::uint32_t c, std::uint32_t* __restrict__ out) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  __shared__ alignas(128) uint4 smem[(kWgmmaABytes + kBBytes) / 16];
  for (int i = threadIdx.x; i < (kWgmmaABytes + kBBytes) / 16; i += blockDim.x) smem[i] = images[i];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const std::uint64_t da = dev::wgmma_descriptor(smem), db = dev::wgmma_descriptor(smem + kWgmmaABytes / 16);
  if constexpr (T == 5) {
    std::uint32_t d[4] = {c, c, c, c};
    AB_WGMMA_NUMERICS("m64n8k32.s32.s8.s8", "", "r");
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = d[i];
  } else {
    float d[4];
    for (int i = 0; i < 4; ++i) d[i] = __uint_as_float(c);
    if constexpr (T == 0) AB_WGMMA_NUMERICS("m64n8k16.f32.f16.f16", ", 1, 1, 0, 0", "f");
    if constexpr (T == 1) AB_WGMMA_NUMERICS("m64n8k16.f32.bf16.bf16", ", 1, 1, 0, 0", "f");
    if constexpr (T == 2) AB_WGMMA_NUMERICS("m64n8k8.f32.tf32.tf32", ", 1, 1", "f");
    if constexpr (T == 3) AB_WGMMA_NUMERICS("m64n8k32.f32.e4m3.e4m3", ", 1, 1", "f");
    if constexpr (T == 4) AB_WGMMA_NUMERICS("m64n8k32.f32.e5m2.e5m2", ", 1, 1", "f");
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = __float_as_uint(d[i]);
  }
#else
  (void)images, (void)c, (void)out;
  __trap();
#endif
}

}  // namespace dev::wgmma_numerics

namespace {
using NumericsKernel = void (*)(const uint4*, std::uint32_t, std::uint32_t*);
const NumericsKernel kKernels[] = {
    dev::wgmma_numerics::tc_numerics_wgmma_kernel<0>, dev::wgmma_numerics::tc_numerics_wgmma_kernel<1>,
    dev::wgmma_numerics::tc_numerics_wgmma_kernel<2>, dev::wgmma_numerics::tc_numerics_wgmma_kernel<3>,
    dev::wgmma_numerics::tc_numerics_wgmma_kernel<4>, dev::wgmma_numerics::tc_numerics_wgmma_kernel<5>};
}  // namespace

std::vector<std::uint32_t> launch_wgmma_numerics(int op_index, const std::vector<std::uint8_t>& a_image,
                                                 const std::vector<std::uint8_t>& b_image, std::uint32_t c_bits) {
  if (op_index < 0 || op_index >= int(std::size(kKernels)))
    throw std::invalid_argument("wgmma numerics: no kernel " + std::to_string(op_index));
  if (a_image.size() != std::size_t(kWgmmaABytes) || b_image.size() != std::size_t(dev::wgmma_numerics::kBBytes))
    throw std::invalid_argument("wgmma numerics: A must be 64 x 32 bytes and B 8 x 32");
  std::vector<uint4> words((a_image.size() + b_image.size()) / 16);
  std::memcpy(words.data(), a_image.data(), a_image.size());
  std::memcpy(reinterpret_cast<std::uint8_t*>(words.data()) + a_image.size(), b_image.data(), b_image.size());
  DeviceBuffer<uint4> images(words);
  DeviceBuffer<std::uint32_t> out(128 * 4);
  kKernels[op_index]<<<1, 128>>>(images.get(), c_bits, out.get());
  cuda_check_launch("tc_numerics_wgmma_kernel");
  return out.download();
}

}  // namespace archbench
