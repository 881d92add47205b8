// Launch-cost kernels (kernels/launch.hpp): each kernel stamps %globaltimer at its start and end
// and returns the first byte of its parameter block, so the host knows it ran with its parameters.
#include "kernels/launch.hpp"

#include <chrono>
#include <stdexcept>
#include <utility>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/shared/streams.hpp"
#include "kernels/clock.cuh"
#include "kernels/shared/enum_names.hpp"

namespace archbench {
namespace {

constexpr unsigned char kParamPattern = 0x5a;

struct Stamp {
  std::uint64_t start, end;
  std::uint32_t param_byte, ran;
};

template <int kBytes>
struct Params {
  unsigned char bytes[kBytes];
};
template <>
struct Params<0> {};  // no payload: the kernel's parameters are the stamp pointer and its index

// kPdl: wait for the previous kernel's grid (griddepcontrol.wait) before the start stamp, and
// release the next one after the end stamp, so that the gap is end -> start across the overlap.
template <int kBytes, bool kPdl>
__global__ void stamp_kernel(Params<kBytes> params, Stamp* __restrict__ stamps, std::uint32_t index) {
#if __CUDA_ARCH__ >= 900
  if constexpr (kPdl) asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
  const std::uint64_t start = dev::globaltimer_ns();
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    Stamp* s = &stamps[index];
    if constexpr (kBytes > 0)
      s->param_byte = params.bytes[index % kBytes];
    else
      s->param_byte = kParamPattern;
    s->start = start;
    s->ran = 1;
    s->end = dev::globaltimer_ns();
  }
#if __CUDA_ARCH__ >= 900
  if constexpr (kPdl) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Holds the stream until the host has queued the whole batch (release set in mapped host memory),
// so that the stamped kernels then run from a full queue and their gaps are the GPU's, not the
// host's submission rate. Gives up after timeout_ns (and says so) rather than hang.
__global__ void hold_kernel(const volatile std::uint32_t* release, std::uint64_t timeout_ns, std::uint32_t* timed_out) {
  const std::uint64_t t0 = dev::globaltimer_ns();
  while (*release == 0u) {
    if (dev::globaltimer_ns() - t0 > timeout_ns) {
      *timed_out = 1u;
      return;
    }
    __nanosleep(200);
  }
}

// The release word and the timed-out word, in pinned host memory mapped for the device.
struct Hold {
  std::uint32_t* host = nullptr;  // [0] release, [1] timed out
  std::uint32_t* device = nullptr;
  Hold() {
    ARCHBENCH_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&host), 2 * sizeof(std::uint32_t), cudaHostAllocMapped));
    ARCHBENCH_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&device), host, 0));
  }
  void engage(cudaStream_t s) {
    reinterpret_cast<volatile std::uint32_t*>(host)[0] = 0;
    reinterpret_cast<volatile std::uint32_t*>(host)[1] = 0;
    hold_kernel<<<1, 1, 0, s>>>(device, 2'000'000'000ull, device + 1);
  }
  void release() { reinterpret_cast<volatile std::uint32_t*>(host)[0] = 1; }
  void check() const {
    if (reinterpret_cast<volatile std::uint32_t*>(host)[1])
      throw std::runtime_error("launch: the batch was not queued within 2 s (launch queue full?): gaps not measured");
  }
};
Hold& hold() {
  static Hold h;
  return h;
}

cudaStream_t stream_of(StreamKind k, cudaStream_t created) {
  switch (k) {
    case StreamKind::legacy_default:
      return cudaStreamLegacy;
    case StreamKind::per_thread_default:
      return cudaStreamPerThread;
    case StreamKind::created:
      return created;
  }
  return created;
}

cudaStream_t created_stream() { return nonblocking_stream(StreamSlot::launch); }

using Clock = std::chrono::steady_clock;
double ns_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::nano>(b - a).count();
}

