// Tensor-core numerics: one mma.sync per launch on operands the host lays out per lane, every row
// of A and every column of B the same test vector, so that every element of D is the same dot
// product. Fragment layouts: PTX ISA, "Matrix Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32 /
// m8n8k4"; only each element's k index matters here.
#include "kernels/tc_numerics.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "kernels/arch_guard.cuh"
#include "kernels/shared/cuda_check.hpp"
#include "kernels/shared/device_buffer.hpp"
#include "kernels/shared/self_check.hpp"
#include "kernels/shared/tensor_ops.hpp"

namespace archbench {
namespace {

// sm_90 has no fp8 mma.sync: ptxas converts the operands to f16 (exact: e4m3 and e5m2 are subsets)
// and issues two HMMA.16816.F32, the second accumulating onto the first.
constexpr const char* kFp8OnSm90 = "on sm_90: converted to f16 and issued as two HMMA.16816.F32 (K 16 each), not fp8 hardware";
const std::vector<TcNumericsOp> kOps = {
    {"f16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 16, 80, "HMMA.16816.F32", 1, ""},
    {"bf16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 16, 80, "HMMA.16816.F32.BF16", 1, ""},
    {"tf32", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 8, 80, "HMMA.1688.F32.TF32", 1, ""},
    {"e4m3", "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 32, 89, "HMMA.16816.F32", 2, kFp8OnSm90},
    {"e5m2", "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32", 32, 89, "HMMA.16816.F32", 2, kFp8OnSm90},
    {"s8", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 32, 80, "IMMA.16832.S8.S8", 1, ""},
    {"f64", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 4, 80, "DMMA.8x8x4", 1, ""},
};

// wgmma m64n8k(32 bytes): its SASS opcode (tests/sass/tensor.cpp), one per kernel.
const std::vector<TcNumericsOp> kWgmmaOps = {
    {"f16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", 16, 90, "HGMMA.64x8x16.F32", 1, ""},
    {"bf16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", 16, 90, "HGMMA.64x8x16.F32.BF16", 1, ""},
    {"tf32", "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32", 8, 90, "HGMMA.64x8x8.F32.TF32", 1, ""},
    {"e4m3", "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3", 32, 90, "QGMMA.64x8x32.F32.E4M3.E4M3", 1, ""},
    {"e5m2", "wgmma.mma_async.sync.aligned.m64n8k32.f32.e5m2.e5m2", 32, 90, "QGMMA.64x8x32.F32.E5M2.E5M2", 1, ""},
    {"s8", "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8", 32, 90, "IGMMA.64x8x32.S8.S8", 1, ""},
};

// Registers per lane: A, B, C/D (32-bit types: 4, 2, 4; f64: 1, 1, 2 of 64 bits).
constexpr int kA = 4, kB = 2, kC = 4;

#define ARCHBENCH_TC_NUMERICS_MMA(PTX)                                                               \
  asm volatile(PTX " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"                      \
               : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])                                      \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), \
                 "r"(c[2]), "r"(c[3]))

// One kernel per type (T: its index in kOps); operands[lane][A, B, C], out[lane][D].
template <int T>
__global__ void tc_numerics_kernel(const std::uint32_t* __restrict__ operands, std::uint32_t* __restrict__ out) {
  const std::uint32_t* mine = operands + threadIdx.x * (kA + kB + kC);
  std::uint32_t a[kA], b[kB], c[kC], d[kC];
  for (int i = 0; i < kA; ++i) a[i] = mine[i];
  for (int i = 0; i < kB; ++i) b[i] = mine[kA + i];
  for (int i = 0; i < kC; ++i) c[i] = mine[kA + kB + i];
  if constexpr (T == 0) ARCHBENCH_IF_ARCH_BELOW(80, __trap(), ARCHBENCH_TC_NUMERICS_MMA("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"));
  if constexpr (T == 1) ARCHBENCH_IF_ARCH_BELOW(80, __trap(), ARCHBENCH_TC_NUMERICS_MMA("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"));
  if constexpr (T == 2) ARCHBENCH_IF_ARCH_BELOW(80, __trap(), ARCHBENCH_TC_NUMERICS_MMA("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"));
  if constexpr (T == 3) ARCHBENCH_IF_ARCH_BELOW(89, __trap(), ARCHBENCH_TC_NUMERICS_MMA("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"));
  if constexpr (T == 4) ARCHBENCH_IF_ARCH_BELOW(89, __trap(), ARCHBENCH_TC_NUMERICS_MMA("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32"));
  if constexpr (T == 5) ARCHBENCH_IF_ARCH_BELOW(80, __trap(), ARCHBENCH_TC_NUMERICS_MMA("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"));
  for (int i = 0; i < kC; ++i) out[threadIdx.x * kC + i] = d[i];
}

__global__ void tc_numerics_f64_kernel(const std::uint64_t* __restrict__ operands, std::uint64_t* __restrict__ out) {
  const std::uint64_t* mine = operands + threadIdx.x * 4;
  double a = __longlong_as_double(mine[0]), b = __longlong_as_double(mine[1]);
  double c0 = __longlong_as_double(mine[2]), c1 = __longlong_as_double(mine[3]), d0 = 0, d1 = 0;
  ARCHBENCH_IF_ARCH_BELOW(80, __trap(),
                          asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                                       : "=d"(d0), "=d"(d1)
                                       : "d"(a), "d"(b), "d"(c0), "d"(c1)));
  out[threadIdx.x * 2] = __double_as_longlong(d0);
  out[threadIdx.x * 2 + 1] = __double_as_longlong(d1);
}

// The bits of one element of the type, in its width (the values are exact in it: the caller's promise).
std::uint32_t element_bits(const std::string& t, double v) {
  if (t == "f16") return __half_as_ushort(__double2half(v));
  if (t == "bf16") return __bfloat16_as_ushort(__double2bfloat16(v));
  if (t == "e4m3") return __nv_cvt_double_to_fp8(v, __NV_NOSAT, __NV_E4M3);
  if (t == "e5m2") return __nv_cvt_double_to_fp8(v, __NV_NOSAT, __NV_E5M2);
  if (t == "s8") return std::uint8_t(std::int8_t(v));
  float f = float(v);  // tf32: an f32 whose low 13 bits the tensor core ignores
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// The k index of element e of register file `which` (A or B) of lane t = lane % 4.
int k_index(const std::string& type, bool is_a, int t, int e) {
  if (type == "tf32") return is_a ? t + 4 * (e >> 1) : t + 4 * e;
  if (type == "f16" || type == "bf16") return 2 * t + (e & 1) + 8 * (is_a ? (e >> 2) : (e >> 1));
  return 4 * t + (e & 3) + 16 * (is_a ? (e >> 3) : (e >> 2));  // 8-bit types, m16n8k32
}

// The 32-bit types' kernels, by their index in kOps (f64, the last, has its own).
using NumericsKernel = void (*)(const std::uint32_t*, std::uint32_t*);
const NumericsKernel kKernels[] = {tc_numerics_kernel<0>, tc_numerics_kernel<1>, tc_numerics_kernel<2>,
                                   tc_numerics_kernel<3>, tc_numerics_kernel<4>, tc_numerics_kernel<5>};

}  // namespace

const std::vector<TcNumericsOp>& tc_numerics_ops() { return kOps; }
const std::vector<TcNumericsOp>& tc_numerics_wgmma_ops() { return kWgmmaOps; }

namespace {
int op_index(const std::vector<TcNumericsOp>& ops, const std::string& type, const std::vector<double>& a,
             const std::vector<double>& b) {
  for (std::size_t i = 0; i < ops.size(); ++i)
    if (type == ops[i].dtype) {
      if (int(a.size()) != ops[i].k || int(b.size()) != ops[i].k)
        throw std::invalid_argument("tc numerics: a and b need k values");
      return int(i);
    }
  throw std::invalid_argument("tc numerics: unknown type " + type);
}

std::uint32_t c_bits_of(const std::string& type, double c) {
  if (type == "s8") return std::uint32_t(std::int32_t(c));
  const float cf = float(c);
  std::uint32_t u;
  std::memcpy(&u, &cf, 4);
  return u;
}

double d_value(const std::string& type, const std::vector<std::uint32_t>& d) {
  for (std::uint32_t w : d)
    if (w != d.front()) throw SelfCheckError("tc numerics " + type + ": the elements of D disagree");
  if (type == "s8") return double(std::int32_t(d.front()));
  float r;
  std::memcpy(&r, &d.front(), 4);
  return r;
}
}  // namespace

double run_wgmma_numerics(const std::string& type, const std::vector<double>& a, const std::vector<double>& b,
                          double c) {
  const int index = op_index(kWgmmaOps, type, a, b);
  const int bytes = 32 / kWgmmaOps[index].k;  // element bytes: every K spans 32 bytes
  // Every row of A (64) and of B (8) the vector, K-major in wgmma_operand_offset's layout.
  const auto image = [&](const std::vector<double>& v, int rows) {
    std::vector<std::uint8_t> img(std::size_t(rows) * kWgmmaKBytes, 0);
    for (int row = 0; row < rows; ++row)
      for (int k = 0; k < int(v.size()); ++k) {
        const std::uint32_t bits = element_bits(type, v[std::size_t(k)]);
        std::memcpy(&img[wgmma_operand_offset(row, k * bytes)], &bits, std::size_t(bytes));
      }
    return img;
  };
  return d_value(type, launch_wgmma_numerics(index, image(a, kWgmmaM), image(b, 8), c_bits_of(type, c)));
}

double run_mma_numerics(const std::string& type, const std::vector<double>& a, const std::vector<double>& b, double c) {
  const int index = op_index(kOps, type, a, b);

  if (type == "f64") {
    std::vector<std::uint64_t> words(32 * 4);
    for (int lane = 0; lane < 32; ++lane) {
      const int t = lane % 4;  // m8n8k4: A (row g, k t), B (k t, col g)
      const double v[4] = {a[t], b[t], c, c};
      std::memcpy(&words[lane * 4], v, sizeof v);
    }
    DeviceBuffer<std::uint64_t> operands(words);
    DeviceBuffer<std::uint64_t> out(32 * 2);
    tc_numerics_f64_kernel<<<1, 32>>>(operands.get(), out.get());
    cuda_check_launch("tc_numerics_f64_kernel");
    const std::vector<std::uint64_t> d = out.download();
    for (std::uint64_t w : d)
      if (w != d.front()) throw SelfCheckError("tc numerics f64: the elements of D disagree");
    double r;
    std::memcpy(&r, &d.front(), 8);
    return r;
  }

  const int per_reg = type == "tf32" ? 1 : (type == "f16" || type == "bf16") ? 2 : 4;
  const int bits = 32 / per_reg;
  std::vector<std::uint32_t> words(32 * (kA + kB + kC), 0);
  const std::uint32_t c_bits = c_bits_of(type, c);
  for (int lane = 0; lane < 32; ++lane) {
    std::uint32_t* mine = &words[lane * (kA + kB + kC)];
    const int t = lane % 4;
    for (int e = 0; e < kA * per_reg; ++e)
      mine[e / per_reg] |= element_bits(type, a[k_index(type, true, t, e)]) << (bits * (e % per_reg));
    for (int e = 0; e < kB * per_reg; ++e)
      mine[kA + e / per_reg] |= element_bits(type, b[k_index(type, false, t, e)]) << (bits * (e % per_reg));
    for (int i = 0; i < kC; ++i) mine[kA + kB + i] = c_bits;
  }
  DeviceBuffer<std::uint32_t> operands(words);
  DeviceBuffer<std::uint32_t> out(32 * kC);
  kKernels[index]<<<1, 32>>>(operands.get(), out.get());
  cuda_check_launch("tc_numerics_kernel");
  return d_value(type, out.download());
}

}  // namespace archbench
