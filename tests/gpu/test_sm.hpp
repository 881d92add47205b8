// The SM that the GPU tests' single-SM measurements run on: the test process's reference SM,
// chosen once the way a run chooses it (fixtures/harness/placement.hpp) and passed explicitly.
#pragma once
#include <cstdint>

#include "fixtures/harness/placement.hpp"

namespace archbench {

inline std::uint32_t test_sm() {
  static const std::uint32_t sm = choose_reference_sm().sm;
  return sm;
}

}  // namespace archbench
