// Device helpers of the P2P feature (the measured kernels are the Bandwidth, pointer-chase and
// Atomics kernels, run on another GPU's memory).
#pragma once
#include <cuda_runtime.h>

namespace archbench {

// One warp on the current GPU that sleeps in a loop until *stop (host memory mapped into the
// GPU) becomes non-zero, or after max_ns: it keeps the GPU out of its idle clocks without
// touching memory, so that a peer serves remote requests at its working clocks.
void launch_keep_awake(const volatile int* stop, unsigned long long max_ns, cudaStream_t stream);

}  // namespace archbench
