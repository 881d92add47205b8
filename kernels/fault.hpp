// Fault injection (tests only): see kernels/fault.cu.
#pragma once

namespace archbench {

enum class FaultKind { none, trap, hang };
// Launches and waits; throws CudaError (a trap leaves the context unusable: a sticky error).
void launch_fault(FaultKind kind);

}  // namespace archbench
