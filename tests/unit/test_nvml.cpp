#include <gtest/gtest.h>

#include "fixtures/harness/nvml.hpp"

using namespace archbench;

TEST(Nvml, UnknownDeviceIsUnavailableWithAReason) {
  // On CI there is no libnvidia-ml; on a GPU machine this UUID does not exist. Either way the
  // wrapper must say why and answer every query with "nothing" instead of crashing.
  const Nvml n("GPU-00000000-0000-0000-0000-000000000000");
  EXPECT_FALSE(n.available());
  EXPECT_FALSE(n.why_unavailable().empty());
  EXPECT_EQ(n.driver_version(), "");
  EXPECT_EQ(n.vbios_version(), "");
  EXPECT_EQ(n.board_part_number(), "");
  EXPECT_FALSE(n.power_limit_w().has_value());
  EXPECT_FALSE(n.sample().has_value());
}

TEST(Nvml, ThrottleReasons) {
  EXPECT_FALSE(Nvml::is_throttled(0));
  EXPECT_FALSE(Nvml::is_throttled(0x1));  // GPU idle
  EXPECT_FALSE(Nvml::is_throttled(0x2));  // application clocks setting
  EXPECT_TRUE(Nvml::is_throttled(0x4));   // SW power cap
  EXPECT_TRUE(Nvml::is_throttled(0x40));  // HW thermal slowdown
  EXPECT_TRUE(Nvml::is_throttled(0x80));  // HW power brake
}
