// Where a single-SM measurement runs (plain C++: benchmarks, fixtures and kernels include it).
//
// A chase, an atomic chain or a one-block kernel measures a latency that depends on where its SM
// sits: against the L2 partitions, inside its GPC. SM 0 is not one place: which TPCs a die has
// disabled differs by board, so SM 0 read 272 cycles to the near L2 on one H100 and 279 on
// another, whose SMs' median was 277.0 and 277.1. Such measurements therefore run on the
// reference SM: the one whose L2 latency is the median of all SMs', chosen at start-up by
// fixtures/harness/placement.hpp. Until that runs (a unit test, a tool), it is SM 0.
#pragma once
#include <cstdint>

namespace archbench {

// As a pin_sm argument: "the reference SM", resolved when the kernel is launched.
inline constexpr std::uint32_t kReferenceSm = 0xffffffffu;

namespace detail {
inline std::uint32_t g_reference_sm = 0;
}
inline std::uint32_t reference_sm() { return detail::g_reference_sm; }
inline void set_reference_sm(std::uint32_t sm) { detail::g_reference_sm = sm; }
// pin_sm as given, with kReferenceSm replaced by the reference SM.
inline std::uint32_t resolve_sm(std::uint32_t pin_sm) { return pin_sm == kReferenceSm ? reference_sm() : pin_sm; }

}  // namespace archbench
