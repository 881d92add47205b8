// Functions that host code and kernels share (one definition of the arithmetic both rely on).
#pragma once

#if defined(__CUDACC__)
#define ARCHBENCH_HOST_DEVICE __host__ __device__
#else
#define ARCHBENCH_HOST_DEVICE
#endif
