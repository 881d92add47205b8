// Fault: injected faults for the reliability tests, registered only when ARCHBENCH_FAULT is set
// (trap or hang). Fault/<kind> launches the faulty kernel; Fault/after_<kind> then launches an
// empty kernel in the same process, which a sticky error makes fail too.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>

#include "fixtures/harness/registry.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/timed_loop.hpp"
#include "kernels/fault.hpp"

namespace archbench {
namespace {

void register_fault(const SuiteConfig&) {
  const char* env = std::getenv("ARCHBENCH_FAULT");
  if (!env) return;
  const std::string kind = env;
  if (kind != "trap" && kind != "hang") return;
  const FaultKind fault = kind == "trap" ? FaultKind::trap : FaultKind::hang;
  const auto body = [](FaultKind k) {
    return [k](benchmark::State& state) {
      guarded(state, [&] {
        timed_loop(state, [&] {
          launch_fault(k);
          return 1e-6;
        });
        state.counters["launched"] = 1;  // reached only when the launch returned (Fault/after_* on a healthy context)
      });
    };
  };
  register_points("Fault", {{"Fault/" + kind, body(fault)}, {"Fault/after_" + kind, body(FaultKind::none)}}, 1,
                  {{"Fault/", {value("launched", 0)}}});
}

}  // namespace
}  // namespace archbench

ARCHBENCH_FEATURE(Fault, archbench::register_fault);
