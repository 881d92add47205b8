// Device code for an older architecture still has to compile when the binary targets several:
// an instruction that needs a newer one traps there instead, and the host never launches it
// (it checks the compute capability first and reports the benchmark as unsupported).
#pragma once

#if defined(__CUDA_ARCH__)
#define ARCHBENCH_IF_ARCH_BELOW(arch, below, otherwise) \
  do {                                                  \
    if constexpr (__CUDA_ARCH__ < arch * 10) {          \
      below;                                            \
    } else {                                            \
      otherwise;                                        \
    }                                                   \
  } while (0)
#else
#define ARCHBENCH_IF_ARCH_BELOW(arch, below, otherwise) \
  do {                                                  \
  } while (0)
#endif
