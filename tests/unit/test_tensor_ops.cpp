// The tensor-core op tables and operand data (pure C++): the wgmma shared-memory layout and A
// register fragments cover every byte once, element encodings decode to what they mean, the
// host's product sum is right on hand-made data, and the peak table holds the whitepaper rates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/shared/tensor_ops.hpp"

namespace archbench {
namespace {

TEST(TensorOps, OperandLayoutIsABijectionWithContiguousCoreMatrices) {
  for (int rows : {8, 64, 256}) {
    std::set<std::size_t> seen;
    for (int r = 0; r < rows; ++r)
      for (int kb = 0; kb < kWgmmaKBytes; ++kb) {
        const std::size_t off = wgmma_operand_offset(r, kb);
        EXPECT_LT(off, std::size_t(rows) * kWgmmaKBytes);
        EXPECT_TRUE(seen.insert(off).second) << "row " << r << " byte " << kb;
      }
  }
  // The first core matrix (rows 0-7, K bytes 0-15) is the first 128 bytes, row after row.
  for (int r = 0; r < 8; ++r)
    for (int kb = 0; kb < 16; ++kb) EXPECT_EQ(wgmma_operand_offset(r, kb), std::size_t(r * 16 + kb));
  EXPECT_EQ(wgmma_operand_offset(0, 16), kWgmmaLeadingByteOffset);  // next core matrix along K
  EXPECT_EQ(wgmma_operand_offset(8, 0), kWgmmaStrideByteOffset);    // next 8 rows
}

TEST(TensorOps, ARegisterFragmentsCoverTheWholeATileOnce) {
  std::set<std::pair<int, int>> seen;
  for (int warp = 0; warp < 4; ++warp)
    for (int lane = 0; lane < 32; ++lane)
      for (int r = 0; r < 4; ++r) {
        const int row = wgmma_a_register_row(warp, lane, r), kb = wgmma_a_register_kbyte(lane, r);
        EXPECT_GE(row, 0);
        EXPECT_LT(row, kWgmmaM);
        EXPECT_EQ(kb % 4, 0);
        EXPECT_TRUE(seen.insert({row, kb}).second) << "warp " << warp << " lane " << lane << " reg " << r;
      }
  EXPECT_EQ(seen.size(), std::size_t(kWgmmaM * kWgmmaKBytes / 4));
}

TEST(TensorOps, ElementsDecodeToTheirValues) {
  EXPECT_EQ(tensor_element_value(TensorDtype::f16, 0x3C00), 1.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::f16, 0xC000), -2.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::f16, 0x0001), std::ldexp(1.0, -24));  // subnormal
  EXPECT_EQ(tensor_element_value(TensorDtype::bf16, 0x3F80), 1.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::tf32, 0x3F800000), 1.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::e4m3, 0x38), 1.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::e4m3, 0x7E), 448.0);  // the largest e4m3
  EXPECT_EQ(tensor_element_value(TensorDtype::e5m2, 0x3C), 1.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::e5m2, 0x7B), 57344.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::s8, 0xFF), -1.0);
  EXPECT_EQ(tensor_element_value(TensorDtype::f64, 0x3FF0000000000000ull), 1.0);
}

TEST(TensorOps, FillsStayInTheirRanges) {
  std::mt19937_64 rng(1);
  for (TensorDtype d : {TensorDtype::f16, TensorDtype::bf16, TensorDtype::tf32, TensorDtype::e4m3, TensorDtype::e5m2,
                        TensorDtype::f64}) {
    std::set<std::uint64_t> distinct;
    for (int i = 0; i < 2000; ++i) {
      const std::uint64_t bits = tensor_element(d, TensorFill::random, rng);
      distinct.insert(bits);
      const double v = std::abs(tensor_element_value(d, bits));
      EXPECT_GE(v, std::ldexp(1.0, d == TensorDtype::e4m3 ? -6 : -10)) << tensor_dtype_name(d);
      EXPECT_LT(v, 1.0) << tensor_dtype_name(d);
      const double u = tensor_element_value(d, tensor_element(d, TensorFill::unit, rng));
      EXPECT_TRUE(u == -1.0 || u == 0.0 || u == 1.0) << tensor_dtype_name(d) << " " << u;
      EXPECT_EQ(tensor_element(d, TensorFill::zero, rng), 0u);
    }
    EXPECT_GE(distinct.size(), 64u) << tensor_dtype_name(d) << ": random data must toggle";
  }
}

