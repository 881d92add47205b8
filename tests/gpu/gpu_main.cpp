// Main of the GPU tests: exit 77 (ctest: skipped) when no GPU is visible, so that CI without a
// GPU reports these tests as skipped, never as passed.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "fixtures/harness/gpu.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int count = archbench::Gpu::device_count();
  if (count == 0) {
    std::printf("no GPU visible: skipped\n");
    return ARCHBENCH_SKIP_CODE;
  }
  // Multi-GPU tests (P2P) need more than one GPU: with fewer they are skipped, not passed.
  if (const char* need = std::getenv("ARCHBENCH_MIN_GPUS"); need && count < std::atoi(need)) {
    std::printf("%d GPU(s) visible, %s needed: skipped\n", count, need);
    return ARCHBENCH_SKIP_CODE;
  }
  const char* env = std::getenv("ARCHBENCH_DEVICE");
  archbench::Gpu::select(env ? std::atoi(env) : 0);
  std::printf("%s", archbench::Gpu::current().describe().c_str());
  return RUN_ALL_TESTS();
}
