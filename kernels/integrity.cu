// The data-integrity screen's kernels (kernels/integrity.hpp). They run at the rate of the unit they
// screen (DRAM streams, FFMA and mma.sync chains with independent accumulators), compare everything
// on the GPU, and keep a mismatch's place: the SM and lane that found or computed it, and where.
#include "kernels/integrity.hpp"

#include <cmath>
#include <cstring>

#include "kernels/arch_guard.cuh"
#include "kernels/clock.cuh"
#include "kernels/mma_fragments.hpp"
#include "kernels/shared/cuda_check.hpp"

namespace archbench {
namespace {

__host__ __device__ __forceinline__ std::uint32_t word_of(Pattern p, std::uint64_t index) {
  if (p.kind == WordPattern::solid) return p.seed;
  // Below 2^32 words (16 GiB) the index itself; above, its high half folded in.
  return (static_cast<std::uint32_t>(index) ^ (static_cast<std::uint32_t>(index >> 32) * 0x9E3779B9u)) ^ p.seed;
}

__device__ __forceinline__ std::uint32_t laneid() {
  std::uint32_t l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// The cold path: counted always, kept while there is room.
__device__ __noinline__ void record(MismatchLog* log, std::uint32_t pass, std::uint64_t where, std::uint32_t expected,
                                    std::uint32_t found) {
  const unsigned long long k = atomicAdd(&log->count, 1ull);
  if (k < kMaxKeptMismatches) {
    IntegrityMismatch& m = log->kept[k];
    m.sm = dev::smid();
    m.lane = laneid();
    m.warp = threadIdx.x / 32;
    m.pass = pass;
    m.where = where;
    m.expected = expected;
    m.found = found;
  }
}

__device__ __forceinline__ uint4 words4(Pattern p, std::uint64_t first) {
  return make_uint4(word_of(p, first), word_of(p, first + 1), word_of(p, first + 2), word_of(p, first + 3));
}

__device__ __forceinline__ void check4(const uint4& v, Pattern e, std::uint64_t first, std::uint32_t pass,
                                       MismatchLog* log) {
  const uint4 want = words4(e, first);
  if (v.x != want.x) record(log, pass, first * 4, want.x, v.x);
  if (v.y != want.y) record(log, pass, (first + 1) * 4, want.y, v.y);
  if (v.z != want.z) record(log, pass, (first + 2) * 4, want.z, v.z);
  if (v.w != want.w) record(log, pass, (first + 3) * 4, want.w, v.w);
}

__global__ void dram_fill_kernel(uint4* buf, std::size_t n4, Pattern p, bool descending) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; j < n4; j += stride) {
    const std::size_t q = descending ? n4 - 1 - j : j;
    __stcg(buf + q, words4(p, q * 4));
  }
}

// Four loads in flight per thread before any compare: a DRAM stream at its rate.
template <bool kWrite>
__global__ void dram_check_kernel(uint4* buf, std::size_t n4, Pattern expect, Pattern write, bool descending,
                                  std::uint32_t pass, MismatchLog* log) {
  constexpr int kUnroll = 4;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  std::size_t j = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; j + (kUnroll - 1) * stride < n4; j += kUnroll * stride) {
    std::size_t q[kUnroll];
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      q[u] = descending ? n4 - 1 - (j + u * stride) : j + u * stride;
      v[u] = __ldcg(buf + q[u]);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      check4(v[u], expect, q[u] * 4, pass, log);
      if (kWrite) __stcg(buf + q[u], words4(write, q[u] * 4));
    }
  }
  for (; j < n4; j += stride) {
    const std::size_t q = descending ? n4 - 1 - j : j;
    check4(__ldcg(buf + q), expect, q * 4, pass, log);
    if (kWrite) __stcg(buf + q, words4(write, q * 4));
  }
}

__global__ void ffma_kernel(const float* seeds, const float* c_of_thread, const std::uint32_t* reference,
                            int iterations, std::uint32_t pass, ComputePlant plant, std::uint32_t* sm_of_block,
                            MismatchLog* log) {
  const int t = threadIdx.x;
  float x[kFfmaChains];
  std::uint32_t signature[kFfmaChains];
#pragma unroll
  for (int k = 0; k < kFfmaChains; ++k) {
    x[k] = seeds[t * kFfmaChains + k];
    signature[k] = 0;
  }
  const float c = c_of_thread[t];
  for (int i = 0; i < iterations; i += kFfmaFold) {
#pragma unroll
    for (int f = 0; f < kFfmaFold; ++f)
#pragma unroll
      for (int k = 0; k < kFfmaChains; ++k) x[k] = __fmaf_rn(x[k], x[k], -c);
#pragma unroll
    for (int k = 0; k < kFfmaChains; ++k) signature[k] += __float_as_uint(x[k]);
  }
  const std::uint32_t sm = dev::smid();
  if (t == 0) sm_of_block[blockIdx.x] = sm;
#pragma unroll
  for (int k = 0; k < kFfmaChains; ++k) {
    std::uint32_t got = __float_as_uint(x[k]) ^ signature[k];
    if (plant.sm == static_cast<int>(sm) && t == plant.lane && k == 0) got ^= 1u;  // warp 0's lane
    const std::uint32_t want = reference[t * kFfmaChains + k];
    if (got != want) record(log, pass, std::uint64_t(t) * kFfmaChains + k, want, got);
  }
}