TEST(TensorOps, ProductSumOfOnesIsMTimesNTimesK) {
  for (TensorDtype d : {TensorDtype::f16, TensorDtype::tf32, TensorDtype::e4m3, TensorDtype::s8}) {
    const int eb = tensor_element_bytes(d);
    std::uint64_t one = 0;
    switch (d) {
      case TensorDtype::f16:
        one = 0x3C00;
        break;
      case TensorDtype::tf32:
        one = 0x3F800000;
        break;
      case TensorDtype::e4m3:
        one = 0x38;
        break;
      default:
        one = 1;
        break;
    }
    const int n = 32;
    std::vector<std::uint8_t> a(kWgmmaABytes), b(std::size_t(n) * kWgmmaKBytes);
    for (std::size_t i = 0; i < a.size(); i += eb) std::memcpy(&a[i], &one, eb);
    for (std::size_t i = 0; i < b.size(); i += eb) std::memcpy(&b[i], &one, eb);
    EXPECT_EQ(wgmma_product_sum(d, a, b, n), double(kWgmmaM) * n * (kWgmmaKBytes / eb)) << tensor_dtype_name(d);
  }
  // One non-zero element in each: only their K positions meet.
  std::vector<std::uint8_t> a(kWgmmaABytes, 0), b(8 * kWgmmaKBytes, 0);
  a[wgmma_operand_offset(5, 20)] = 3;  // A[5][k=20] = 3
  b[wgmma_operand_offset(7, 20)] = 2;  // B[7][k=20] = 2
  EXPECT_EQ(wgmma_product_sum(TensorDtype::s8, a, b, 8), 6.0);
  b[wgmma_operand_offset(7, 20)] = 0;
  b[wgmma_operand_offset(7, 21)] = 2;  // another K: no product
  EXPECT_EQ(wgmma_product_sum(TensorDtype::s8, a, b, 8), 0.0);
}

TEST(TensorOps, PeakTableHoldsTheWhitepaperRates) {
  EXPECT_EQ(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp16, 90), 4096.0);
  EXPECT_EQ(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::tf32, 90), 2048.0);
  EXPECT_EQ(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp8, 90), 8192.0);
  EXPECT_EQ(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::int8, 90), 8192.0);
  EXPECT_EQ(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp16, 80), 2048.0);
  EXPECT_FALSE(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp8, 80));
  EXPECT_FALSE(tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp16, 61));
  // 132 SMs at 1830 MHz: the vendor's 989 TFLOP/s.
  EXPECT_NEAR(*tensor_peak_flop_per_clk_per_sm(TensorPeakClass::fp16, 90) * 132 * 1.83e9 / 1e12, 989.4, 0.5);
}

