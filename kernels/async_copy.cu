// Host side of the AsyncCopy kernels (device code in kernels/async_copy.cuh): global -> shared
// copies by the plain path (ld + st.shared), cp.async (LDGSTS) and the TMA (cp.async.bulk,
// cp.async.bulk.tensor, multicast), and shared -> global by st.global, bulk stores, bulk
// reductions and tensor stores. A persistent grid: each block (per-thread paths, stores) or each
// warp of a block (TMA loads: a pipeline per warp; multicast: per cluster rank) copies every
// G-th chunk of the footprint, or claims groups of chunks (dynamic), through `stages` shared-memory
// buffers, `passes` times; every warp records its window. A verify launch checks every landed
// word against the source pattern.
#include "kernels/async_copy.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/shared/self_check.hpp"
#include "kernels/async_copy.cuh"
#include "kernels/pinned_launch.cuh"

namespace archbench {

namespace dev::acopy {

__device__ std::uint32_t g_latency_claim;  // set by the latency block that runs on the pinned SM

__global__ void fill_pattern_kernel(std::uint32_t* dst, std::size_t words) {
  for (std::size_t w = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; w < words;
       w += std::size_t(gridDim.x) * blockDim.x)
    dst[w] = async_pattern(w);
}

// Store destinations: logical word k of chunk c's stage or box holds async_pattern(k) x
// multiplier, for the chunks the launch wrote (the first `chunks`).
__global__ void count_store_mismatches_kernel(const std::uint32_t* dst, std::uint64_t chunks, std::uint32_t words,
                                              bool tensor, TensorBox box, std::uint32_t multiplier,
                                              unsigned long long* bad) {
  const std::uint64_t n = chunks * words;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t c = i / words;
    const auto k = std::uint32_t(i % words);
    const std::uint64_t g = tensor ? box_global_word(box, c, k) : c * words + k;
    if (dst[g] != async_pattern(k) * multiplier) atomicAdd(bad, 1ull);
  }
}

}  // namespace dev::acopy

