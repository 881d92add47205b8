// A noisy neighbour for the acceptance test (tests/gpu/run_accept_neighbour.sh): a second process
// that copies 1 GiB in DRAM back and forth on every SM for SECONDS, and creates READY_FILE once its
// first copy has run, so the test starts measuring only beside a neighbour that is there.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

__global__ void stream_copy(const float4* __restrict__ src, float4* __restrict__ dst, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

bool ok(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "noisy_neighbour: %s: %s\n", what, cudaGetErrorString(e));
  return e == cudaSuccess;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::atof(argv[1]) <= 0) {
    std::fprintf(stderr, "usage: noisy_neighbour SECONDS READY_FILE\n");
    return 2;
  }
  const double seconds = std::atof(argv[1]);
  const size_t bytes = size_t(1) << 30, n = bytes / sizeof(float4);
  int sms = 0;
  float4 *a = nullptr, *b = nullptr;
  if (!ok(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0), "attribute") ||
      !ok(cudaMalloc(&a, bytes), "cudaMalloc") || !ok(cudaMalloc(&b, bytes), "cudaMalloc") ||
      !ok(cudaMemset(a, 1, bytes), "cudaMemset"))
    return 1;
  const auto start = std::chrono::steady_clock::now();
  bool told = false;
  while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
    stream_copy<<<sms * 4, 512>>>(a, b, n);
    stream_copy<<<sms * 4, 512>>>(b, a, n);
    if (!ok(cudaDeviceSynchronize(), "copy")) return 1;
    if (!told) {
      if (FILE* f = std::fopen(argv[2], "w")) std::fclose(f);
      told = true;
    }
  }
  cudaFree(a);
  cudaFree(b);
  return 0;
}
