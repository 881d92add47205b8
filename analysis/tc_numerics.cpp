#include "analysis/tc_numerics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace archbench {
namespace {

double p2(int e) { return std::ldexp(1.0, e); }

std::string text(double x) {  // exact and short: "2^-24", "-1", "3*2^-25", else %a
  if (x == 0) return "0";
  int e = 0;
  const double frac = std::frexp(std::fabs(x), &e);  // |x| = frac 2^e, frac in [0.5, 1)
  const char* sign = x < 0 ? "-" : "";
  char buf[64];
  if (frac == 0.5)
    std::snprintf(buf, sizeof buf, "%s2^%d", sign, e - 1);
  else if (frac == 0.75)
    std::snprintf(buf, sizeof buf, "%s3*2^%d", sign, e - 2);
  else
    std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}

// The vectors: a and b for products s 2^e (s = 1 or 3, with its sign), both normal in f.
struct Vectors {
  const TcFormat& f;
  int acc_emax() const { return 1 - f.acc_emin; }
  // a = s 2^ea, b = 2^eb with ea + eb = e, both normal; false where f cannot reach it.
  bool product(double s, int e, double& a, double& b) const {
    const int top = std::ilogb(std::fabs(s));
    for (int d = 0; d <= f.emax - f.emin; ++d)
      for (int eb : {e / 2 - d, e / 2 + d + 1}) {
        const int ea = e - eb;
        if (eb >= f.emin && eb <= f.emax && ea + top >= f.emin && ea + top <= f.emax) {
          a = s * p2(ea);
          b = p2(eb);
          return true;
        }
      }
    return false;
  }
  DotVector zero() const { return {std::vector<double>(f.k, 0.0), std::vector<double>(f.k, 0.0), 0.0}; }
  bool put(DotVector& v, int pos, double s, int e) const { return product(s, e, v.a[pos], v.b[pos]); }
};

// An exact binary number: mant 2^exp.
struct Exact {
  __int128 mant = 0;
  int exp = 0;
  static Exact of(double x) {
    if (x == 0) return {};
    int e = 0;
    const double frac = std::frexp(x, &e);
    return {__int128(std::int64_t(std::ldexp(frac, 53))), e - 53};
  }
  int lead() const { return exp + bit_length() - 1; }  // exponent of the leading bit
  int bit_length() const {
    unsigned __int128 m = mant < 0 ? -mant : mant;
    int n = 0;
    while (m) {
      m >>= 1;
      ++n;
    }
    return n;
  }
  double value() const { return std::ldexp(double(mant), exp); }  // exact where mant has <= 53 bits
};

// mant 2^exp shifted to 2^q units: exact when exp >= q, else cut toward zero or to nearest even.
__int128 align(const Exact& x, int q, bool toward_zero) {
  if (x.exp >= q) return x.mant << (x.exp - q);
  const int shift = std::min(q - x.exp, 126);
  const bool neg = x.mant < 0;
  const unsigned __int128 m = neg ? -x.mant : x.mant;
  unsigned __int128 r = m >> shift;
  if (!toward_zero) {
    const unsigned __int128 rem = m - (r << shift), half = (unsigned __int128)1 << (shift - 1);
    if (rem > half || (rem == half && (r & 1))) ++r;
  }
  return neg ? -__int128(r) : __int128(r);
}

// x rounded to `precision` significant bits.
Exact round_to(const Exact& x, int precision, TcRounding mode) {
  const int n = x.bit_length();
  if (n <= precision) return x;
  const int shift = n - precision;
  const bool neg = x.mant < 0;
  const unsigned __int128 m = neg ? -x.mant : x.mant;
  unsigned __int128 r = m >> shift;
  const unsigned __int128 rem = m - (r << shift), half = (unsigned __int128)1 << (shift - 1);
  bool up = false;
  switch (mode) {
    case TcRounding::nearest_even:
      up = rem > half || (rem == half && (r & 1));
      break;
    case TcRounding::nearest_away:
      up = rem >= half;
      break;
    case TcRounding::up:
      up = rem && !neg;
      break;
    case TcRounding::down:
      up = rem && neg;
      break;
    default:
      break;
  }
  if (up) ++r;
  return {neg ? -__int128(r) : __int128(r), x.exp + shift};
}

}  // namespace

TcFormat tc_format(const std::string& dtype, int k) {
  struct Row {
    const char* name;
    int precision, emin, emax;
  };
  static const Row kRows[] = {{"f16", 11, -14, 15}, {"bf16", 8, -126, 127}, {"tf32", 11, -126, 127},
                              {"e4m3", 4, -6, 8},   {"e5m2", 3, -14, 15},   {"f64", 53, -1022, 1023},
                              {"s8", 0, 0, 0}};
  for (const Row& r : kRows)
    if (dtype == r.name) {
      const bool f64 = dtype == "f64", s8 = dtype == "s8";
      return {r.name, r.precision, r.emin, r.emax, k, s8 ? 0 : f64 ? 53 : 24, s8 ? 0 : f64 ? -1022 : -126};
    }
  throw std::invalid_argument("tc_format: unknown type " + dtype);
}