namespace {

using dev::acopy::LoadArgs;
using dev::acopy::StoreArgs;
using StoreKernel = void (*)(StoreArgs, const CUtensorMap);

// The per-thread kernels' depth: unroll (ld_st) or stages (cp.async), 1/2/4/8.
template <AsyncOp Op, int W>
const void* thread_kernel(int depth) {
  switch (depth) {
    case 1:
      return reinterpret_cast<const void*>(dev::acopy::thread_load_kernel<Op, W, 1>);
    case 2:
      return reinterpret_cast<const void*>(dev::acopy::thread_load_kernel<Op, W, 2>);
    case 4:
      return reinterpret_cast<const void*>(dev::acopy::thread_load_kernel<Op, W, 4>);
    case 8:
      return reinterpret_cast<const void*>(dev::acopy::thread_load_kernel<Op, W, 8>);
  }
  throw std::invalid_argument(std::string("AsyncCopy: ") + async_op_info(Op).name + " takes 1, 2, 4 or 8 " +
                              (Op == AsyncOp::ld_st ? "loads" : "stages") + " in flight, not " + std::to_string(depth));
}

// The load kernel: per-thread ones take only the launch arguments, TMA ones a tensor map too.
const void* load_kernel(AsyncOp op, int width, int depth) {
  auto bad_width = [&] {
    return std::invalid_argument(std::string("AsyncCopy: no ") + async_op_info(op).name + " kernel of " +
                                 std::to_string(width) + " B");
  };
  switch (op) {
    case AsyncOp::ld_st:
      if (width == 4) return thread_kernel<AsyncOp::ld_st, 4>(depth);
      if (width == 8) return thread_kernel<AsyncOp::ld_st, 8>(depth);
      if (width == 16) return thread_kernel<AsyncOp::ld_st, 16>(depth);
      throw bad_width();
    case AsyncOp::cp_async_ca:
      if (width == 4) return thread_kernel<AsyncOp::cp_async_ca, 4>(depth);
      if (width == 8) return thread_kernel<AsyncOp::cp_async_ca, 8>(depth);
      if (width == 16) return thread_kernel<AsyncOp::cp_async_ca, 16>(depth);
      throw bad_width();
    case AsyncOp::cp_async_cg:
      if (width == 16) return thread_kernel<AsyncOp::cp_async_cg, 16>(depth);
      throw bad_width();
    case AsyncOp::bulk:
      return reinterpret_cast<const void*>(dev::acopy::tma_load_kernel<AsyncOp::bulk>);
    case AsyncOp::tensor:
      return reinterpret_cast<const void*>(dev::acopy::tma_load_kernel<AsyncOp::tensor>);
    case AsyncOp::bulk_multicast:
      if (const void* k = async_multicast_load_kernel()) return k;
      throw std::invalid_argument("AsyncCopy: this build has no sm_90a code for the multicast load (CUDA 12 or newer)");
    default:
      break;
  }
  throw std::invalid_argument(std::string("AsyncCopy: ") + async_op_info(op).name + " is not a load");
}

StoreKernel store_kernel(AsyncOp op) {
  switch (op) {
    case AsyncOp::st_global:
      return dev::acopy::async_store_kernel<AsyncOp::st_global>;
    case AsyncOp::bulk_store:
      return dev::acopy::async_store_kernel<AsyncOp::bulk_store>;
    case AsyncOp::bulk_reduce_add:
      return dev::acopy::async_store_kernel<AsyncOp::bulk_reduce_add>;
    case AsyncOp::tensor_store:
      return dev::acopy::async_store_kernel<AsyncOp::tensor_store>;
    default:
      break;
  }
  throw std::invalid_argument(std::string("AsyncCopy: ") + async_op_info(op).name + " is not a store");
}

bool is_tma_load(AsyncOp op) { return op == AsyncOp::bulk || op == AsyncOp::bulk_multicast || op == AsyncOp::tensor; }

bool is_power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

CUtensorMap map_of(const void* p) {
  CUtensorMap m{};
  if (p) std::memcpy(&m, p, sizeof m);
  return m;
}

// A launch of `blocks` blocks in clusters of `cluster` (no cluster attribute for 1), with its
// dynamic shared memory allowed (and clusters above the portable 8).
struct ClusterLaunch {
  cudaLaunchConfig_t config{};
  cudaLaunchAttribute attribute{};
  ClusterLaunch(const void* kernel, int blocks, int threads, std::size_t smem, int cluster) {
    ARCHBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    if (cluster > 8) ARCHBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    config.gridDim = dim3(unsigned(blocks));
    config.blockDim = dim3(unsigned(threads));
    config.dynamicSmemBytes = smem;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = unsigned(cluster);
    attribute.val.clusterDim.y = attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = cluster > 1 ? 1 : 0;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;  // config points at attribute
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};

}  // namespace

std::size_t async_chunks(const AsyncLaunch& l) { return l.stage_bytes ? l.footprint_bytes / l.stage_bytes : 0; }

int async_pipelines_per_block(const AsyncLaunch& l) { return is_tma_load(l.op) ? l.threads_per_block / 32 : 1; }

std::vector<WarpTiming> run_async_copy(const AsyncLaunch& l) {
  const AsyncOpInfo& info = async_op_info(l.op);
  if (l.threads_per_block <= 0 || l.threads_per_block % 32 || l.threads_per_block > 1024)
    throw std::invalid_argument("AsyncCopy: threads per block must be a multiple of 32 in 32..1024");
  const int warps = l.threads_per_block / 32;
  const int pipelines = async_pipelines_per_block(l);
  if (!is_power_of_two(l.stages) || l.stages * pipelines > kAsyncMaxStages)
    throw std::invalid_argument("AsyncCopy: stages must be a power of two, at most " + std::to_string(kAsyncMaxStages) +
                                " per block over its pipelines");
  if (l.stage_bytes == 0 || l.stage_bytes % 16)
    throw std::invalid_argument("AsyncCopy: a stage must be a positive multiple of 16 bytes");
  const std::uint32_t per_thread_stage =
      std::uint32_t(l.threads_per_block) *
      (l.op == AsyncOp::st_global ? 16u : std::uint32_t(l.width) * (l.op == AsyncOp::ld_st ? l.unroll : 1));
  if (info.per_thread && (info.is_load ? l.stage_bytes != per_thread_stage : l.stage_bytes % per_thread_stage != 0))
    throw std::invalid_argument(info.is_load
                                    ? "AsyncCopy: a per-thread load's stage is threads x width (x unroll) bytes"
                                    : "AsyncCopy: a stage must be a multiple of threads x 16 bytes");
  if (l.op == AsyncOp::bulk_multicast &&
      (l.cluster < 1 || l.cluster > 16 || l.stage_bytes % (16u * l.cluster) || l.dynamic))
    throw std::invalid_argument(
        "AsyncCopy: a multicast cluster is 1-16 blocks, splits a stage into 16-byte multiples, and is static");
  if (l.dynamic && !is_tma_load(l.op))
    throw std::invalid_argument("AsyncCopy: only the TMA loads claim chunks dynamically");
  if (info.uses_tensor_map && (!l.tensor_map || l.stage_bytes != l.box.words() * 4))
    throw std::invalid_argument("AsyncCopy: a tensor copy needs its map, and a stage of one box");
  const int cluster = l.op == AsyncOp::bulk_multicast ? l.cluster : 1;
  if (l.blocks <= 0 || l.blocks % cluster) throw std::invalid_argument("AsyncCopy: the grid must be whole clusters");
  const std::size_t chunks = async_chunks(l);
  if (chunks > 0xffffffffu) throw std::invalid_argument("AsyncCopy: more than 2^32 stages in the footprint");
  const auto units = std::uint32_t(l.blocks / cluster * pipelines);
  if (chunks < units)
    throw std::invalid_argument("AsyncCopy: the footprint has fewer stages than the grid has pipelines");
  if (l.dynamic && chunks % std::size_t(l.stages))
    throw std::invalid_argument("AsyncCopy: a dynamic footprint must be whole groups of stages");
  const auto chunks_per_unit = std::uint32_t(chunks / units);
  const std::size_t smem =
      std::size_t(l.stages) * pipelines * l.stage_bytes + 1024;  // + alignment of the stages to 1 KiB (swizzle)
  const CUtensorMap map = map_of(l.tensor_map);
  const std::size_t records = std::size_t(l.blocks) * warps;
  DeviceBuffer<WarpTiming> out(records);
  ARCHBENCH_CUDA(cudaMemset(out.get(), 0, out.bytes()));
  DeviceBuffer<std::uint32_t> ticket(1);
  ARCHBENCH_CUDA(cudaMemset(ticket.get(), 0, 4));

  const void* kernel = nullptr;
  LoadArgs la{};
  StoreArgs sa{};
  void* args[2] = {nullptr, const_cast<CUtensorMap*>(&map)};
  if (info.is_load) {
    kernel = load_kernel(l.op, l.width, l.op == AsyncOp::ld_st ? l.unroll : info.per_thread ? l.stages : 1);
    if (l.verify && !l.mismatches) throw std::invalid_argument("AsyncCopy: a verify launch needs its mismatch counter");
    la = LoadArgs{static_cast<const std::uint8_t*>(l.src),
                  l.stage_bytes,
                  l.stages,
                  std::uint32_t(chunks),
                  chunks_per_unit,
                  units,
                  l.passes,
                  cluster,
                  l.dynamic,
                  ticket.get(),
                  l.box,
                  l.verify,
                  l.mismatches,
                  out.get()};
    args[0] = &la;
  } else {
    kernel = reinterpret_cast<const void*>(store_kernel(l.op));
    sa = StoreArgs{
        static_cast<std::uint8_t*>(l.src), l.stage_bytes, l.stages, chunks_per_unit, units, l.passes, l.box, out.get()};
    args[0] = &sa;
  }
  ClusterLaunch launch(kernel, l.blocks, l.threads_per_block, smem, cluster);
  ARCHBENCH_CUDA(cudaLaunchKernelExC(&launch.config, kernel, args));
  cuda_check_launch(info.is_load ? "AsyncCopy load kernel" : "AsyncCopy store kernel");
  auto timings = out.download();
  // Self-check: every record's count agrees with its fold, per-thread and store kernels ran
  // every chunk of their block, and the TMA pipelines together copied every chunk of every pass
  // (multicast: every block received its cluster's).
  std::uint64_t copied = 0;
  for (const WarpTiming& t : timings) {
    if ((t.check & 0xffffffffu) != t.work_units)
      throw SelfCheckError(std::string(info.name) + " self-check failed: a warp's record is inconsistent");
    if (!is_tma_load(l.op) && t.work_units != std::uint64_t(chunks_per_unit) * l.passes)
      throw SelfCheckError(std::string(info.name) + " self-check failed: a block copied " +
                           std::to_string(t.work_units) + " stages of " +
                           std::to_string(std::uint64_t(chunks_per_unit) * l.passes));
    copied += t.work_units;
  }
  const std::uint64_t want =
      l.dynamic ? std::uint64_t(chunks) * l.passes : std::uint64_t(units) * chunks_per_unit * l.passes * cluster;
  if (is_tma_load(l.op) && copied != want)
    throw SelfCheckError(std::string(info.name) + " self-check failed: the pipelines copied " + std::to_string(copied) +
                         " stages of " + std::to_string(want));
  return timings;
}

void fill_async_pattern(std::uint32_t* dst, std::size_t words) {
  dev::acopy::fill_pattern_kernel<<<1024, 256>>>(dst, words);
  cuda_check_launch("fill_pattern_kernel");
}

std::uint64_t count_store_mismatches(const AsyncLaunch& l) {
  const auto units = std::uint64_t(l.blocks);
  const std::uint64_t chunks = async_chunks(l) / units * units;  // what the launch wrote
  DeviceBuffer<unsigned long long> bad(1);
  ARCHBENCH_CUDA(cudaMemset(bad.get(), 0, sizeof(unsigned long long)));
  const std::uint32_t multiplier = l.op == AsyncOp::bulk_reduce_add ? l.passes : 1u;
  dev::acopy::count_store_mismatches_kernel<<<1024, 256>>>(static_cast<const std::uint32_t*>(l.src), chunks,
                                                           l.stage_bytes / 4, l.op == AsyncOp::tensor_store, l.box,
                                                           multiplier, bad.get());
  cuda_check_launch("count_store_mismatches_kernel");
  return bad.download()[0];
}

int async_max_clusters(int cluster, int threads_per_block, std::size_t smem_per_block) {
  const void* kernel = async_multicast_load_kernel();
  if (!kernel) return 0;
  ClusterLaunch launch(kernel, cluster, threads_per_block, smem_per_block + 1024, cluster);
  launch.config.numAttrs = 1;  // the cluster attribute even for a cluster of 1
  int clusters = 0;
  ARCHBENCH_CUDA(cudaOccupancyMaxActiveClusters(&clusters, kernel, &launch.config));
  return clusters;
}

AsyncLatencyResult run_async_latency(const AsyncLatencyLaunch& l, std::uint32_t pin_sm) {
  if (l.bytes == 0 || l.bytes % 16) throw std::invalid_argument("AsyncCopy: a copy is a positive multiple of 16 bytes");
  if (l.copies == 0) throw std::invalid_argument("AsyncCopy: no copies to time");
  if (l.step % (l.op == AsyncOp::tensor ? l.bytes : 16))
    throw std::invalid_argument("AsyncCopy: the step between copies must be a multiple of " +
                                std::string(l.op == AsyncOp::tensor ? "the copy's size" : "16 bytes"));
  const void* kernel = nullptr;
  switch (l.op) {
    case AsyncOp::ld_st:
      kernel = reinterpret_cast<const void*>(dev::acopy::async_latency_kernel<AsyncOp::ld_st>);
      break;
    case AsyncOp::cp_async_cg:
      kernel = reinterpret_cast<const void*>(dev::acopy::async_latency_kernel<AsyncOp::cp_async_cg>);
      break;
    case AsyncOp::bulk:
      kernel = reinterpret_cast<const void*>(dev::acopy::async_latency_kernel<AsyncOp::bulk>);
      break;
    case AsyncOp::tensor:
      if (!l.tensor_map || l.box.words() * 4 != l.bytes)
        throw std::invalid_argument("AsyncCopy: a tensor copy needs its map, and a box of the copy's size");
      kernel = reinterpret_cast<const void*>(dev::acopy::async_latency_kernel<AsyncOp::tensor>);
      break;
    default:
      throw std::invalid_argument(std::string("AsyncCopy: no latency kernel for ") + async_op_info(l.op).name);
  }
  const std::size_t smem = std::size_t(l.bytes) + 1024;
  DeviceBuffer<std::uint32_t> cycles(l.copies), bad(1);
  DeviceBuffer<std::uint64_t> window(4);
  ARCHBENCH_CUDA(cudaMemset(bad.get(), 0, 4));
  dev::acopy::LatencyArgs a{static_cast<const std::uint8_t*>(l.src),
                            l.src_word,
                            l.bytes,
                            l.step,
                            l.copies,
                            l.box,
                            cycles.get(),
                            bad.get(),
                            window.get(),
                            pin_sm,
                            nullptr};
  const CUtensorMap map = map_of(l.tensor_map);
  ARCHBENCH_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  void* claim = nullptr;
  ARCHBENCH_CUDA(cudaGetSymbolAddress(&claim, dev::acopy::g_latency_claim));
  a.claim = static_cast<std::uint32_t*>(claim);
  void* args[] = {&a, const_cast<CUtensorMap*>(&map)};
  launch_pinned("async_latency_kernel", a.claim, [&](int blocks, std::uint32_t sm) {
    a.pin_sm = sm;
    ARCHBENCH_CUDA(cudaLaunchKernel(kernel, dim3(blocks), dim3(32), args, smem, nullptr));
  }, pin_sm);
  if (const std::uint32_t n = bad.download()[0])
    throw SelfCheckError(std::string(async_op_info(l.op).name) + " self-check failed: " + std::to_string(n) +
                         " words landed in shared memory differ from the source");
  AsyncLatencyResult r;
  for (std::uint32_t c : cycles.download()) r.cycles.push_back(c);
  const auto w = window.download();
  r.window_ns = double(w[3] - w[2]);
  r.sm_clock_mhz = r.window_ns > 0 ? double(w[1] - w[0]) * 1e3 / r.window_ns : 0;
  return r;
}

}  // namespace archbench
