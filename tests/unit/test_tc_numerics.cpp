// Tensor-core numerics: the inference recovers the behaviour of software tensor cores whose
// answers are known (analysis/tc_numerics.cpp's model), for every format the suite tests.
#include <gtest/gtest.h>

#include <cmath>

#include "analysis/tc_numerics.hpp"

using namespace archbench;

namespace {

TcNumerics infer_model(const TcModel& m, const TcFormat& f) {
  return infer_tc_numerics(f, [&](const DotVector& v) { return tc_model_dot(m, f, v); });
}

}  // namespace

TEST(TcNumerics, ModelSumsABlockWithOneAlignment) {
  const TcFormat f = tc_format("f16", 16);
  TcModel m;
  m.alignment_bits = 24;
  m.block_size = 4;
  DotVector v{std::vector<double>(16, 0.0), std::vector<double>(16, 0.0), 0};
  v.a[0] = 1, v.b[0] = 1, v.a[1] = -1, v.b[1] = 1, v.a[2] = std::ldexp(1.0, -13), v.b[2] = std::ldexp(1.0, -13);
  EXPECT_EQ(tc_model_dot(m, f, v), 0.0);  // 2^-26 is below the 24 bits kept beside 1 in its block
  v.a[2] = v.b[2] = 0, v.a[5] = v.b[5] = std::ldexp(1.0, -13);
  EXPECT_EQ(tc_model_dot(m, f, v), std::ldexp(1.0, -26));  // alone in the second block
}

TEST(TcNumerics, InferenceFindsEveryPropertyOfAKnownModel) {
  struct Case {
    const char* dtype;
    int k;
    TcModel model;
  };
  const Case cases[] = {
      {"f16", 16, {24, TcRounding::toward_zero, 4, true, false, false}},
      {"f16", 16, {25, TcRounding::toward_zero, 8, true, false, false}},
      {"bf16", 16, {26, TcRounding::toward_zero, 16, true, false, true}},
      {"tf32", 8, {30, TcRounding::nearest_even, 4, true, true, false}},
      {"e4m3", 32, {13, TcRounding::toward_zero, 32, true, false, false}},
      {"e5m2", 32, {14, TcRounding::toward_zero, 16, true, false, false}},
      {"f64", 4, {100, TcRounding::nearest_even, 1, true, false, false}},  // sequential FMAs
      {"f16", 16, {28, TcRounding::nearest_away, 16, false, false, false}},
      {"f16", 16, {26, TcRounding::up, 4, true, false, false}},
      {"f16", 16, {26, TcRounding::down, 4, true, false, false}},
  };
  for (const Case& c : cases) {
    const TcFormat f = tc_format(c.dtype, c.k);
    const TcNumerics n = infer_model(c.model, f);
    SCOPED_TRACE(std::string(c.dtype) + " F=" + std::to_string(c.model.alignment_bits));
    const bool f64 = std::string(c.dtype) == "f64";
    // Products added one at a time lose nothing in 2^m - 2^m + 2^(m-j): no alignment to find.
    EXPECT_EQ(n.alignment_bits, f64 ? kUnboundedAlignment : c.model.alignment_bits);
    EXPECT_EQ(n.rounding, c.model.rounding);
    EXPECT_EQ(n.rounding_in_alignment, c.model.alignment_bits <= f.acc_precision);
    EXPECT_EQ(n.block_size, f64 ? 0 : c.model.block_size);
    // f64's product test needs 104 bits beside its head; the model keeps 100 (a real FMA keeps all).
    if (!f64) {
      EXPECT_EQ(n.products_exact, c.model.products_exact);
    }
    EXPECT_EQ(n.subnormal_inputs, !c.model.flush_subnormal_inputs);
    EXPECT_EQ(n.subnormal_output, !c.model.flush_subnormal_output);
    EXPECT_FALSE(n.evidence.empty());
  }
}

TEST(TcNumerics, IntegersWrapAndMultiplyExactly) {
  const TcFormat f = tc_format("s8", 32);
  const TcNumerics n = infer_model(TcModel{}, f);
  EXPECT_TRUE(n.products_exact);
  EXPECT_TRUE(n.overflow_wraps);
}

TEST(TcNumerics, UnknownTypeIsRefused) { EXPECT_THROW(tc_format("f8", 32), std::invalid_argument); }
