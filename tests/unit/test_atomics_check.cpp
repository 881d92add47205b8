// The Atomics self-check: expected final values from the same operands the kernels use.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "kernels/shared/atomics_check.hpp"

using namespace archbench;

namespace {
std::vector<std::uint32_t> range(std::uint32_t n, std::uint32_t first = 0) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), first);
  return v;
}
}  // namespace

TEST(AtomicsCheck, IntegerAddCountsEveryUpdate) {
  // One warp (lanes 0..31: operands 1..32, sum 528) x 10 iterations.
  EXPECT_FALSE(check_atomic_final(AtomOp::add_u32, range(32), 10, 5280, 0));
  const auto lost = check_atomic_final(AtomOp::add_u32, range(32), 10, 5280 - 7, 0);  // one update of lane 6 lost
  ASSERT_TRUE(lost);
  EXPECT_NE(lost->find("expected 0x14a0"), std::string::npos) << *lost;
  EXPECT_TRUE(check_atomic_final(AtomOp::add_u64, range(32), 10, 5280 + 1, 0));  // a duplicated one
}

TEST(AtomicsCheck, FloatAddsAreExactWithinTheirLimits) {
  const float f = 5280.0f;
  std::uint32_t bits;
  std::memcpy(&bits, &f, 4);
  EXPECT_FALSE(check_atomic_final(AtomOp::add_f32, range(32), 10, bits, 0));
  // f16: 1.0 per update saturates at 2048 (0x6800); 64 threads x 100 updates.
  EXPECT_FALSE(check_atomic_final(AtomOp::add_f16x2, range(64), 100, 0x68006800u, 0));
  // 100 updates: 100.0 = 0x5640 in f16.
  EXPECT_FALSE(check_atomic_final(AtomOp::add_f16x2, range(1), 100, 0x56405640u, 0));
  // bf16 saturates at 256 (0x4380).
  EXPECT_FALSE(check_atomic_final(AtomOp::add_bf16x2, range(32), 100, 0x43804380u, 0));
  // f32 iterations are limited so the sum stays below 2^24.
  EXPECT_EQ(atomic_iteration_limit(AtomOp::add_f32, 1), (1u << 24) / 32);
  EXPECT_EQ(atomic_iteration_limit(AtomOp::exch_b32, 1), kAtomMaxIterations);
}

TEST(AtomicsCheck, MinMaxAndBitOps) {
  // max: the largest gtid's last iteration; min: its complement.
  EXPECT_FALSE(check_atomic_final(AtomOp::max_u32, range(4, 100), 5, 103 * kAtomMaxIterations + 4, 0));
  EXPECT_FALSE(check_atomic_final(AtomOp::min_u32, range(4, 100), 5, 0xFFFFFFFFu - (103 * kAtomMaxIterations + 4), 0));
  // or over (gtid + it) % 32 for gtid 0, it 0..2: bits 0..2.
  EXPECT_FALSE(check_atomic_final(AtomOp::or_b32, range(1), 3, 0x7, 0));
  EXPECT_FALSE(check_atomic_final(AtomOp::and_b32, range(1), 3, 0xFFFFFFF8u, 0));
  // xor of 1 << (gtid % 32), 3 times: odd, so every thread's bit is set.
  EXPECT_FALSE(check_atomic_final(AtomOp::xor_b32, range(2), 3, 0x3, 0));
  EXPECT_FALSE(check_atomic_final(AtomOp::xor_b32, range(2), 2, 0x0, 0));
}

TEST(AtomicsCheck, ExchangeEndsOnSomeThreadsLastIterationAndCasOnItsSuccesses) {
  EXPECT_FALSE(check_atomic_final(AtomOp::exch_b32, range(8, 16), 7, 20 * kAtomMaxIterations + 6, 0));
  EXPECT_TRUE(check_atomic_final(AtomOp::exch_b32, range(8, 16), 7, 20 * kAtomMaxIterations + 5, 0));  // not the last
  EXPECT_TRUE(
      check_atomic_final(AtomOp::exch_b32, range(8, 16), 7, 40 * kAtomMaxIterations + 6, 0));  // not a thread here
  EXPECT_FALSE(check_atomic_final(AtomOp::cas_b32, range(32), 100, 1234, 1234));
  EXPECT_TRUE(check_atomic_final(AtomOp::cas_b32, range(32), 100, 1233, 1234));
}

TEST(AtomicsCheck, CatalogueNamesAndOperands) {
  EXPECT_STREQ(atom_op_info(AtomOp::add_bf16x2).name, "add.noftz.bf16x2");
  EXPECT_EQ(atom_op_info(AtomOp::add_bf16x2).min_cc, 90);
  EXPECT_FALSE(atom_op_info(AtomOp::cas_b64).has_red);
  EXPECT_EQ(atomic_operand(AtomOp::add_u32, 33, 0), 2u);  // lane 1
  EXPECT_EQ(atomic_initial(AtomOp::and_b32), 0xFFFFFFFFu);
  EXPECT_STREQ(contention_name(Contention::sm), "sm");
}

TEST(AtomicsCheck, WhichLaunchesGiveEachSmLinesOfItsOwn) {
  // A warp per address: 32 warps x 4 B fill one line per block; 8 warps share it with 3 others.
  EXPECT_TRUE(sms_own_their_lines(Contention::warp, 1024, 4));
  EXPECT_FALSE(sms_own_their_lines(Contention::warp, 256, 4));
  EXPECT_TRUE(sms_own_their_lines(Contention::warp, 256, 16));
  // A thread per address: one warp already fills a line.
  EXPECT_TRUE(sms_own_their_lines(Contention::distinct, 32, 4));
  EXPECT_TRUE(sms_own_their_lines(Contention::distinct, 1024, 8));
  // Lines picked per SM by the L2 home probe.
  EXPECT_TRUE(sms_own_their_lines(Contention::near_l2, 1024, 4));
  EXPECT_TRUE(sms_own_their_lines(Contention::far_l2, 1024, 4));
  // One address per block or per SM, 4 B apart: 32 SMs share a line; one address for the GPU.
  EXPECT_FALSE(sms_own_their_lines(Contention::block, 1024, 4));
  EXPECT_FALSE(sms_own_their_lines(Contention::sm, 1024, 4));
  EXPECT_FALSE(sms_own_their_lines(Contention::all, 1024, 4));
  EXPECT_TRUE(sms_own_their_lines(Contention::block, 1024, 128));
}
