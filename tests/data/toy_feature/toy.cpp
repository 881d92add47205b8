// The toy feature's registration (copied into benchmarks/ of a copy of the tree by
// tests/scripts/test_toy_feature.py): one benchmark, registered as every feature's are.
#include <benchmark/benchmark.h>

#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "kernels/toy.hpp"

namespace archbench {
namespace {

void register_toy(const SuiteConfig&) {
  register_points("Toy", {{"Toy/store", [](benchmark::State& state) { skip(state, "a toy: nothing to measure"); }}}, 1,
                  {});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Toy, archbench::register_toy);
