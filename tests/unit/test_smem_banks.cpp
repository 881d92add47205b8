// Bank model and bank-geometry inference on synthetic costs.
#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <set>

#include "analysis/smem_banks.hpp"

namespace archbench {
namespace {

constexpr int kLanes = 32;

TEST(SmemPatterns, OffsetsAreWhatTheNamesSay) {
  const SmemPattern s = stride_pattern(8, 3, kLanes);
  EXPECT_EQ(s.name, "stride:3");
  EXPECT_EQ(s.lane_offsets[5], 5u * 3 * 8);
  EXPECT_EQ(s.bytes_spanned(), 31u * 3 * 8 + 8);
  const SmemPattern m = multicast_pattern(4, 4, 32, kLanes);
  EXPECT_EQ(m.lane_offsets[3], 0u);
  EXPECT_EQ(m.lane_offsets[4], 128u);
  EXPECT_EQ(m.lane_offsets[31], 7u * 128);
  const SmemPattern p = permutation_pattern(16, kLanes, 7);
  std::set<std::uint32_t> distinct(p.lane_offsets.begin(), p.lane_offsets.end());
  EXPECT_EQ(distinct.size(), std::size_t(kLanes));
  EXPECT_EQ(*distinct.rbegin(), 31u * 16);
  EXPECT_EQ(random_pattern(4, 1024, kLanes, 1).lane_offsets, random_pattern(4, 1024, kLanes, 1).lane_offsets);
  EXPECT_THROW(stride_pattern(6, 1, kLanes), std::invalid_argument);
  EXPECT_THROW(stride_pattern(4, -1, kLanes), std::invalid_argument);
}

TEST(SmemBankModel, FourByteStridesFollowTheGcdModel) {
  const BankGeometry g{32, 4};
  for (int s = 1; s <= 64; ++s)
    EXPECT_EQ(model_wavefronts(g, stride_pattern(4, s, kLanes)), std::gcd(s, 32)) << "stride " << s;
}

TEST(SmemBankModel, BroadcastAndMulticastAreFreeWithinARow) {
  const BankGeometry g{32, 4};
  EXPECT_EQ(model_wavefronts(g, broadcast_pattern(4, kLanes)), 1);
  EXPECT_EQ(model_wavefronts(g, multicast_pattern(4, 4, 1, kLanes)), 1);
  // Eight groups, each one word of bank 0 in a different row: 8 ways.
  EXPECT_EQ(model_wavefronts(g, multicast_pattern(4, 4, 32, kLanes)), 8);
  EXPECT_EQ(model_wavefronts(g, permutation_pattern(4, kLanes, 3)), 1);
}

TEST(SmemBankModel, WideAccessesNeedOneWavefrontPer128Bytes) {
  const BankGeometry g{32, 4};
  EXPECT_EQ(model_wavefronts(g, stride_pattern(8, 1, kLanes)), 2);
  EXPECT_EQ(model_wavefronts(g, stride_pattern(16, 1, kLanes)), 4);
  // 16 B at a stride of 2 elements: 32 B apart, every bank holds 8 distinct rows.
  EXPECT_EQ(model_wavefronts(g, stride_pattern(16, 2, kLanes)), 8);
  EXPECT_EQ(model_wavefronts(g, stride_pattern(16, 8, kLanes)), 32);
  // Banks of 8 B: two 4-byte lanes share a bank word.
  EXPECT_EQ(model_wavefronts({32, 8}, stride_pattern(4, 2, kLanes)), 1);
  EXPECT_EQ(model_wavefronts({32, 8}, stride_pattern(4, 64, kLanes)), 32);
}

// What an H100 measured (cycles per warp access at 32 warps per SM, one cycle per wavefront),
// where the plain bank model is wrong for wide accesses: results/.../smem.json.
TEST(SmemBankModel, TheWideModelMatchesWhatAnH100Measured) {
  const BankGeometry g{32, 4};
  struct Case {
    SmemPattern p;
    int plain, measured;
  };
  const Case cases[] = {
      {stride_pattern(8, 1, kLanes), 2, 2},          {broadcast_pattern(8, kLanes), 1, 1},
      {multicast_pattern(8, 2, 1, kLanes), 1, 1},    {multicast_pattern(8, 16, 32, kLanes), 2, 2},
      {permutation_pattern(8, kLanes, 1), 2, 4},     {random_pattern(8, 1024, kLanes, 1), 5, 5},
      {stride_pattern(16, 1, kLanes), 4, 4},         {broadcast_pattern(16, kLanes), 1, 2},
      {multicast_pattern(16, 2, 1, kLanes), 2, 2},   {multicast_pattern(16, 16, 1, kLanes), 1, 2},
      {multicast_pattern(16, 16, 32, kLanes), 2, 2}, {permutation_pattern(16, kLanes, 1), 4, 10},
      {random_pattern(16, 1024, kLanes, 1), 6, 9},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(model_wavefronts(g, c.p), c.plain) << c.p.access_bytes << " B " << c.p.name;
    EXPECT_EQ(wide_model_wavefronts(g, c.p), c.measured) << c.p.access_bytes << " B " << c.p.name;
  }
  for (int s = 1; s <= 64; ++s) {
    for (int w : {4, 8, 16})
      EXPECT_EQ(wide_model_wavefronts(g, stride_pattern(w, s, kLanes)),
                model_wavefronts(g, stride_pattern(w, s, kLanes)));
  }
}

// Synthetic measurements: cost = scale x model wavefronts of `truth`, with multiplicative noise
// and, optionally, a few outliers.
std::vector<BankObservation> synthetic(const BankGeometry& truth, double scale, double noise, int outliers,
                                       int access_bytes = 4) {
  std::mt19937_64 rng(42);
  std::normal_distribution<double> jitter(0.0, noise);
  std::vector<BankObservation> obs;
  for (int s = 1; s <= 64; ++s) {
    const SmemPattern p = stride_pattern(access_bytes, s, kLanes);
    obs.push_back({p, scale * model_wavefronts(truth, p) * std::exp(jitter(rng))});
  }
  for (int i = 0; i < outliers; ++i) obs[std::size_t(7 * i + 4)].cycles_per_access *= 3.0;
  return obs;
}

TEST(SmemBankInference, RecoversThirtyTwoBanksOfFourBytesFromCleanCosts) {
  const BankInference r = infer_bank_geometry(synthetic({32, 4}, 2.0, 0.0, 0));
  EXPECT_EQ(r.geometry.banks, 32);
  EXPECT_EQ(r.geometry.bank_bytes, 4);
  EXPECT_NEAR(r.cycles_per_wavefront, 2.0, 1e-9);
  EXPECT_NEAR(r.rms_log_error, 0.0, 1e-9);
  EXPECT_NEAR(r.confidence, 1.0, 1e-9);
}

TEST(SmemBankInference, RecoversTheGeometryFromNoisyCostsWithOutliers) {
  for (const BankGeometry truth :
       {BankGeometry{32, 4}, BankGeometry{16, 4}, BankGeometry{32, 8}, BankGeometry{64, 4}}) {
    const BankInference r = infer_bank_geometry(synthetic(truth, 1.0, 0.05, 4));
    EXPECT_EQ(r.geometry.banks, truth.banks) << truth.banks << "x" << truth.bank_bytes;
    EXPECT_EQ(r.geometry.bank_bytes, truth.bank_bytes) << truth.banks << "x" << truth.bank_bytes;
    EXPECT_GT(r.confidence, 0.5);
    EXPECT_FALSE(r.runner_up.banks == truth.banks && r.runner_up.bank_bytes == truth.bank_bytes);
  }
}

TEST(SmemBankInference, FlatCostsGiveLowConfidence) {
  std::vector<BankObservation> obs;
  for (int s = 1; s <= 64; ++s) obs.push_back({stride_pattern(4, s, kLanes), 1.0});
  const BankInference r = infer_bank_geometry(obs);
  EXPECT_LT(r.confidence, 0.2);
}

TEST(SmemBankInference, RejectsTooLittleOrBadData) {
  EXPECT_THROW(infer_bank_geometry({}), std::invalid_argument);
  EXPECT_THROW(infer_bank_geometry({{stride_pattern(4, 1, kLanes), 1.0}, {stride_pattern(4, 2, kLanes), 0.0}}),
               std::invalid_argument);
}

}  // namespace
}  // namespace archbench
