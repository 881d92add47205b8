// Calibration of every confidence the inference reports (analysis/confidence.hpp: a confidence
// is the probability that the value is right). For each inference, many synthetic cases are
// drawn from a simulator at several noise levels and the inference is run on each; the test
// then holds the confidences to their meaning:
//   - of the cases reported at >= 0.9, at least 95 % are right;
//   - on the cleanest data the mean confidence is at least 0.9 (the method can be sure);
//   - the mean confidence falls as the noise rises (it reads the noise).
// Each test prints its table (noise, mean confidence, share right at >= 0.9) for the docs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "analysis/bimodal.hpp"
#include "analysis/cache_geometry.hpp"
#include "analysis/scheduler_map.hpp"
#include "analysis/smem_banks.hpp"
#include "analysis/stats.hpp"
#include "analysis/tlb.hpp"

namespace archbench {
namespace {

// One noise level's cases.
struct Tally {
  double noise = 0;
  int cases = 0, confident = 0, confident_right = 0, right = 0;
  double confidence_sum = 0;
  void add(double confidence, bool is_right) {
    ++cases;
    confidence_sum += confidence;
    right += is_right;
    if (confidence >= 0.9) ++confident, confident_right += is_right;
  }
  double mean_confidence() const { return cases ? confidence_sum / cases : 0; }
};

// Runs trial(noise, index, tally) `trials` times at each noise level, one Tally per level.
template <class Trial>
std::vector<Tally> tally_by_noise(const std::vector<double>& noises, int trials, Trial trial) {
  std::vector<Tally> out;
  for (double noise : noises) {
    Tally t{noise};
    for (int i = 0; i < trials; ++i) trial(noise, i, t);
    out.push_back(t);
  }
  return out;
}

// The three properties, and the table.
void expect_calibrated(const std::string& what, const std::vector<Tally>& by_noise) {
  int confident = 0, confident_right = 0;
  std::printf("%-22s %10s %8s %8s %10s %10s\n", what.c_str(), "noise", "cases", "mean", "at>=0.9", "right");
  for (const Tally& t : by_noise) {
    confident += t.confident, confident_right += t.confident_right;
    std::printf("%-22s %10.4g %8d %8.3f %10d %9.1f%%\n", "", t.noise, t.cases, t.mean_confidence(), t.confident,
                t.confident ? 100.0 * t.confident_right / t.confident : 0.0);
  }
  ASSERT_GT(confident, 20) << what << ": too few confident cases to judge the calibration";
  EXPECT_GE(double(confident_right) / confident, 0.95)
      << what << ": cases reported at >= 0.9 are right less than 95 % of the time";
  EXPECT_GE(by_noise.front().mean_confidence(), 0.9) << what << ": not sure even on the cleanest data";
  for (std::size_t i = 1; i < by_noise.size(); ++i)
    EXPECT_LE(by_noise[i].mean_confidence(), by_noise[i - 1].mean_confidence() + 0.05)
        << what << ": the confidence rises with the noise at " << by_noise[i].noise;
  EXPECT_LT(by_noise.back().mean_confidence(), by_noise.front().mean_confidence() - 0.1)
      << what << ": the confidence does not read the noise";
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64: an index hash with no structure
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// A set-associative LRU cache under a cyclic chase of sequential lines: a set holding more lines
// than its ways misses on every one of them, the others hit. Hashed or modulo set index.
struct LruCache {
  std::size_t line = 128, sets = 64, ways = 16;
  bool hashed = true;
  std::uint64_t seed = 1;
  double capacity() const { return double(line * sets * ways); }
  double miss_fraction(std::size_t footprint) const {
    const std::size_t n = footprint / line;
    if (n == 0) return 0;
    std::vector<std::size_t> count(sets, 0);
    for (std::size_t i = 0; i < n; ++i) ++count[hashed ? mix(i ^ seed) % sets : i % sets];
    std::size_t misses = 0;
    for (std::size_t c : count)
      if (c > ways) misses += c;
    return double(misses) / double(n);
  }
};

// The same chase under random replacement, simulated (2 passes to warm, 1 timed).
double random_replacement_miss_fraction(const LruCache& c, std::size_t footprint, std::mt19937_64& rng) {
  std::vector<std::vector<std::size_t>> sets(c.sets);
  const std::size_t n = footprint / c.line;
  std::size_t misses = 0;
  for (int pass = 0; pass < 3; ++pass)
    for (std::size_t i = 0; i < n; ++i) {
      auto& s = sets[c.hashed ? mix(i ^ c.seed) % c.sets : i % c.sets];
      if (std::find(s.begin(), s.end(), i) != s.end()) continue;
      if (pass == 2) ++misses;
      if (s.size() < c.ways)
        s.push_back(i);
      else
        s[rng() % s.size()] = i;
    }
  return double(misses) / double(n);
}

const std::vector<double> kRelativeNoise = {0.0005, 0.002, 0.005, 0.01, 0.02, 0.04};

TEST(Calibration, CacheCapacity) {
  static constexpr double kHit = 30, kSpan = 250;
  std::mt19937_64 rng(11);
  expect_calibrated(
      "cache capacity",
      tally_by_noise({0.0005, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08}, 48, [&](double rel, int trial, Tally& t) {
        LruCache c;
        // Hashed indexes of 32 - 256 ways (an H100's L1 fits 32-128, its L2 256 and more; 16 ways:
        // ASlowRampIsNotReadConfidently), and one in four modulo-indexed (a step at the capacity).
        const std::size_t w[] = {32, 64, 256, 16};
        c.ways = w[trial % 4];
        c.hashed = trial % 4 != 3;
        c.seed = rng();
        // 4096 - 32768 lines (512 KiB - 4 MiB): at least 16 sets, as an SM's L1 or an L2 has.
        const std::size_t lo = 4096 / c.ways, hi = 32768 / c.ways;
        c.sets = lo + rng() % (hi - lo + 1);
        const double sd = rel * kSpan;
        auto noise = std::make_shared<std::mt19937_64>(rng());
        const LatencyAt f = [&c, sd, noise](std::size_t x) {
          return kHit + kSpan * c.miss_fraction(x) + std::normal_distribution<double>(0, sd)(*noise);
        };
        // As the runner does: the noise from 5 repeats at the start, the search on medians of 3.
        const std::size_t start = std::size_t(c.capacity() / 8) / c.line * c.line;
        std::vector<double> r;
        for (int k = 0; k < 5; ++k) r.push_back(f(start));
        const double m = mean(r);
        double var = 0;
        for (double y : r) var += (y - m) * (y - m);
        const std::size_t limit = std::size_t(4 * c.capacity());
        const CapacityResult res = find_capacity(median_of_runs(f, 3), start, limit, c.line, std::sqrt(var / 4), 40);
        t.add(res.confidence, std::abs(double(res.capacity) / c.capacity() - 1) <= kCapacityTolerance);
      }));
}

// The zigzag capacity on hashed LRU caches: a set holding X lines hits on min(X, W) of them per
// pass (the previous pass's last W lines come first), so a pass of n lines costs
// hit x H + miss x (n - H) cycles with H = sum over sets of min(X, W); the chase's noise is
// added to each point's cycles per step.
TEST(Calibration, ZigzagCapacity) {
  static constexpr double kHit = 280, kMiss = 600;
  std::mt19937_64 rng(29);
  expect_calibrated("zigzag capacity",
                    tally_by_noise({0.0005, 0.002, 0.005, 0.01, 0.02, 0.04}, 48, [&](double rel, int trial, Tally& t) {
                      LruCache c;
                      const std::size_t w[] = {16, 32, 128, 512};
                      c.ways = w[trial % 4];
                      c.seed = rng();
                      c.sets = std::max<std::size_t>(8, (8192 + rng() % 24576) / c.ways);
                      const auto lines = std::size_t(c.capacity()) / c.line;
                      const double sd = rel * (kMiss - kHit);
                      std::normal_distribution<double> noise(0, sd);
                      std::vector<std::pair<double, double>> points;
                      for (double k = 2.0; k < 3.7; k += 0.4) {
                        const auto n = std::size_t(k * double(lines));
                        std::vector<std::size_t> count(c.sets, 0);
                        for (std::size_t i = 0; i < n; ++i) ++count[mix(i ^ c.seed) % c.sets];
                        double held = 0;
                        for (std::size_t x : count) held += double(std::min(x, c.ways));
                        points.emplace_back(double(n),
                                            (kHit * held + kMiss * (double(n) - held)) / double(n) + noise(rng));
                      }
                      std::vector<double> hits;
                      for (int k = 0; k < 3; ++k) hits.push_back(kHit + noise(rng));
                      const ZigzagCapacity z = capacity_from_zigzag(points, mean(hits), sd);
                      t.add(z.confidence, std::abs(z.lines / double(lines) - 1) <= kCapacityTolerance);
                    }));
}

// Sets and ways of modulo-indexed caches: the largest count of elements D apart that all hit is
// W x max(1, sets x line / D); each reading carries a relative noise, the capacity its 1 %.
TEST(Calibration, SetsAndWays) {
  std::mt19937_64 rng(31);
  expect_calibrated(
      "sets and ways", tally_by_noise({0.001, 0.01, 0.03, 0.06, 0.1, 0.2}, 64, [&](double rel, int trial, Tally& t) {
        const std::size_t ways[] = {2, 4, 8, 16, 32};
        const std::size_t w = ways[trial % 5], sets = std::size_t(16) << (rng() % 5), line = 128;
        const double capacity = double(w * sets * line);
        std::normal_distribution<double> noise(0, rel);
        std::vector<std::pair<std::size_t, std::size_t>> max_hits;
        for (std::size_t d = line; d <= 4096 * line; d *= 2) {
          const double truth = double(w) * std::max(1.0, double(sets * line) / double(d));
          max_hits.emplace_back(d, std::size_t(std::max(1.0, std::round(truth * (1 + noise(rng))))));
        }
        const double capacity_error = std::normal_distribution<double>(0, 0.01)(rng);
        const SetsWays sw = infer_sets_ways(max_hits, std::size_t(capacity * (1 + capacity_error)), int(line));
        t.add(sw.confidence, sw.ways == int(w) && sw.sets == int(sets));
      }));
}

TEST(Calibration, LineFromApparentCapacities) {
  std::mt19937_64 rng(12);
  expect_calibrated(
      "line", tally_by_noise({0.002, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16}, 200, [&](double rel, int trial, Tally& t) {
        // The strides the suite uses, and the lines between their base stride and the largest:
        // {160, 192, 224, 288} from 32 B (L1: lines of 64 - 256 B) or {192, 320, 448, 576} from 64 B
        // (L2: 128 - 512 B). A line at the base stride or beyond the strides is the candidates' edge
        // (confidence 0; CacheGeometry.LineAtTheCandidatesEdgeIsNotReadConfidently).
        const bool l1 = trial % 2;
        const std::vector<std::size_t> strides =
            l1 ? std::vector<std::size_t>{160, 192, 224, 288} : std::vector<std::size_t>{192, 320, 448, 576};
        const std::size_t base_stride = l1 ? 32 : 64;
        const int line = int(2 * base_stride) << (trial / 2 % 3);
        const double base = 200e3 * (1 + double(rng() % 100) / 100);
        std::normal_distribution<double> e(0, rel);
        std::vector<std::pair<std::size_t, std::size_t>> apparent;
        for (std::size_t s : strides)
          apparent.emplace_back(s, std::size_t(base * std::max(1.0, double(s) / line) * (1 + e(rng))));
        const LineFit fit = infer_line_bytes(base_stride, std::size_t(base * (1 + e(rng))), apparent);
        if (fit.line_bytes == 0) {
          t.add(0, false);
          return;
        }
        t.add(fit.confidence, fit.line_bytes == line);
      }));
}

TEST(Calibration, FillGranularity) {
  std::mt19937_64 rng(13);
  constexpr double kNear = 32, kMiddle = 280, kFar = 600;
  expect_calibrated("fill granularity", tally_by_noise(kRelativeNoise, 60, [&](double rel, int trial, Tally& t) {
                      const bool two = trial % 2 == 0;
                      const int g2 = 32 << (rng() % 3), g1 = two ? std::max(32, g2 >> (rng() % 2)) : 0;
                      std::normal_distribution<double> e(0, rel * (kFar - kNear));
                      std::vector<std::pair<double, double>> curve;
                      for (double s : {8.0, 16.0, 32.0, 64.0, 128.0, 256.0}) {
                        const double f2 = std::min(1.0, s / g2), f1 = two ? std::min(1.0, s / g1) : f2;
                        curve.emplace_back(s, kNear * (1 - f1) + kMiddle * (f1 - f2) + kFar * f2 + e(rng));
                      }
                      const FetchFit fit = fit_fetch_granularity(curve, kNear + e(rng), curve.back().second, two);
                      t.add(fit.confidence, fit.outer_bytes == g2 && (!two || fit.inner_bytes == g1));
                    }));
}

TEST(Calibration, Replacement) {
  std::mt19937_64 rng(14);
  expect_calibrated(
      "replacement", tally_by_noise({0.005, 0.02, 0.05, 0.1, 0.15, 0.2}, 60, [&](double sd, int trial, Tally& t) {
        LruCache c;
        c.sets = 32;
        c.ways = trial % 3 == 0 ? 8 : 16;
        c.hashed = trial % 2 == 0;
        c.seed = rng();
        const bool lru = trial % 4 < 2;
        const std::size_t at = std::size_t(1.5 * c.capacity());
        const double m = lru ? c.miss_fraction(at) : random_replacement_miss_fraction(c, at, rng);
        const ReplacementEvidence e = classify_replacement(m + std::normal_distribution<double>(0, sd)(rng), sd);
        t.add(e.confidence, e.policy == (lru ? "LRU-like" : "random-like"));
      }));
}

TEST(Calibration, SharedStore) {
  std::mt19937_64 rng(15);
  constexpr double kAlone = 40;
  expect_calibrated("shares the L1",
                    tally_by_noise({0.001, 0.01, 0.03, 0.06, 0.1, 0.15}, 300, [&](double rel, int, Tally& t) {
                      const double rise = kAlone * 0.6 * double(rng() % 1000) / 1000;  // 0 - 0.6x alone
                      std::normal_distribution<double> e(0, rel * kAlone);
                      std::vector<double> alone, together;
                      for (int k = 0; k < 3; ++k)
                        alone.push_back(kAlone + e(rng)), together.push_back(kAlone + rise + e(rng));
                      const SharingVerdict v = decide_shared_store(alone, together);
                      t.add(v.confidence, v.shared == (rise > 0.25 * kAlone));
                    }));
}

// A two-level TLB whose levels miss as a hashed set-associative store of pages does (a step for
// a fully associative one), at 4 footprints per octave as the suite sweeps them.
struct RampTlb {
  double page = 2.0 * 1024 * 1024, entries[2] = {32, 4096}, hit = 300, penalty[2] = {120, 450};
  int ways[2] = {0, 0};
  double latency(double footprint, double stride) const {
    const double pages = footprint / std::max(stride, page);
    double y = hit;
    for (int l = 0; l < 2; ++l)  // ways 0: fully associative LRU, a step past the entries
      y += penalty[l] * (ways[l] ? hashed_miss_fraction(pages, entries[l], ways[l]) : double(pages > entries[l]));
    return y;
  }
  static std::vector<double> footprints(double stride) {
    std::vector<double> out;
    for (double f = 2 * stride; f <= 64.0 * (1ull << 30) * 1.0001; f *= std::pow(2.0, 0.25))
      out.push_back(std::round(f / 4096) * 4096);  // as the suite rounds them
    return out;
  }
  std::vector<CurvePoint> curve(double stride, double rel, std::mt19937_64& rng) const {
    std::normal_distribution<double> e(0, rel);
    std::vector<CurvePoint> c;
    for (double f : footprints(stride)) c.push_back({f, latency(f, stride) * (1 + e(rng))});
    return c;
  }
  // Where the clean curve crosses a level's midpoint: the footprint whose pages fill the level
  // half way to its penalty.
  double crossing(int level, double stride) const {
    double lo = stride, hi = 1e15;
    const double base = hit + (level ? penalty[0] : 0), mid = base + penalty[level] / 2;
    for (int i = 0; i < 200; ++i) {
      const double m = std::sqrt(lo * hi);
      (latency(m, stride) < mid ? lo : hi) = m;
    }
    return lo;
  }
};

RampTlb random_tlb(std::mt19937_64& rng, int trial) {
  RampTlb t;
  t.entries[0] = double(16 << (rng() % 3));
  t.entries[1] = double(1024 << (rng() % 3));
  t.ways[0] = trial % 2 ? 0 : 8;  // fully associative, or an 8-way hashed first level
  t.ways[1] = trial % 3 ? 0 : 16;
  return t;
}

TEST(Calibration, TlbLevels) {
  std::mt19937_64 rng(16);
  expect_calibrated("TLB level reach",
                    tally_by_noise({0.0005, 0.002, 0.005, 0.01, 0.02, 0.04}, 40, [&](double rel, int trial, Tally& t) {
                      const RampTlb tlb = random_tlb(rng, trial);
                      const double stride = tlb.page;
                      const auto levels = find_levels(tlb.curve(stride, rel, rng));
                      // Each level found is right when its bracket holds a level's true crossing.
                      for (const CacheLevelStep& s : levels) {
                        bool right = false;
                        for (int l = 0; l < 2; ++l) {
                          const double x = tlb.crossing(l, stride);
                          right = right || (s.reach <= x * (1 + 1e-9) && x < s.next_footprint);
                        }
                        t.add(s.confidence, right);
                      }
                      for (std::size_t k = levels.size(); k < 2; ++k) t.add(0, false);  // a level not found
                    }));
}

TEST(Calibration, TlbPageSize) {
  std::mt19937_64 rng(17);
  expect_calibrated("TLB page size",
                    tally_by_noise({0.0005, 0.002, 0.005, 0.01, 0.02, 0.04}, 24, [&](double rel, int trial, Tally& t) {
                      RampTlb tlb = random_tlb(rng, trial);
                      tlb.page = double(std::size_t(1) << (17 + rng() % 5));  // 128 KiB - 2 MiB
                      std::vector<std::pair<double, double>> reach;
                      std::vector<double> confidence;
                      for (double s = 64 * 1024; s <= 32.0 * 1024 * 1024; s *= 2) {
                        const auto levels = find_levels(tlb.curve(s, rel, rng));
                        if (levels.empty()) continue;
                        reach.emplace_back(s, levels.front().reach);
                        confidence.push_back(levels.front().confidence);
                      }
                      const PageSizeInference p = infer_page_size(reach, confidence);
                      t.add(p.confidence, p.page_bytes == tlb.page);
                    }));
}

TEST(Calibration, BimodalSplit) {
  std::mt19937_64 rng(18);
  // The noise here is each group's spread against the gap between the groups' means.
  expect_calibrated("bimodal split",
                    tally_by_noise({0.02, 0.05, 0.1, 0.15, 0.2, 0.3}, 60, [&](double spread, int, Tally& t) {
                      const double near = 270, far = 600, sd = spread * (far - near),
                                   low_share = 0.3 + 0.4 * double(rng() % 100) / 100;
                      std::normal_distribution<double> a(near, sd), b(far, sd);
                      std::vector<double> s;
                      std::vector<bool> is_low;
                      for (int i = 0; i < 512; ++i) {
                        const bool low = double(rng() % 1000) / 1000 < low_share;
                        s.push_back(low ? a(rng) : b(rng));
                        is_low.push_back(low);
                      }
                      // 1 % of samples anywhere between the groups (contention during a probe), in neither.
                      for (int i = 0; i < 5; ++i) s.push_back(near + (far - near) * double(rng() % 1000) / 1000);
                      const BimodalSplit split = split_bimodal(s);
                      int correct = 0;
                      for (std::size_t i = 0; i < is_low.size(); ++i) correct += (s[i] <= split.threshold) == is_low[i];
                      // Right: the share of samples in their right group is at least the confidence promised
                      // less a sampling allowance (the confidence is an expected share).
                      const double share = double(correct) / double(is_low.size());
                      t.add(split.confidence, share >= split.confidence - 0.01);
                    }));
  // One Gaussian group: no split.
  int split_anyway = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::normal_distribution<double> g(300, 5);
    std::vector<double> s;
    for (int i = 0; i < 100 + 20 * trial; ++i) s.push_back(g(rng));
    split_anyway += split_bimodal(s).confidence > 0;
  }
  EXPECT_LE(split_anyway, 10) << "one group read as two";
}

// A hashed index of 16 ways starts missing at about half its capacity: 1.5x the first miss is
// not yet its miss level, and the search must say it cannot place the capacity (or be right).
TEST(Calibration, ASlowRampIsNotReadConfidently) {
  std::mt19937_64 rng(19);
  int confident_wrong = 0;
  for (int trial = 0; trial < 24; ++trial) {
    LruCache c;
    c.ways = 16;
    c.seed = rng();
    c.sets = 256 + rng() % 1792;
    const LatencyAt f = [&c](std::size_t x) { return 30 + 250 * c.miss_fraction(x); };
    const std::size_t start = std::size_t(c.capacity() / 8) / c.line * c.line;
    const CapacityResult r = find_capacity(f, start, std::size_t(4 * c.capacity()), c.line, 0.05, 40);
    confident_wrong += r.confidence >= 0.9 && std::abs(double(r.capacity) / c.capacity() - 1) > kCapacityTolerance;
  }
  EXPECT_LE(confident_wrong, 1);
}

// Shared-memory banks: costs of 4-byte strides 1-64 from a bank geometry (cycles = scale x
// wavefronts), with multiplicative noise and one outlier in twenty.
TEST(Calibration, BankGeometry) {
  std::mt19937_64 rng(20);
  const BankGeometry truths[] = {{32, 4}, {16, 4}, {32, 8}, {64, 4}};
  expect_calibrated("bank geometry",
                    tally_by_noise({0.01, 0.05, 0.1, 0.2, 0.3, 0.5}, 40, [&](double rel, int trial, Tally& t) {
                      const BankGeometry truth = truths[trial % 4];
                      const double scale = 1.0 + double(rng() % 100) / 100;
                      std::normal_distribution<double> jitter(0.0, rel);
                      std::vector<BankObservation> obs;
                      for (int s = 1; s <= 64; ++s) {
                        const SmemPattern p = stride_pattern(4, s, 32);
                        double c = scale * model_wavefronts(truth, p) * std::exp(jitter(rng));
                        if (rng() % 20 == 0) c *= 3.0;
                        obs.push_back({p, c});
                      }
                      const BankInference r = infer_bank_geometry(obs);
                      t.add(r.confidence, r.geometry.banks == truth.banks && r.geometry.bank_bytes == truth.bank_bytes);
                    }));
}

// The scheduler map: pair slowdowns of 8-32 warps on 2 or 4 schedulers (warp mod k), sharing
// pairs 2x, others 1x, with Gaussian noise. Right: the warps' groups are warp mod k.
TEST(Calibration, SchedulerMap) {
  std::mt19937_64 rng(21);
  expect_calibrated("scheduler map",
                    tally_by_noise({0.01, 0.05, 0.1, 0.12, 0.15, 0.2}, 40, [&](double sd, int trial, Tally& t) {
                      const int warps = 8 << (trial % 3), k = trial % 2 ? 4 : 2;
                      std::normal_distribution<double> jitter(0.0, sd);
                      std::vector<PairSlowdown> pairs;
                      for (int a = 0; a < warps; ++a)
                        for (int b = a + 1; b < warps; ++b)
                          pairs.push_back({a, b, (a % k == b % k ? 2.0 : 1.0) + jitter(rng)});
                      const SchedulerMap m = infer_scheduler_map(pairs, warps);
                      bool right = m.groups == k;
                      for (int w = 0; w < warps && right; ++w)
                        for (int v = 0; v < warps && right; ++v)
                          right = (m.group_of_warp[w] == m.group_of_warp[v]) == (w % k == v % k);
                      t.add(m.confidence, right);
                    }));
}

}  // namespace
}  // namespace archbench
