// The SASS checks' main: they skip (77) where the toolkit has no cuobjdump or the binary no sm_90 code.
#include "sass_common.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (std::string(ARCHBENCH_CUOBJDUMP).empty() ||
      std::string(ARCHBENCH_CUOBJDUMP).find("NOTFOUND") != std::string::npos) {
    std::printf("cuobjdump not found (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm): skipped\n");
    return ARCHBENCH_SKIP_CODE;
  }
  bool any_sm90 = false;
  for (const Function& f : sass()) any_sm90 = any_sm90 || is_sm90(f);
  if (!any_sm90) {
    std::printf("the binary holds no sm_90 code (CMAKE_CUDA_ARCHITECTURES without 90): skipped\n");
    return ARCHBENCH_SKIP_CODE;
  }
  return RUN_ALL_TESTS();
}
