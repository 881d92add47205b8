// The toy feature's launcher (plain C++: no device code in a kernel header).
#pragma once

namespace archbench {

void launch_toy(unsigned* out, unsigned value);

}  // namespace archbench