// mma.sync m16n8k16 row.col, f32 += f16 x f16 (sm_80 and later; the host checks first).
__device__ __forceinline__ void mma_16816(float (&d)[4], const std::uint32_t (&a)[4], const std::uint32_t (&b)[2]) {
  ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                                       "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                                       : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                                       : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])));
}

__global__ void mma_kernel(const std::uint32_t* a_frag, const std::uint32_t* b_frag, const float* reference,
                           int tiles, int iterations, std::uint32_t pass, ComputePlant plant,
                           std::uint32_t* sm_of_block, MismatchLog* log) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, tile = warp % tiles;
  std::uint32_t a[4], b[2];
#pragma unroll
  for (int r = 0; r < 4; ++r) a[r] = a_frag[(tile * 32 + lane) * 4 + r];
#pragma unroll
  for (int r = 0; r < 2; ++r) b[r] = b_frag[(tile * 32 + lane) * 2 + r];
  float d[kMmaAccumulators][4];
#pragma unroll
  for (int j = 0; j < kMmaAccumulators; ++j)
#pragma unroll
    for (int r = 0; r < 4; ++r) d[j][r] = static_cast<float>(j);
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int j = 0; j < kMmaAccumulators; ++j) mma_16816(d[j], a, b);
  }
  const std::uint32_t sm = dev::smid();
  if (threadIdx.x == 0) sm_of_block[blockIdx.x] = sm;
#pragma unroll
  for (int j = 0; j < kMmaAccumulators; ++j)
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      std::uint32_t got = __float_as_uint(d[j][r]);
      if (plant.sm == static_cast<int>(sm) && warp == 0 && lane == plant.lane && j == 0 && r == 0) got ^= 1u;
      const std::uint32_t want = __float_as_uint(reference[(tile * 32 + lane) * 4 + r] + static_cast<float>(j));
      if (got != want) {
        const RowCol at = mma_c_element(lane, r);
        record(log, pass, (std::uint64_t(tile) << 16) | (at.row << 8) | at.col, want, got);
      }
    }
}

// Moving inversions over the block's shared memory: write P; each thread checks the words the next
// warp wrote and writes ~P over them; the warp after checks ~P.
__global__ void smem_kernel(std::uint32_t words, int rounds, std::uint32_t pass, std::uint32_t* sm_of_block,
                            MismatchLog* log) {
  extern __shared__ std::uint32_t smem_words[];
  volatile std::uint32_t* s = smem_words;
  const std::uint32_t T = blockDim.x, t = threadIdx.x;
  const Pattern patterns[3] = {{WordPattern::address, 0u}, {WordPattern::solid, 0x55555555u}, {WordPattern::solid, 0u}};
  if (t == 0) sm_of_block[blockIdx.x] = dev::smid();
  for (int r = 0; r < rounds; ++r)
    for (int p = 0; p < 3; ++p) {
      const Pattern P = patterns[p], notP = {P.kind, ~P.seed};
      const std::uint32_t step = pass + static_cast<std::uint32_t>(r * 3 + p);
      for (std::uint32_t i = t; i < words; i += T) s[i] = word_of(P, i);
      __syncthreads();
      for (std::uint32_t i = (t + 32) % T; i < words; i += T) {
        const std::uint32_t v = s[i], want = word_of(P, i);
        if (v != want) record(log, step, std::uint64_t(i) * 4, want, v);
        s[i] = word_of(notP, i);
      }
      __syncthreads();
      for (std::uint32_t i = (t + 64) % T; i < words; i += T) {
        const std::uint32_t v = s[i], want = word_of(notP, i);
        if (v != want) record(log, step, std::uint64_t(i) * 4, want, v);
      }
      __syncthreads();
    }
}

__device__ __forceinline__ uint4 ld_ca_v4(const uint4* p) {
  uint4 v;
  asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
  return v;
}

// Each block reads its region through the L1 `rounds` times: the first round fills the L1, the
// others read what the L1 holds.
__global__ void l1_kernel(const uint4* buf, std::uint32_t region_vec4, std::uint32_t seed, int rounds,
                          std::uint32_t pass, std::uint32_t* sm_of_block, MismatchLog* log) {
  const uint4* region = buf + std::size_t(blockIdx.x) * region_vec4;
  const Pattern p{WordPattern::address, seed};
  if (threadIdx.x == 0) sm_of_block[blockIdx.x] = dev::smid();
  for (int r = 0; r < rounds; ++r)
    for (std::uint32_t i = threadIdx.x; i < region_vec4; i += blockDim.x)
      check4(ld_ca_v4(region + i), p, (std::size_t(blockIdx.x) * region_vec4 + i) * 4, pass + r, log);
}

}  // namespace

std::uint32_t integrity_word(Pattern p, std::uint64_t index) { return word_of(p, index); }