// Launches kernel `index` of a batch the way `path` says, into `stream`.
template <int kBytes>
void launch_one(LaunchPath path, cudaStream_t stream, const Params<kBytes>& params, Stamp* stamps,
                std::uint32_t index) {
  if (path == LaunchPath::stream || path == LaunchPath::graph) {
    stamp_kernel<kBytes, false><<<1, 32, 0, stream>>>(params, stamps, index);
    return;
  }
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attribute{};
  config.blockDim = dim3(32);
  config.stream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  if (path == LaunchPath::cluster) {
    config.gridDim = dim3(2);
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = 2;
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    ARCHBENCH_CUDA(cudaLaunchKernelEx(&config, stamp_kernel<kBytes, false>, params, stamps, index));
  } else {
    config.gridDim = dim3(1);
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    ARCHBENCH_CUDA(cudaLaunchKernelEx(&config, stamp_kernel<kBytes, true>, params, stamps, index));
  }
}

void check_stamps(const std::vector<Stamp>& s, LaunchBatch* batch) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!s[i].ran) throw std::runtime_error("launch: kernel " + std::to_string(i) + " of the batch did not run");
    if (s[i].param_byte != kParamPattern)
      throw std::runtime_error("launch: kernel " + std::to_string(i) + " read a wrong parameter byte");
    if (batch) {
      batch->start_ns.push_back(s[i].start);
      batch->end_ns.push_back(s[i].end);
    }
  }
}

template <int kBytes>
Params<kBytes> filled_params() {
  Params<kBytes> params{};
  if constexpr (kBytes > 0)
    for (auto& b : params.bytes) b = kParamPattern;
  return params;
}

DeviceBuffer<Stamp> cleared_stamps(int count) {
  DeviceBuffer<Stamp> stamps(static_cast<std::size_t>(count));
  ARCHBENCH_CUDA(cudaMemset(stamps.get(), 0, stamps.bytes()));
  ARCHBENCH_CUDA(cudaDeviceSynchronize());
  return stamps;
}

template <int kBytes>
LaunchBatch batch_of(LaunchPath path, StreamKind kind, int count) {
  const Params<kBytes> params = filled_params<kBytes>();
  DeviceBuffer<Stamp> stamps = cleared_stamps(count);
  LaunchBatch b;
  if (path == LaunchPath::graph) {
    // Capture once (untimed), launch the graph: the host cost of one graph launch of `count` kernels.
    cudaStream_t s = created_stream();
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ARCHBENCH_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < count; ++i) launch_one(path, s, params, stamps.get(), std::uint32_t(i));
    ARCHBENCH_CUDA(cudaStreamEndCapture(s, &graph));
    ARCHBENCH_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    ARCHBENCH_CUDA(cudaGraphUpload(exec, s));
    ARCHBENCH_CUDA(cudaStreamSynchronize(s));
    hold().engage(s);
    const auto t0 = Clock::now();
    ARCHBENCH_CUDA(cudaGraphLaunch(exec, s));
    const auto t1 = Clock::now();
    hold().release();
    ARCHBENCH_CUDA(cudaStreamSynchronize(s));
    const auto t2 = Clock::now();
    hold().check();
    b.host_ns.assign(std::size_t(count), ns_between(t0, t1) / count);
    b.wall_ns = ns_between(t0, t2);
    cuda_check_launch("launch graph");
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  } else {
    cudaStream_t s = stream_of(kind, created_stream());
    b.host_ns.reserve(std::size_t(count));
    hold().engage(s);
    const auto first = Clock::now();
    auto t0 = first;
    for (int i = 0; i < count; ++i) {
      launch_one(path, s, params, stamps.get(), std::uint32_t(i));
      const auto t1 = Clock::now();
      b.host_ns.push_back(ns_between(t0, t1));
      t0 = t1;
    }
    hold().release();
    ARCHBENCH_CUDA(cudaStreamSynchronize(s));
    b.wall_ns = ns_between(first, Clock::now());
    cuda_check_launch("launch batch");
    hold().check();
  }
  check_stamps(stamps.download(), &b);
  return b;
}

