// A GPU described by a result file's context instead of a device: for listing the benchmarks a run
// would register on that GPU (--gpu_profile=FILE --benchmark_list_tests), on a machine without one.
#pragma once
#include <string>

#include "fixtures/harness/gpu.hpp"

namespace archbench {

// The GpuInfo that Gpu::add_benchmark_context wrote into `path` (an archbench result, .json).
// Throws std::runtime_error with a one-line message naming the file and what is missing.
GpuInfo gpu_info_from_result(const std::string& path);

}  // namespace archbench
