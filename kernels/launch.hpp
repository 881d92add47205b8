// Host interface of the launch-cost kernels (kernels/launch.cu): empty kernels launched in the
// ways an application launches them, each stamping %globaltimer on the GPU so that the gap
// between consecutive kernels is read from the GPU's own timeline.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace archbench {

// How the kernels reach the GPU.
enum class LaunchPath {
  stream,   // <<<>>> (cudaLaunchKernel) into a stream
  graph,    // captured once into a CUDA graph, the graph launched
  cluster,  // cudaLaunchKernelEx with a cluster of 2 blocks (sm_90+)
  pdl,      // cudaLaunchKernelEx with programmatic stream serialisation (sm_90+): the next kernel
            // may start before the previous one ends and waits in griddepcontrol.wait
};
const char* launch_path_name(LaunchPath p);  // "stream", "graph", "cluster", "pdl"

enum class StreamKind { legacy_default, per_thread_default, created };
const char* stream_kind_name(StreamKind k);  // "legacy", "per_thread", "created"

// Parameter bytes of the kernel launched: 0 (no parameter besides the stamp buffer) .. 4096.
inline constexpr int kLaunchParamBytes[] = {0, 64, 256, 1024, 4000};

// A batch of `count` kernels launched back to back behind a kernel that holds the stream until
// the host has queued them all: the host's cost per launch call, then the GPU's gaps between
// kernels that wait in a full queue. host_ns[i]: the host's time in the launch call of kernel i
// (for a graph, the graph launch divided evenly); start_ns/end_ns[i]: the kernel's first and
// last %globaltimer reads on the GPU; every kernel stamped and read its parameters (self-check).
inline constexpr int kMaxLaunchBatch = 512;  // within the launch queue, which the held stream fills
struct LaunchBatch {
  std::vector<double> host_ns;
  std::vector<std::uint64_t> start_ns, end_ns;
  double wall_ns = 0;  // the whole batch, first launch to the end of the synchronise
};

// Back to back: `count` launches, then one synchronise. Throws std::runtime_error when a kernel
// did not run (a stamp missing) and std::invalid_argument for a path the GPU lacks.
LaunchBatch launch_batch(LaunchPath path, StreamKind stream, int param_bytes, int count);

// End to end: each launch followed by its stream's synchronise; the host time of each pair.
std::vector<double> launch_and_sync_ns(LaunchPath path, StreamKind stream, int param_bytes, int count);

// Why the GPU cannot take this path, or "" when it can.
std::string launch_path_unsupported(LaunchPath path);

}  // namespace archbench
