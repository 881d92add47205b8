// Host interface of the L2Persist kernels (kernels/l2persist.cu).
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace archbench {

// Every SM reads `bytes` (a multiple of 16) with 16-byte ld.global loads, in `stream` (so the
// stream's access-policy window applies); returns the sum of the words (the self-check) after
// synchronising; *kernel_seconds (when given) the kernel's time between two events.
std::uint64_t persist_read(const void* buffer, std::size_t bytes, cudaStream_t stream, double* kernel_seconds = nullptr);

// One thread per SM chases the 128-byte lines of `bytes` at `buffer` with ld.global.cg, line
// i by thread i mod threads, each load dependent on the one before (through `zero_mask`, which is
// 0 at run time). Returns the mean cycles per load over every line. The lines must hold words
// whose AND with zero_mask is 0 (any content, with zero_mask = 0).
double persist_probe_cycles(const void* buffer, std::size_t bytes, cudaStream_t stream);

}  // namespace archbench
