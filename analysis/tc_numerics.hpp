// What a tensor core computes, found with test vectors whose exact answers the host knows (the
// method of Fasi, Higham, Mikaitis and Pranesh, "Numerical behavior of NVIDIA tensor cores", and of
// Khattak & Mikaitis, arXiv 2512.07004). One instruction computes d = sum_k a_k b_k + c; every
// property is a discrete value found from the results of a few such dot products, each kept as
// evidence. Pure C++: the GPU (kernels/tc_numerics.cu) or a software model evaluates the vectors.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace archbench {

// An instruction's input format and what it accumulates into.
struct TcFormat {
  std::string name;        // "f16", "bf16", "tf32", "e4m3", "e5m2", "f64", "s8"
  int precision = 0;       // significand bits with the implicit one; 0: an integer format
  int emin = 0, emax = 0;  // exponents of the smallest and largest normal numbers
  int k = 0;               // products per dot product (the instruction's K)
  int acc_precision = 0;   // the accumulator's significand bits: 24 (f32), 53 (f64); 0: s32
  int acc_emin = 0;        // its smallest normal exponent: -126, -1022
};

// The format of an input type ("f16", "bf16", "tf32", "e4m3", "e5m2", "f64", "s8") for an
// instruction of k products; f64 accumulates into f64, s8 into s32, the rest into f32.
TcFormat tc_format(const std::string& dtype, int k);

// One dot product: a and b (k values each) and c, every value exact in its format.
struct DotVector {
  std::vector<double> a, b;
  double c = 0;
};
using DotEvaluator = std::function<double(const DotVector&)>;

enum class TcRounding { nearest_even, nearest_away, toward_zero, up, down, unknown };
const char* tc_rounding_name(TcRounding r);

// The properties, each a discrete value, and the evidence: one line per test vector, its values
// and the result against the exact answer.
struct TcNumerics {
  bool products_exact = false;  // a product's every bit reaches the sum (a*b + c, c cancelling its head)
  // Bits of the sum kept below the leading bit of its largest term: 2^m - 2^m + 2^(m-j) survives
  // for j <= alignment_bits (products 0, 1, 2: the inference assumes blocks of 3 or more).
  // kUnboundedAlignment where no j up to 100 or more was lost (exact sums: products added one at a
  // time, as by FMAs); where the format reaches less far, the last j tried (a lower bound).
  int alignment_bits = 0;
  int alignment_bits_with_c = 0;  // the same when c is the largest term
  // Where bits are lost (in the final rounding to the accumulator, or in the alignment when it
  // keeps no more bits than the accumulator holds), which way.
  TcRounding rounding = TcRounding::unknown;
  bool rounding_in_alignment = false;
  // Products summed with one alignment before the result is normalised (the block FMA's width):
  // k where every product shares one; 0 where no alignment loss exists to find it with.
  int block_size = 0;
  bool subnormal_inputs = false;  // a subnormal operand's product reaches the sum (else flushed)
  bool subnormal_output = false;  // a subnormal result is kept (else flushed to 0)
  bool overflow_wraps = false;    // integers: the 32-bit accumulator wraps (else saturates)
  std::vector<std::string> evidence;
};
inline constexpr int kUnboundedAlignment = 1000;

// Runs the test vectors through `dot` and infers the properties. Integer formats: products exact
// and the accumulator's overflow only.
TcNumerics infer_tc_numerics(const TcFormat& f, const DotEvaluator& dot);

// A software tensor core of known behaviour (the model the inference assumes): products exact or
// rounded to the input's precision, blocks of block_size products added to the accumulator
// with every term aligned to the block's largest and cut to alignment_bits below its leading bit
// (toward zero when the rounding is toward zero, else to nearest), the block's sum rounded to the
// accumulator's precision, subnormals flushed or kept.
struct TcModel {
  int alignment_bits = 24;
  TcRounding rounding = TcRounding::toward_zero;
  int block_size = 4;
  bool products_exact = true;
  bool flush_subnormal_inputs = false, flush_subnormal_output = false;
};
double tc_model_dot(const TcModel& m, const TcFormat& f, const DotVector& v);

}  // namespace archbench
