// The shared-memory matrix descriptor wgmma reads its operands by (sm_90a device code): start
// address, leading (K) and stride (M/N) byte offsets, each >> 4; no swizzle, base offset 0. The
// layout it describes: wgmma_operand_offset (kernels/shared/tensor_ops.hpp).
#pragma once
#include <cstdint>

#include "kernels/shared/tensor_ops.hpp"

namespace archbench::dev {

__device__ __forceinline__ std::uint64_t wgmma_descriptor(const void* smem,
                                                          std::uint32_t stride_bytes = kWgmmaStrideByteOffset) {
  const auto addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem));
  return std::uint64_t((addr & 0x3FFFF) >> 4) | std::uint64_t(kWgmmaLeadingByteOffset >> 4) << 16 |
         std::uint64_t(stride_bytes >> 4) << 32;
}

}  // namespace archbench::dev