const char* tc_rounding_name(TcRounding r) {
  switch (r) {
    case TcRounding::nearest_even:
      return "round to nearest, ties to even";
    case TcRounding::nearest_away:
      return "round to nearest, ties away";
    case TcRounding::toward_zero:
      return "toward zero (truncation)";
    case TcRounding::up:
      return "toward +infinity";
    case TcRounding::down:
      return "toward -infinity";
    default:
      return "unknown";
  }
}

double tc_model_dot(const TcModel& m, const TcFormat& f, const DotVector& v) {
  if (f.precision == 0) {  // integers: exact products, a 32-bit accumulator that wraps
    std::int64_t sum = std::int64_t(v.c);
    for (int i = 0; i < f.k; ++i) sum += std::int64_t(v.a[i]) * std::int64_t(v.b[i]);
    return double(std::int32_t(std::uint32_t(std::uint64_t(sum))));
  }
  if (m.alignment_bits > 100) throw std::invalid_argument("tc_model_dot: at most 100 alignment bits");
  const auto input = [&](double x) { return m.flush_subnormal_inputs && std::fabs(x) < p2(f.emin) ? 0.0 : x; };
  const bool cut = m.rounding == TcRounding::toward_zero;
  Exact acc = Exact::of(v.c);
  for (int start = 0; start < f.k; start += m.block_size) {
    std::vector<Exact> terms{acc};
    for (int i = start; i < std::min(f.k, start + m.block_size); ++i) {
      const Exact a = Exact::of(input(v.a[i])), b = Exact::of(input(v.b[i]));
      Exact p{a.mant * b.mant, a.exp + b.exp};
      if (!m.products_exact) p = round_to(p, f.precision, TcRounding::nearest_even);
      terms.push_back(p);
    }
    int lead = INT32_MIN;
    for (const Exact& t : terms)
      if (t.mant != 0) lead = std::max(lead, t.lead());
    if (lead == INT32_MIN) continue;  // every term zero
    const int q = lead - m.alignment_bits;
    __int128 sum = 0;
    for (const Exact& t : terms) sum += align(t, q, cut);
    acc = round_to(Exact{sum, q}, f.acc_precision, m.rounding);
    if (m.flush_subnormal_output && acc.mant != 0 && acc.lead() < f.acc_emin) acc = {};
  }
  return acc.value();
}

