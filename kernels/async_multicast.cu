// The AsyncCopy multicast load (cp.async.bulk ... .multicast::cluster), built for sm_90a alone:
// ptxas asks for the "a" target for multicast, which may be slow on later architectures. The host
// launches it only on sm_90 (fixtures/runners/async_copy_runner.cpp).
#include "kernels/async_copy.cuh"

namespace archbench {

const void* async_multicast_load_kernel() {
#if ARCHBENCH_HAVE_WGMMA
  return reinterpret_cast<const void*>(dev::acopy::tma_load_kernel<AsyncOp::bulk_multicast>);
#else
  return nullptr;
#endif
}

}  // namespace archbench
