// Shared-memory banks (pure C++, unit-tested on synthetic data): the access patterns the SmemBanks
// feature measures, the bank model that predicts what a pattern costs, and the inference of the
// bank geometry from measured costs.
//
// Bank model (Mei & Chu): shared memory is `banks` banks of `bank_bytes` each; the byte at address
// a is in bank (a / bank_bytes) % banks, row a / (bank_bytes x banks). A bank serves one row per
// pass (wavefront), and every lane that reads that row is served by it (broadcast). A warp access
// therefore takes as many wavefronts as the most distinct rows any one bank is asked for. For
// 4-byte accesses at a stride of s words on 32 banks of 4 B that is gcd(s, 32).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace archbench {

// The byte offset each lane of a warp reads, and how many bytes it reads there.
struct SmemPattern {
  std::string name;      // "stride:3", "broadcast", "multicast:4/group_stride:1", ...
  int access_bytes = 4;  // 4, 8 or 16; offsets are multiples of it
  std::vector<std::uint32_t> lane_offsets;
  std::uint32_t bytes_spanned() const;  // highest offset + access_bytes
};

// Lane l reads element l x stride (elements of access_bytes). stride 0 is a broadcast.
SmemPattern stride_pattern(int access_bytes, int stride_elements, int lanes);
// Every lane reads element 0.
SmemPattern broadcast_pattern(int access_bytes, int lanes);
// Groups of `group` consecutive lanes read one element; group g reads element g x group_stride.
SmemPattern multicast_pattern(int access_bytes, int group, int group_stride_elements, int lanes);
// The lanes read the elements 0..lanes-1 in a random order (seeded): conflict-free on any
// geometry where consecutive elements are in consecutive banks.
SmemPattern permutation_pattern(int access_bytes, int lanes, std::uint64_t seed);
// Each lane reads a random element of 0..range-1 (seeded, repeats allowed).
SmemPattern random_pattern(int access_bytes, int range_elements, int lanes, std::uint64_t seed);

struct BankGeometry {
  int banks = 0;
  int bank_bytes = 0;
};

// Wavefronts one warp access of the pattern takes under the bank model (at least 1).
int model_wavefronts(const BankGeometry& g, const SmemPattern& p);

// The bank model refined for wide accesses, as measured on an H100 (README, SmemBanks): the
// lanes are taken in units of two rows of data (the whole warp at 4 and 8 B, each half-warp at
// 16 B); a unit that the bank model serves in one wavefront takes one, any other unit is split
// into groups of one row of data, each costing its bank-model wavefronts. At 4 B it is the bank
// model; it differs where wide accesses are permuted or broadcast.
int wide_model_wavefronts(const BankGeometry& g, const SmemPattern& p);

// One measured pattern: its cost in SM cycles per warp access, at a throughput where the cost of
// the banks is the limit (many warps, independent loads).
struct BankObservation {
  SmemPattern pattern;
  double cycles_per_access = 0;
};

struct BankInference {
  BankGeometry geometry;
  double cycles_per_wavefront = 0;  // the fitted scale (median ratio): cycles = scale x wavefronts
  double rms_log_error = 0;         // natural log of measured / predicted, over all observations
  double noise_log = 0;             // robust residual scale (median |log residual| / ln 2)
  BankGeometry runner_up;           // the best geometry that predicts a different shape
  double runner_up_rms_log_error = 0;
  // The posterior probability of the best geometry's shape among every distinct shape the
  // candidates predict (Laplace residuals of the fitted scale, equal priors). 0 when the best
  // geometry is at the edge of the candidates (256 banks or 16-byte banks): the truth may lie
  // beyond what the sweep can tell apart.
  double confidence = 0;
};

// Fits every geometry of `banks` in {4, 8, ..., 256} x `bank_bytes` in {4, 8, 16} to the
// observations (in log space, one scale per geometry, least summed |residual|) and returns the
// best. Geometries whose predictions have the same shape on every observation tie; the narrowest
// bank width, then the fewest banks, wins.
// Throws std::invalid_argument on fewer than two observations or a non-positive cost.
BankInference infer_bank_geometry(const std::vector<BankObservation>& observations);

}  // namespace archbench