TcNumerics infer_tc_numerics(const TcFormat& f, const DotEvaluator& dot) {
  TcNumerics r;
  const Vectors vec{f};
  const auto run = [&](const DotVector& v, double exact, const std::string& what) {
    const double d = dot(v);
    r.evidence.push_back(what + ": d = " + text(d) + (d == exact ? " (exact)" : " (exact " + text(exact) + ")"));
    return d;
  };

  if (f.precision == 0) {  // s8: exact integer products; the accumulator's overflow
    DotVector v = vec.zero();
    std::fill(v.a.begin(), v.a.end(), -128.0);
    std::fill(v.b.begin(), v.b.end(), -128.0);
    const double all = 16384.0 * f.k;
    r.products_exact = run(v, all, std::to_string(f.k) + " x (-128)(-128)") == all;
    v = vec.zero();
    v.a[0] = v.b[0] = 1;
    v.c = 2147483647.0;
    const double d = run(v, 2147483648.0, "c = 2^31-1, + 1*1");
    r.overflow_wraps = d == -2147483648.0;
    r.alignment_bits = r.alignment_bits_with_c = kUnboundedAlignment;
    r.rounding = TcRounding::unknown;
    return r;
  }

  // The largest term: 2^m, as large as a product of f and the accumulator allow; the smallest
  // product reachable with normal operands: 2^(2 emin). The scans of j stop there (or at 200).
  const int m = std::min(2 * f.emax, vec.acc_emax() - 2);
  const int jmax = std::min(m - 2 * f.emin, 200);
  const int P = f.acc_precision;

  // Products exact: a = b = 1 + 2^-(p-1), c = -(1 + 2^-(p-2)); the product's tail 2^-(2p-2) remains.
  {
    DotVector v = vec.zero();
    v.a[0] = v.b[0] = 1 + p2(1 - f.precision);
    v.c = -(1 + p2(2 - f.precision));
    const double tail = p2(2 - 2 * f.precision);
    r.products_exact = run(v, tail, "(1+2^" + std::to_string(1 - f.precision) + ")^2 - (1+2^" +
                                        std::to_string(2 - f.precision) + ")") == tail;
  }

  // Alignment: 2^m - 2^m + 2^(m-j) at products 0, 1, 2 (and with c = 2^m, products 0, 1).
  const auto scan = [&](bool with_c) {
    int last_kept = 0;
    for (int j = 1; j <= jmax; ++j) {
      DotVector v = vec.zero();
      int pos = 0;
      if (with_c)
        v.c = p2(m);
      else
        vec.put(v, pos++, 1, m);
      vec.put(v, pos++, -1, m);
      if (!vec.put(v, pos, 1, m - j)) break;
      const double d = dot(v);
      if (d == p2(m - j)) {
        last_kept = j;
        continue;
      }
      run(v, p2(m - j), std::string(with_c ? "c = 2^" : "2^") + std::to_string(m) + " - 2^" + std::to_string(m) +
                            " + 2^" + std::to_string(m - j) + " (j = " + std::to_string(j) + ", kept up to j = " +
                            std::to_string(last_kept) + ")");
      return last_kept;
    }
    // Nothing lost: exact sums (each product added on its own, as by FMAs) where the scan went
    // far; else a lower bound, as far as the format reaches.
    r.evidence.push_back(std::string(with_c ? "c = " : "") + "2^m - 2^m + 2^(m-j): nothing lost up to j = " +
                         std::to_string(last_kept) + (last_kept >= 100 ? "" : " (as far as the format reaches)"));
    return last_kept >= 100 ? kUnboundedAlignment : last_kept;
  };
  r.alignment_bits = scan(false);
  r.alignment_bits_with_c = scan(true);
  const int F = r.alignment_bits;

  // Blocks: 2^m and -2^m at products 0 and 1, 2^(m-F-2) (lost beside them) at product i: it
  // survives only where i is in another block.
  if (F < kUnboundedAlignment && F + 2 <= jmax) {
    std::string kept;
    r.block_size = f.k;
    for (int i = f.k - 1; i >= 2; --i) {
      DotVector v = vec.zero();
      vec.put(v, 0, 1, m);
      vec.put(v, 1, -1, m);
      vec.put(v, i, 1, m - F - 2);
      if (dot(v) == p2(m - F - 2)) {
        r.block_size = i;
        kept = std::to_string(i) + (kept.empty() ? "" : " ") + kept;
      }
    }
    r.evidence.push_back("2^" + std::to_string(m) + " - 2^" + std::to_string(m) + " at products 0, 1 and 2^" +
                         std::to_string(m - F - 2) + " at product i: kept for i = " + (kept.empty() ? "none" : kept));
  }

  // Rounding: 2^m + t, t = 3/4 of the last bit kept (of the accumulator where the alignment keeps
  // more than it holds, else of the alignment), then -(2^m + t), and a tie 2^m + 1/2 of it.
  {
    r.rounding_in_alignment = F <= P;
    const int last = r.rounding_in_alignment ? m - F : m - (P - 1);  // exponent of the last bit kept
    const auto near = [&](double sign, double s, int e, const std::string& what) {
      DotVector v = vec.zero();
      vec.put(v, 0, sign, m);
      if (!vec.put(v, 1, sign * s, e)) return 0;
      const double d = run(v, sign * (p2(m) + s * p2(e)), what);
      return d == sign * (p2(m) + p2(last)) ? 1 : d == sign * p2(m) ? -1 : 0;  // away from 0, toward 0
    };
    const int pos = near(1, 3, last - 2, "2^m + 3/4 of the last bit kept");
    const int neg = near(-1, 3, last - 2, "-(2^m + 3/4 of the last bit kept)");
    const int tie = near(1, 1, last - 1, "2^m + 1/2 of the last bit kept");
    if (pos == 1 && neg == 1)
      r.rounding = tie == 1 ? TcRounding::nearest_away : tie == -1 ? TcRounding::nearest_even : TcRounding::unknown;
    else if (pos == -1 && neg == -1)
      r.rounding = TcRounding::toward_zero;
    else if (pos == 1 && neg == -1)
      r.rounding = TcRounding::up;
    else if (pos == -1 && neg == 1)
      r.rounding = TcRounding::down;
  }

  // Subnormals: the smallest subnormal of f times 2^emax; c a subnormal of the accumulator, and a
  // product that is one where f reaches it.
  {
    DotVector v = vec.zero();
    const int sub = f.emin - f.precision + 1;
    v.a[0] = p2(sub);
    v.b[0] = p2(f.emax);
    r.subnormal_inputs = run(v, p2(sub + f.emax), "a = 2^" + std::to_string(sub) + " (subnormal) times 2^" +
                                                      std::to_string(f.emax)) == p2(sub + f.emax);
    v = vec.zero();
    v.c = p2(f.acc_emin - 3);
    r.subnormal_output = run(v, v.c, "c = 2^" + std::to_string(f.acc_emin - 3) + " (subnormal), no products") == v.c;
    v = vec.zero();
    if (vec.put(v, 0, 1, f.acc_emin - 3))
      r.subnormal_output = r.subnormal_output && run(v, p2(f.acc_emin - 3), "a product of 2^" +
                                                                            std::to_string(f.acc_emin - 3) +
                                                                            " (subnormal)") == p2(f.acc_emin - 3);
  }
  return r;
}

}  // namespace archbench
