// SASS checks: Energy's own kernels.
#include "sass_common.hpp"

// --- Energy's own kernels (kernels/energy.cu): stores at every width, and a rest that only sleeps
TEST(Sass, EnergyKernelsStoreWideToSharedMemoryAndRestAtTheBarrier) {
  EXPECT_EQ(
      expect_whole_passes_of_wide_shared_accesses("smem_write_kernel", "STS", archbench::kSmemWritesPerThreadPerPass),
      3);
  int rests = 0;
  for (const Function& f : sass()) {
    if (!is_sm90(f) || f.name.find("resident_rest_kernel") == std::string::npos) continue;
    bool sleeps = false, waits = false;
    for (const std::string& op : f.opcodes) {
      sleeps |= op == "NANOSLEEP";
      waits |= op.rfind("BAR", 0) == 0;
      EXPECT_TRUE(op.find("FMA") == std::string::npos && op.rfind("LDG", 0) != 0) << f.name << ": " << op;
    }
    EXPECT_TRUE(sleeps && waits) << f.name;
    ++rests;
  }
  EXPECT_EQ(rests, 1);
}
