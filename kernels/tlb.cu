// Writes the TLB chase cycle on the device: a footprint of up to 90 % of the GPU's memory is
// never copied from the host, and only the chased words are written.
#include "kernels/tlb.hpp"

#include <stdexcept>

#include "kernels/shared/cuda_check.hpp"

namespace archbench {
namespace {

__global__ void tlb_fill_kernel(std::uint8_t* base, std::uint64_t elements, std::uint64_t stride) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < elements;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t next = (i + 1) % elements;
    *reinterpret_cast<std::uint64_t*>(base + tlb_element_offset(i, stride)) =
        reinterpret_cast<std::uint64_t>(base + tlb_element_offset(next, stride));
  }
}

}  // namespace

void fill_tlb_chase(std::uint8_t* base, std::uint64_t elements, std::uint64_t stride) {
  if (elements < 1 || stride < 128 || stride % 128 != 0)
    throw std::invalid_argument("tlb chase: at least one element, and a stride that is a multiple of 128 B");
  tlb_fill_kernel<<<256, 256>>>(base, elements, stride);
  cuda_check_launch("tlb_fill_kernel");
}

}  // namespace archbench