template <int kBytes>
std::vector<double> end_to_end_of(LaunchPath path, StreamKind kind, int count) {
  const Params<kBytes> params = filled_params<kBytes>();
  DeviceBuffer<Stamp> stamps = cleared_stamps(count);
  std::vector<double> ns;
  ns.reserve(std::size_t(count));
  if (path == LaunchPath::graph) {
    // A graph of one kernel, captured and instantiated once, launched and synchronised `count`
    // times (each launch stamps slot 0 again).
    cudaStream_t s = created_stream();
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    ARCHBENCH_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    launch_one(path, s, params, stamps.get(), 0);
    ARCHBENCH_CUDA(cudaStreamEndCapture(s, &graph));
    ARCHBENCH_CUDA(cudaGraphInstantiate(&exec, graph, 0));
    ARCHBENCH_CUDA(cudaGraphUpload(exec, s));
    ARCHBENCH_CUDA(cudaStreamSynchronize(s));
    for (int i = 0; i < count; ++i) {
      const auto t0 = Clock::now();
      ARCHBENCH_CUDA(cudaGraphLaunch(exec, s));
      ARCHBENCH_CUDA(cudaStreamSynchronize(s));
      ns.push_back(ns_between(t0, Clock::now()));
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cuda_check_launch("graph launch and synchronise");
    auto one = stamps.download();
    one.resize(1);
    check_stamps(one, nullptr);
    return ns;
  } else {
    cudaStream_t s = stream_of(kind, created_stream());
    for (int i = 0; i < count; ++i) {
      const auto t0 = Clock::now();
      launch_one(path, s, params, stamps.get(), std::uint32_t(i));
      ARCHBENCH_CUDA(cudaStreamSynchronize(s));
      ns.push_back(ns_between(t0, Clock::now()));
    }
  }
  cuda_check_launch("launch and synchronise");
  check_stamps(stamps.download(), nullptr);
  return ns;
}

// Calls f.template operator()<kBytes>() for the kernel whose parameter block has param_bytes.
template <class F>
auto with_param_bytes(int param_bytes, F&& f) {
  switch (param_bytes) {
    case 0:
      return f(std::integral_constant<int, 0>{});
    case 64:
      return f(std::integral_constant<int, 64>{});
    case 256:
      return f(std::integral_constant<int, 256>{});
    case 1024:
      return f(std::integral_constant<int, 1024>{});
    case 4000:
      return f(std::integral_constant<int, 4000>{});
  }
  throw std::invalid_argument("launch: no kernel with " + std::to_string(param_bytes) + " parameter bytes");
}

void require(LaunchPath path, int count) {
  if (count < 2) throw std::invalid_argument("launch: at least 2 kernels per batch");
  if (count > kMaxLaunchBatch)
    throw std::invalid_argument("launch: at most " + std::to_string(kMaxLaunchBatch) +
                                " kernels per batch (the launch queue)");
  if (const std::string why = launch_path_unsupported(path); !why.empty()) throw std::invalid_argument(why);
}

}  // namespace

constexpr EnumName<LaunchPath> kLaunchPathNames[] = {{LaunchPath::stream, "stream"},
                                                     {LaunchPath::graph, "graph"},
                                                     {LaunchPath::cluster, "cluster"},
                                                     {LaunchPath::pdl, "pdl"}};
const char* launch_path_name(LaunchPath p) { return name_of(kLaunchPathNames, p); }

constexpr EnumName<StreamKind> kStreamKindNames[] = {{StreamKind::legacy_default, "legacy"},
                                                      {StreamKind::per_thread_default, "per_thread"},
                                                      {StreamKind::created, "created"}};
const char* stream_kind_name(StreamKind k) { return name_of(kStreamKindNames, k); }

std::string launch_path_unsupported(LaunchPath path) {
  if (path != LaunchPath::cluster && path != LaunchPath::pdl) return "";
  int device = 0, major = 0;
  ARCHBENCH_CUDA(cudaGetDevice(&device));
  ARCHBENCH_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major < 9)
    return std::string(launch_path_name(path)) + " launches need sm_90; this GPU is sm_" + std::to_string(major) + "x";
  return "";
}

LaunchBatch launch_batch(LaunchPath path, StreamKind stream, int param_bytes, int count) {
  require(path, count);
  return with_param_bytes(param_bytes,
                          [&](auto bytes) { return batch_of<decltype(bytes)::value>(path, stream, count); });
}

std::vector<double> launch_and_sync_ns(LaunchPath path, StreamKind stream, int param_bytes, int count) {
  require(path, count);
  return with_param_bytes(param_bytes,
                          [&](auto bytes) { return end_to_end_of<decltype(bytes)::value>(path, stream, count); });
}

}  // namespace archbench
