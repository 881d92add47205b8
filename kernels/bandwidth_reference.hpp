// What users run to move the same bytes as Bandwidth's DRAM headlines (kernels/bandwidth_reference.cu):
// the driver's copy and memset, a plain store kernel of the kind gpu-stream's init is, and CUB's
// DeviceReduce::Sum. The headlines are measured against them in the same process.
#pragma once
#include <cstddef>
#include <string>

namespace archbench {

enum class BwReference {
  memcpy_async,    // cudaMemcpyAsync device to device (copy: bytes read + written)
  memset_async,    // cudaMemsetAsync (write)
  store_kernel,    // a grid-stride loop of 8-byte stores, as many blocks of 256 as fit (write)
  cub_reduce_sum,  // cub::DeviceReduce::Sum over float (read)
};
inline constexpr BwReference kBwReferences[] = {BwReference::memcpy_async, BwReference::memset_async,
                                                BwReference::store_kernel, BwReference::cub_reduce_sum};
const char* bw_reference_name(BwReference r);  // "cudaMemcpyAsync", "cudaMemsetAsync", "store_kernel", "cub_reduce_sum"
const char* bw_reference_kind(BwReference r);  // "copy", "write", "read"

struct BwReferenceTiming {
  double bytes = 0;    // moved by the batch (a copy: read + written)
  double seconds = 0;  // the batch between two events on its stream
  int reps = 0;
};

// `reps` operations back to back over arrays of `array_bytes` (a copy reads one and writes another),
// after one untimed. Self-checked: the destination's first and last 4 KiB (copy, memset, store) or
// the sum (reduce); throws SelfCheckError on a wrong result, std::invalid_argument on bad sizes.
BwReferenceTiming run_bw_reference(BwReference r, std::size_t array_bytes, int reps);

}  // namespace archbench
