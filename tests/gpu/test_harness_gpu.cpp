// The harness on a real GPU: device attributes, event timing and the L2 flush give physical
// numbers, and CUDA errors become exceptions with the call in the message.
#include <gtest/gtest.h>

#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/harness/timing.hpp"

namespace archbench {
namespace {

const GpuInfo& gpu() { return Gpu::current().info(); }

TEST(Harness, AttributesAreDiscovered) {
  EXPECT_GT(gpu().sm_count, 0);
  EXPECT_GT(gpu().l2_bytes, 0u);
  EXPECT_GT(gpu().max_sm_clock_mhz, 100.0);
  EXPECT_GT(gpu().dram_peak_bytes_per_s, 1e10);
  EXPECT_EQ(gpu().uuid.rfind("GPU-", 0), 0u);
}

TEST(Harness, EventTimerTimesTheL2FlushBelowDramPeak) {
  L2Flusher flusher(gpu().l2_bytes);
  flusher.flush();  // warm-up
  EventTimer timer;
  timer.start();
  flusher.flush();
  const double s = timer.seconds();
  const double bytes_per_s = 2.0 * double(gpu().l2_bytes) / s;
  std::printf("L2 flush: %.1f us, %.0f GB/s (DRAM peak %.0f GB/s)\n", s * 1e6, bytes_per_s / 1e9,
              gpu().dram_peak_bytes_per_s / 1e9);
  EXPECT_GT(s, 0.0);
  EXPECT_LT(bytes_per_s, 1.05 * gpu().dram_peak_bytes_per_s) << "a flush faster than DRAM did not reach DRAM";
}

TEST(Harness, CudaErrorsNameTheCall) {
  try {
    DeviceBuffer<std::uint8_t> too_big(std::size_t(1) << 50);  // 1 PiB
    FAIL() << "allocated 1 PiB";
  } catch (const CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("cudaMalloc(1 PiB)"), std::string::npos) << e.what();
  }
  // The failed allocation is not sticky: the next call works.
  EXPECT_NO_THROW(DeviceBuffer<std::uint8_t>(1024));
}

}  // namespace
}  // namespace archbench