// The fragment maps against the PTX ISA's examples and as maps: over the four lanes of a group,
// B's elements hit every k once; A's (dense) every k twice (rows g and g + 8), sparse A's the
// pattern's two positions of every chunk twice and nothing else.
TEST(TensorOps, FragmentMapsCoverTheirK) {
  const MmaOpInfo& f16k32 = mma_op_info(MmaOp::sp_f16_m16n8k32_f32);
  EXPECT_EQ(mma_a_k_index(f16k32, 1, 4, {0, 1}), 20);  // a4: row g, columns 16 + 4 t ..
  const MmaOpInfo& s8k64 = mma_op_info(MmaOp::sp_s8_m16n8k64_s32);
  EXPECT_EQ(mma_a_k_index(s8k64, 2, 9, {1, 3}), 51);  // a9: columns 8 t + 32 .., the first chunk's second nonzero
  EXPECT_EQ(mma_b_k_index(mma_op_info(MmaOp::s8_m16n8k32_s32), 1, 5), 21);  // b5: 4 t + 1 + 16
  EXPECT_EQ(mma_a_k_index(mma_op_info(MmaOp::tf32_m16n8k8_f32), 3, 2), 7);  // a2: column t + 4
  for (const MmaOpInfo& op : mma_ops()) {
    if (op.m != 16 || op.dtype == TensorDtype::f64) continue;
    const int p = mma_elements_per_register(op);
    std::vector<int> b_hits(std::size_t(op.k), 0);
    for (int t = 0; t < 4; ++t)
      for (int e = 0; e < op.b_regs * p; ++e) ++b_hits.at(std::size_t(mma_b_k_index(op, t, e)));
    for (int k = 0; k < op.k; ++k) EXPECT_EQ(b_hits[std::size_t(k)], 1) << op.name << " k " << k;
    std::vector<SparsePattern> patterns = mma_sparse_patterns(op);
    EXPECT_EQ(patterns.size(), op.sparse ? (op.dtype == TensorDtype::tf32 ? 2u : 6u) : 0u) << op.name;
    if (!op.sparse) patterns.push_back({0, {0, 1}});
    for (const SparsePattern& pattern : patterns) {
      std::vector<int> a_hits(std::size_t(op.k), 0);
      for (int t = 0; t < 4; ++t)
        for (int e = 0; e < op.a_regs * p; ++e) ++a_hits.at(std::size_t(mma_a_k_index(op, t, e, pattern.positions)));
      for (int k = 0; k < op.k; ++k) {
        const int chunk = op.dtype == TensorDtype::tf32 ? 2 : 4, at = k % chunk;
        const bool kept = !op.sparse || at == pattern.positions.first || at == pattern.positions.second;
        EXPECT_EQ(a_hits[std::size_t(k)], kept ? 2 : 0) << op.name << " pattern " << pattern.nibble << " k " << k;
      }
      if (op.sparse) {  // the nibble names its positions: first in bits 0-1, second in bits 2-3
        EXPECT_EQ(int(pattern.nibble & 3),
                  pattern.positions.first + (op.dtype == TensorDtype::tf32 ? pattern.positions.first : 0));
        EXPECT_EQ(mma_uniform_metadata(pattern.nibble) >> 28, pattern.nibble);
      }
    }
  }
}

TEST(TensorOps, SmallIntegersEncodeExactly) {
  for (TensorDtype d : {TensorDtype::f16, TensorDtype::bf16, TensorDtype::tf32, TensorDtype::e4m3, TensorDtype::e5m2,
                        TensorDtype::s8, TensorDtype::f64})
    for (int v = -8; v <= 8; ++v)
      EXPECT_EQ(tensor_element_value(d, tensor_element_of_int(d, v)), double(v)) << tensor_dtype_name(d) << " " << v;
  EXPECT_EQ(tensor_element_of_int(TensorDtype::f16, 3), 0x4200u);
  EXPECT_EQ(tensor_element_of_int(TensorDtype::e4m3, -2), 0xC0u);
  EXPECT_THROW(tensor_element_of_int(TensorDtype::e5m2, 9), std::invalid_argument);  // 1.001b x 2^3: 3 mantissa bits
}

TEST(TensorOps, TablesAreConsistent) {
  for (const MmaOpInfo& op : mma_ops()) {
    EXPECT_EQ(&mma_op_info(op.op), &op);
    const int eb = tensor_element_bytes(op.dtype);
    // A is m x k over 32 lanes (sparse: half of it), B is k x n: the registers hold exactly the fragments.
    EXPECT_EQ(op.a_regs * 4 * 32 * (op.sparse ? 2 : 1), op.m * op.k * eb) << op.name;
    const MmaOpInfo& dense = mma_op_info(op.dense_partner);
    EXPECT_FALSE(dense.sparse) << op.name;
    EXPECT_EQ(dense.dtype, op.dtype) << op.name;
    EXPECT_EQ(op.sparse ? 1u : 0u, std::string(op.ptx).find("mma.sp") == 0 ? 1u : 0u) << op.name;
    EXPECT_EQ(op.b_regs * 4 * 32, op.k * op.n * eb) << op.name;
  }
  for (const WgmmaTypeInfo& t : wgmma_types()) {
    EXPECT_EQ(&wgmma_type_info(t.type), &t);
    EXPECT_EQ(wgmma_k(t.type) * tensor_element_bytes(t.dtype), kWgmmaKBytes);
  }
  EXPECT_EQ(wgmma_flop(WgmmaType::f16_f32, 256), 2.0 * 64 * 256 * 16);
}

}  // namespace
}  // namespace archbench