void integrity_dram_fill(std::uint32_t* buffer, std::size_t words, Pattern p, bool descending, int blocks) {
  dram_fill_kernel<<<blocks, 512>>>(reinterpret_cast<uint4*>(buffer), words / 4, p, descending);
  cuda_check_launch("integrity dram_fill_kernel");
}

void integrity_dram_check(std::uint32_t* buffer, std::size_t words, Pattern expect, const Pattern* then_write,
                          bool descending, int blocks, std::uint32_t pass, MismatchLog* log) {
  auto* b = reinterpret_cast<uint4*>(buffer);
  if (then_write)
    dram_check_kernel<true><<<blocks, 512>>>(b, words / 4, expect, *then_write, descending, pass, log);
  else
    dram_check_kernel<false><<<blocks, 512>>>(b, words / 4, expect, expect, descending, pass, log);
  cuda_check_launch("integrity dram_check_kernel");
}

void integrity_ffma(const float* seeds, const float* c_of_thread, const std::uint32_t* reference, int blocks, int threads,
                    int iterations, std::uint32_t pass, ComputePlant plant, std::uint32_t* sm_of_block,
                    MismatchLog* log) {
  ffma_kernel<<<blocks, threads>>>(seeds, c_of_thread, reference, iterations, pass, plant, sm_of_block, log);
  cuda_check_launch("integrity ffma_kernel");
}

void integrity_ffma_reference(const float* seeds, float c, int iterations, std::uint32_t* out) {
  float x[kFfmaChains];
  std::uint32_t signature[kFfmaChains] = {};
  for (int k = 0; k < kFfmaChains; ++k) x[k] = seeds[k];
  for (int i = 0; i < iterations; i += kFfmaFold) {
    for (int f = 0; f < kFfmaFold; ++f)
      for (int k = 0; k < kFfmaChains; ++k) x[k] = std::fma(x[k], x[k], -c);
    for (int k = 0; k < kFfmaChains; ++k) {
      std::uint32_t bits;
      std::memcpy(&bits, &x[k], sizeof bits);
      signature[k] += bits;
    }
  }
  for (int k = 0; k < kFfmaChains; ++k) {
    std::uint32_t bits;
    std::memcpy(&bits, &x[k], sizeof bits);
    out[k] = bits ^ signature[k];
  }
}

int integrity_blocks_per_sm(IntegrityKernel kernel, int threads, std::size_t smem_bytes) {
  int n = 0;
  switch (kernel) {
    case IntegrityKernel::dram_fill:
      ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, dram_fill_kernel, threads, smem_bytes));
      break;
    case IntegrityKernel::dram_check:
      ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, dram_check_kernel<true>, threads, smem_bytes));
      break;
    case IntegrityKernel::ffma:
      ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, ffma_kernel, threads, smem_bytes));
      break;
    case IntegrityKernel::mma:
      ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, mma_kernel, threads, smem_bytes));
      break;
    case IntegrityKernel::smem:
      ARCHBENCH_CUDA(cudaFuncSetAttribute(smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(smem_bytes)));
      ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, smem_kernel, threads, smem_bytes));
      break;
    case IntegrityKernel::l1:
      ARCHBENCH_CUDA(cudaFuncSetAttribute(l1_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
      ARCHBENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, l1_kernel, threads, smem_bytes));
      break;
  }
  if (n < 1) throw CudaError(cudaErrorInvalidConfiguration, "integrity: a kernel that fits no block on an SM");
  return n;
}

void integrity_mma(const std::uint32_t* a_frag, const std::uint32_t* b_frag, const float* reference, int tiles,
                   int blocks, int warps_per_block, int iterations, std::uint32_t pass, ComputePlant plant,
                   std::uint32_t* sm_of_block, MismatchLog* log) {
  mma_kernel<<<blocks, warps_per_block * 32>>>(a_frag, b_frag, reference, tiles, iterations, pass, plant,
                                               sm_of_block, log);
  cuda_check_launch("integrity mma_kernel");
}

void integrity_smem(int blocks, int threads, std::uint32_t smem_bytes, int rounds, std::uint32_t pass,
                    std::uint32_t* sm_of_block, MismatchLog* log) {
  ARCHBENCH_CUDA(cudaFuncSetAttribute(smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(smem_bytes)));
  smem_kernel<<<blocks, threads, smem_bytes>>>(smem_bytes / 4, rounds, pass, sm_of_block, log);
  cuda_check_launch("integrity smem_kernel");
}

void integrity_l1(const std::uint32_t* buffer, std::uint32_t region_bytes, std::uint32_t seed, int blocks,
                  int threads, int rounds, std::uint32_t pass, std::uint32_t* sm_of_block, MismatchLog* log) {
  // As much L1 as the carveout allows: no shared memory is used.
  ARCHBENCH_CUDA(cudaFuncSetAttribute(l1_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 0));
  l1_kernel<<<blocks, threads>>>(reinterpret_cast<const uint4*>(buffer), region_bytes / 16, seed, rounds, pass,
                                 sm_of_block, log);
  cuda_check_launch("integrity l1_kernel");
}

}  // namespace archbench
