// Host interface of the L2Persist kernels (kernels/l2persist.cu).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace archbench {

// Every SM reads `bytes` (a multiple of 16) with 16-byte ld.global loads, in `stream` (so the
// stream's access-policy window applies); returns the sum of the words (the self-check) after
// synchronising; *kernel_seconds (when given) the kernel's time between two events.
std::uint64_t persist_read(const void* buffer, std::size_t bytes, cudaStream_t stream,
                           double* kernel_seconds = nullptr);

// One thread per SM loads the 128-byte lines of `bytes` at `buffer` with ld.global.cg, line i
// by thread i mod threads, each load dependent on the one before (through a mask that is 0 at
// run time) and timed on its own. Returns the cycles of each line's load.
std::vector<std::uint32_t> persist_probe_cycles(const void* buffer, std::size_t bytes, cudaStream_t stream);

}  // namespace archbench
