#include "analysis/smem_banks.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>

namespace archbench {
namespace {

void check_shape(int access_bytes, int lanes) {
  if (access_bytes != 4 && access_bytes != 8 && access_bytes != 16)
    throw std::invalid_argument("smem pattern: access width must be 4, 8 or 16 bytes, not " +
                                std::to_string(access_bytes));
  if (lanes < 1) throw std::invalid_argument("smem pattern: a warp has at least one lane");
}

SmemPattern from_elements(std::string name, int access_bytes, const std::vector<std::uint64_t>& elements) {
  SmemPattern p;
  p.name = std::move(name);
  p.access_bytes = access_bytes;
  for (std::uint64_t e : elements) {
    const std::uint64_t offset = e * std::uint64_t(access_bytes);
    if (offset > 0xffff0000u) throw std::invalid_argument("smem pattern: offset beyond 32 bits");
    p.lane_offsets.push_back(static_cast<std::uint32_t>(offset));
  }
  return p;
}

double median_of_copy(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

constexpr int kMinBanks = 4, kMaxBanks = 256;
constexpr double kNoiseFloorLog = 0.01;  // 1 %: no timing is cleaner than that

}  // namespace

std::uint32_t SmemPattern::bytes_spanned() const {
  std::uint32_t top = 0;
  for (std::uint32_t o : lane_offsets) top = std::max(top, o);
  return top + static_cast<std::uint32_t>(access_bytes);
}

SmemPattern stride_pattern(int access_bytes, int stride_elements, int lanes) {
  check_shape(access_bytes, lanes);
  if (stride_elements < 0) throw std::invalid_argument("smem pattern: stride must be >= 0");
  std::vector<std::uint64_t> e(lanes);
  for (int l = 0; l < lanes; ++l) e[l] = std::uint64_t(l) * std::uint64_t(stride_elements);
  return from_elements("stride:" + std::to_string(stride_elements), access_bytes, e);
}

SmemPattern broadcast_pattern(int access_bytes, int lanes) {
  check_shape(access_bytes, lanes);
  return from_elements("broadcast", access_bytes, std::vector<std::uint64_t>(lanes, 0));
}

SmemPattern multicast_pattern(int access_bytes, int group, int group_stride_elements, int lanes) {
  check_shape(access_bytes, lanes);
  if (group < 1 || group_stride_elements < 0)
    throw std::invalid_argument("smem pattern: multicast needs group >= 1 and group stride >= 0");
  std::vector<std::uint64_t> e(lanes);
  for (int l = 0; l < lanes; ++l) e[l] = std::uint64_t(l / group) * std::uint64_t(group_stride_elements);
  return from_elements("multicast:" + std::to_string(group) + "/group_stride:" + std::to_string(group_stride_elements),
                       access_bytes, e);
}

SmemPattern permutation_pattern(int access_bytes, int lanes, std::uint64_t seed) {
  check_shape(access_bytes, lanes);
  std::vector<std::uint64_t> e(lanes);
  std::iota(e.begin(), e.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(e.begin(), e.end(), rng);
  return from_elements("permutation", access_bytes, e);
}

SmemPattern random_pattern(int access_bytes, int range_elements, int lanes, std::uint64_t seed) {
  check_shape(access_bytes, lanes);
  if (range_elements < 1) throw std::invalid_argument("smem pattern: random range must be >= 1");
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::uint64_t> pick(0, std::uint64_t(range_elements) - 1);
  std::vector<std::uint64_t> e(lanes);
  for (auto& x : e) x = pick(rng);
  return from_elements("random:" + std::to_string(range_elements), access_bytes, e);
}

int model_wavefronts(const BankGeometry& g, const SmemPattern& p) {
  if (g.banks < 1 || g.bank_bytes < 1) throw std::invalid_argument("bank model: banks and bank width must be positive");
  const std::uint64_t row_bytes = std::uint64_t(g.banks) * std::uint64_t(g.bank_bytes);
  // Every bank word an access touches: an access wider than a bank word spans several banks.
  std::map<std::uint64_t, std::set<std::uint64_t>> rows_per_bank;
  for (std::uint32_t offset : p.lane_offsets)
    for (std::uint64_t a = offset; a < std::uint64_t(offset) + std::uint64_t(p.access_bytes);
         a += std::uint64_t(g.bank_bytes)) {
      const std::uint64_t word = a / std::uint64_t(g.bank_bytes);
      rows_per_bank[word % std::uint64_t(g.banks)].insert(a / row_bytes);
    }
  std::size_t worst = 1;
  for (const auto& [bank, rows] : rows_per_bank) worst = std::max(worst, rows.size());
  return static_cast<int>(worst);
}

int wide_model_wavefronts(const BankGeometry& g, const SmemPattern& p) {
  const int row_bytes = g.banks * g.bank_bytes;
  const std::size_t lanes = p.lane_offsets.size();
  const std::size_t lanes_per_row = std::max<std::size_t>(1, std::size_t(row_bytes / p.access_bytes));
  const std::size_t unit = std::min(lanes, 2 * lanes_per_row);
  auto group = [&](std::size_t first, std::size_t count) {
    SmemPattern q = p;
    q.lane_offsets.assign(p.lane_offsets.begin() + std::ptrdiff_t(first),
                          p.lane_offsets.begin() + std::ptrdiff_t(std::min(lanes, first + count)));
    return q;
  };
  int total = 0;
  for (std::size_t u = 0; u < lanes; u += unit) {
    if (model_wavefronts(g, group(u, unit)) == 1) {
      total += 1;
      continue;
    }
    for (std::size_t r = u; r < std::min(lanes, u + unit); r += lanes_per_row)
      total += model_wavefronts(g, group(r, lanes_per_row));
  }
  return total;
}

BankInference infer_bank_geometry(const std::vector<BankObservation>& observations) {
  if (observations.size() < 2) throw std::invalid_argument("bank inference: needs at least two observations");
  for (const BankObservation& o : observations)
    if (!(o.cycles_per_access > 0))
      throw std::invalid_argument("bank inference: cost of " + o.pattern.name + " is not positive");

  struct Fit {
    BankGeometry g;
    std::vector<int> predicted;
    double scale = 0;
    double l1 = 0;     // sum of |log residual|: robust to an outlier, yet every mismatch counts
    double noise = 0;  // robust residual scale: median |log residual| / ln 2 (Laplace b)
    double rms = 0;
  };
  std::vector<Fit> fits;
  for (int bank_bytes : {4, 8, 16})
    for (int banks = kMinBanks; banks <= kMaxBanks; banks *= 2) {
      Fit f{{banks, bank_bytes}, {}, 0, 0, 0, 0};
      std::vector<double> log_ratio;
      for (const BankObservation& o : observations) {
        f.predicted.push_back(model_wavefronts(f.g, o.pattern));
        log_ratio.push_back(std::log(o.cycles_per_access / f.predicted.back()));
      }
      const double log_scale = median_of_copy(log_ratio);
      std::vector<double> residual;
      double sq = 0;
      for (double lr : log_ratio) {
        residual.push_back(std::abs(lr - log_scale));
        f.l1 += residual.back();
        sq += residual.back() * residual.back();
      }
      f.scale = std::exp(log_scale);
      f.noise = median_of_copy(residual) / std::log(2.0);
      f.rms = std::sqrt(sq / double(residual.size()));
      fits.push_back(std::move(f));
    }
  // Stable: among equal errors the earlier geometry (narrower banks, then fewer of them) wins.
  std::stable_sort(fits.begin(), fits.end(), [](const Fit& x, const Fit& y) { return x.l1 < y.l1 - 1e-12; });
  const Fit& best = fits.front();
  // The runner-up must predict differently, or it is the same hypothesis under another name.
  // Predictions that differ only by a constant factor are the same hypothesis to a fit with a free
  // scale, so compare the ratios.
  auto same_shape = [&](const Fit& f) {
    for (std::size_t i = 0; i < f.predicted.size(); ++i)
      if (f.predicted[i] * best.predicted.front() != best.predicted[i] * f.predicted.front()) return false;
    return true;
  };
  const Fit* runner = nullptr;
  for (const Fit& f : fits)
    if (!same_shape(f)) {
      runner = &f;
      break;
    }

  BankInference r;
  r.geometry = best.g;
  r.cycles_per_wavefront = best.scale;
  r.rms_log_error = best.rms;
  r.noise_log = best.noise;
  if (runner) {
    r.runner_up = runner->g;
    r.runner_up_rms_log_error = runner->rms;
    // The posterior of the best shape among every distinct one (equal priors), with Laplace
    // residuals of scale b: a fit's likelihood is exp(-L1 / b). Geometries of the best's shape
    // are the same hypothesis and count once.
    const double b = std::max(best.noise, kNoiseFloorLog);
    double others = 0;
    std::vector<const Fit*> shapes;  // one (the best-fitting) geometry per shape other than the best's
    for (const Fit& f : fits) {
      if (same_shape(f)) continue;
      const bool seen = std::any_of(shapes.begin(), shapes.end(), [&](const Fit* g) {
        for (std::size_t i = 0; i < f.predicted.size(); ++i)
          if (f.predicted[i] * g->predicted.front() != g->predicted[i] * f.predicted.front()) return false;
        return true;
      });
      if (seen) continue;
      shapes.push_back(&f);
      others += std::exp(-(f.l1 - best.l1) / b);
    }
    const bool at_edge = best.g.banks == kMaxBanks || best.g.bank_bytes == 16;
    r.confidence = at_edge ? 0.0 : 1.0 / (1.0 + others);
  }
  return r;
}

}  // namespace archbench
