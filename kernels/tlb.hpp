// Host side of the TLB chase set-up (kernels/tlb.cu). The timed chase is MemLatency's pointer
// chain (kernels/pchase.hpp) over the cycle written here.
#pragma once
#include <cstdint>

#include "kernels/host_device.hpp"

namespace archbench {

// Byte offset of element i of a TLB chase at `stride` (a multiple of 128): one element per
// stride, each shifted by a different 128-byte line within its stride, so that the data lines of
// consecutive elements fall into different cache sets and data-cache misses do not pile up where
// TLB misses do.
ARCHBENCH_HOST_DEVICE inline std::uint64_t tlb_element_offset(std::uint64_t i, std::uint64_t stride) {
  return i * stride + (i % (stride / 128)) * 128;
}

// Writes the cycle element 0 -> 1 -> ... -> elements-1 -> 0 as 64-bit absolute pointers into the
// device buffer at `base`, which must hold tlb_element_offset(elements - 1, stride) + 8 bytes.
void fill_tlb_chase(std::uint8_t* base, std::uint64_t elements, std::uint64_t stride);

}  // namespace archbench
