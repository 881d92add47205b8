// Cache geometry from latency measurements (pure C++, no CUDA; unit-tested against a cache
// simulator). The GPU side (fixtures/geometry_runner) supplies a function "average latency of a
// chase with these parameters"; everything here decides what to measure next and what it means.
//
//  - Capacity: coarse doubling of the footprint until some accesses miss (the average rises by 4
//    noise widths and 1 % above the hit level), then bisection down to one step (a line) between the last
//    footprint without misses and the first with. Confidence: the jump to the miss level against
//    the noise, and how many measurements disagree with one edge. A set-associative cache misses
//    first in a few sets, so the edge is the onset, not the midpoint; a fit of the transition
//    past the onset gives the capacity. Confidence: the fit's posterior mass within 3 %.
//  - Fetch granularities (Mei & Chu's first stage): at a footprint far beyond every cache, a chase
//    of stride s makes a new fill every g bytes, so the average latency is a staircase in s; the
//    best fit over power-of-two g1 <= g2 (the L1's fill from L2, the L2's fill from DRAM) wins.
//  - Line (tag granularity): with one element every s bytes, a cache of L lines holds L x s bytes
//    of footprint once s >= line. Strides that are not powers of two spread the lines evenly over
//    the sets, so line = s x capacity / apparent capacity(s) for every such s above the line.
//  - Sets and ways (Mei & Chu's last stage): n elements D bytes apart all hit while
//    n <= max(ways, capacity / D) under modulo set indexing; the floor is the ways, and the
//    spacing where it starts is sets x line. A hashed index shows no floor: then nothing is said.
//  - Replacement: a cyclic chase one line beyond the capacity misses on every access under LRU
//    (each line is evicted just before it is needed again); other policies keep part of it.
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace archbench {

using LatencyAt = std::function<double(std::size_t)>;  // footprint (or element count) -> cycles

// A capacity is "right" within this share of the true one (the tolerance every capacity
// confidence refers to).
inline constexpr double kCapacityTolerance = 0.03;

// The transition from all hits to all misses of a set-associative LRU cache whose set index is a
// hash (an H100's L1 and L2): a set holding more lines than its W ways misses on all of them, and
// with n lines hashed over C / W sets a set receives Poisson(W n / C) lines, so the share of
// accesses that miss is P(Poisson(W n / C) >= W). Misses start well below C (at 0.75 C for
// W = 32) and half of them at about C. A modulo index with sequential lines misses nothing up to
// C and then ramps to all misses by C + C / W. The fit over the measured transition picks the
// index, C and W.
struct TransitionFit {
  double capacity = 0;        // bytes
  int ways = 0;               // the best W
  bool modulo_index = false;  // the transition of a modulo index (misses ramp over C / W past C)
  double rms_error = 0;       // of the miss fraction
  // The posterior probability that the capacity lies within kCapacityTolerance of `capacity`
  // (profile over W, noise from the residuals); 0 when the best C is at the search's edge.
  double confidence = 0;
};
// point_sd: the measured noise of one miss fraction (a floor under the residuals' own).
TransitionFit fit_transition(const std::vector<std::pair<double, double>>& footprint_miss_fraction, double line_bytes,
                             double point_sd = 0);
double hashed_miss_fraction(double footprint_lines, double capacity_lines, int ways);
// The same under a modulo index and sequential lines: no miss up to C; past it, each set with
// one line more than its W ways misses on all W + 1.
double modulo_miss_fraction(double footprint_lines, double capacity_lines, int ways);

struct CapacityResult {
  std::size_t capacity = 0;  // from the transition fit (a multiple of step); the onset without one
  std::size_t onset = 0;     // largest footprint with no miss seen (a multiple of step)
  int ways_fit = 0;          // W of the transition fit (0 without one)
  double fit_rms = 0;
  std::vector<std::pair<double, double>> transition;  // (footprint, miss fraction) from 5 steps below the onset up
  double hit_cycles = 0, miss_cycles = 0;
  double noise_cycles = 0;  // the noise the search was given
  // The probability that `capacity` is within kCapacityTolerance of the truth: the transition
  // fit's posterior mass there (0 when the miss level is not on a plateau: 10 % below and 10 %
  // above it the latency differs by more than a tenth of the span); without a transition
  // (transition_points 0), the probability that the onset's two bracketing footprints were
  // read on the right side of the miss threshold; 0 when no model fits the transition (the
  // onset is reported, and is not the capacity).
  double confidence = 0;
  double next_miss_fraction = 0;                       // misses at the first footprint past the capacity
  bool sharp = false;                                  // ... above 90 %: every line misses (fully associative LRU)
  std::vector<std::pair<std::size_t, double>> points;  // every footprint measured, in order
};

// Searches [start, limit]: start must be at the hit level. `step` is the resolution (a line);
// `start` and `limit` are multiples of it. noise_cycles: the standard deviation of the hit
// level's average (repeated measurements). Returns capacity 0 with confidence 0 when the latency
// never leaves the hit level up to `limit`. transition_points > 0: after the onset, footprints
// 3 % apart from the onset up are measured until two in a row miss 80 % (at most that many, and
// the limit) and fitted (fit_transition), and the fit's capacity is reported; 0: the onset is
// the capacity.
// miss_level_steps: how many 10 % steps past 1.5x the first miss the miss level may move while
// the latency still rises, less each step (0 where the next level's rise begins right away: an
// L2's far partition past its near one).
CapacityResult find_capacity(const LatencyAt& latency, std::size_t start, std::size_t limit, std::size_t step,
                             double noise_cycles, int transition_points = 0, int miss_level_steps = 2);

// Where the next level's hit plateau begins at or after `from`: the first footprint x (a
// multiple of step) with f(x) and f(1.1 x) within max(3 noise, 2 %) of each other, so that a
// search for the next capacity does not start inside the previous level's transition (which
// find_capacity would read as this level's onset). `limit` when no plateau is found below it.
std::size_t plateau_start(const LatencyAt& latency, std::size_t from, std::size_t limit, std::size_t step,
                          double noise_cycles);

struct FetchFit {
  int inner_bytes = 0;       // g1: fill granularity of the level nearest the SM (0 when one level)
  int outer_bytes = 0;       // g2: fill granularity of the next level
  double middle_cycles = 0;  // fitted latency of an access served by the middle level
  double rms_error = 0;      // cycles
  // The posterior probability of the best (g1, g2) among every candidate, from the residuals.
  double confidence = 0;
};

// curve: (stride, average latency) at a footprint beyond every cache; near: latency of a hit in
// the level nearest the SM; far: latency of an access served from the farthest level (the curve
// at a stride beyond every granularity). two_levels: whether an inner level fills separately
// (ld.ca: L1 then L2) or not (ld.cg: L2 only).
FetchFit fit_fetch_granularity(const std::vector<std::pair<double, double>>& curve, double near, double far,
                               bool two_levels);

struct LineFit {
  int line_bytes = 0;  // 0 when no stride showed the growth (a line at least the largest stride)
  // The posterior of the line among the powers of two from the base stride to the first at or
  // above the largest stride; 0 at either end (a line at most the base stride, or beyond the
  // strides: neither is told apart from its neighbours).
  double confidence = 0;
  std::vector<double> estimates;  // s x capacity / apparent capacity, per stride that grew
};
// A cache that allocates L-byte units holds max(1, s / L) / max(1, b / L) times the footprint at
// a stride s that it holds at the base stride b (for s < L every unit between two elements is
// touched; from s >= L each element has its own). Each candidate L is fitted to the logs of the
// capacities (base_capacity at base_stride, apparent: (stride, capacity) pairs) with one free
// scale, and the posterior comes from the fits' residuals (noise: the best fit's, at least 3 %
// per capacity).
LineFit infer_line_bytes(std::size_t base_stride, std::size_t base_capacity,
                         const std::vector<std::pair<std::size_t, std::size_t>>& apparent);

struct SetsWays {
  int ways = 0, sets = 0;  // 0 when the curve shows no floor (hashed index, or too few spacings)
  // The probability that both are right: the floor's readings average to the ways within half an
  // element, and the knee's two readings (2 W and W) lie on their sides of 1.5 W, each reading
  // with the relative noise of the descent's readings (capacity / spacing) about their mean.
  double confidence = 0;
  std::string note;  // why nothing was inferred, if so
};
// max_hits: (spacing D, largest element count that still all hit); capacity and line in bytes.
SetsWays infer_sets_ways(const std::vector<std::pair<std::size_t, std::size_t>>& max_hits, std::size_t capacity,
                         int line_bytes);

// The median of `runs` calls of f: a single spike (an interrupt, a clock step) cannot move a
// bisection.
LatencyAt median_of_runs(LatencyAt f, int runs);

// Replacement: a cyclic chase over 1.5x the capacity misses on (nearly) every access under LRU,
// FIFO or tree-PLRU (each line is evicted before its next use: with a hashed index a set then
// holds Poisson(1.5 W) lines, more than its W ways but for 2 % of the sets at W = 16), while random
// replacement keeps about 40 % of them (a line survives the misses between two of its uses with
// probability (1 - 1/W)^(misses)). miss_fraction_at_1_5x: measured against the latency at 4x the
// capacity (where random replacement also misses 98 %).
struct ReplacementEvidence {
  std::string policy;  // "LRU-like" (LRU, FIFO, PLRU), "random-like" or "undetermined"
  double miss_fraction_at_1_5x = 0;
  // The posterior probability of the policy named, between the two models (LRU-like: 0.965 +-
  // 0.035, random-like: 0.6 +- 0.05, each spread widened by the measurement's); 0 when undetermined
  // (the miss fraction lies more than 3 spreads from the nearer model).
  double confidence = 0;
};
// sd: the miss fraction's measurement noise.
ReplacementEvidence classify_replacement(double miss_fraction_at_1_5x, double sd = 0.01);

// Whether two chases share one store (the read-only path and the L1): each alone fits (30 % of
// the L1 each), together at 60 % each they hold 120 % of it, so a shared store misses and the
// pair's latency rises by more than a quarter. Repeated measurements of each.
struct SharingVerdict {
  bool shared = false;
  double rise_cycles = 0;  // median together - median alone
  // The probability that the rise truly lies on the side of the quarter-of-alone threshold it
  // was read on (Gaussian noise of the medians, from the repeats' spread).
  double confidence = 0;
};
SharingVerdict decide_shared_store(const std::vector<double>& alone_cycles, const std::vector<double>& together_cycles);

// Capacity from zigzag chases: the footprint's lines forwards, then backwards, cyclically. Each
// pass begins on the lines the previous pass touched last, so a cache that keeps every set's most
// recently used lines (LRU, tree-PLRU or FIFO under misses: the LRU-like policies
// classify_replacement names) hits on exactly as many lines per pass as it holds (each set its W
// ways' worth), whatever its set index; the rest miss. Past the capacity (2-3.6x of it) the
// cycles of a pass of n lines are then miss x n - (miss - hit) x H: a straight line in n whose
// slope is the miss latency and whose intercept gives H, the lines held, with no model of how the
// misses begin (the transition fit's model of a hashed index read an H100's L2 partitions 3 %
// large). A hashed index leaves a set with fewer than W lines at 2x the capacity rarely
// (P(Poisson(2W) < W): 0.3 % of the sets at W = 16).
struct ZigzagCapacity {
  double lines = 0;        // H, the lines the cache holds
  double miss_cycles = 0;  // the slope
  double sd_lines = 0;     // standard error of H: the regression's and the hit level's
  double rms_cycles = 0;   // residual of one point's cycles per step
  // The probability that H is within kCapacityTolerance of the truth, given an LRU-like policy:
  // Student's t with points - 2 degrees of freedom on H's standard error; 0 with fewer than 3
  // points or a slope not above the hit level.
  double confidence = 0;
};
// points: (lines in the footprint, cycles per step of the zigzag chase); hit_noise_cycles: the
// standard deviation of hit_cycles.
ZigzagCapacity capacity_from_zigzag(const std::vector<std::pair<double, double>>& points, double hit_cycles,
                                    double hit_noise_cycles);
// The probability that |T| <= t for Student's t with dof degrees of freedom.
double student_t_within(double t, int dof);

// Fraction of accesses that miss, from an average latency between the two levels.
double miss_fraction(double cycles, double hit_cycles, double miss_cycles);

}  // namespace archbench
