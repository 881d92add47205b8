// TLB geometry from latency-vs-footprint curves (pure C++, unit-tested on synthetic curves).
//
// Method (Mei & Chu, treating a TLB as a cache whose line is a page): a chase that touches one
// element every `stride` bytes over a footprint F costs a hit latency while the pages it touches
// fit in a TLB level, and a miss penalty more once they do not. On a curve at a fixed stride, each
// TLB level is a step up between two plateaus: the level's reach is the largest footprint whose
// latency is still nearer the lower plateau, its miss penalty the difference of the plateaus.
//
// Page size: at strides up to the page size every page of the footprint is touched, so the first
// level's reach is entries x page, whatever the stride; above it each element has a page of its
// own and the reach grows as entries x stride. The page size is the largest stride at which the
// first reach has not yet grown.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace archbench {

struct CurvePoint {
  double x = 0;  // footprint, bytes (ascending)
  double y = 0;  // latency, cycles
};

struct Plateau {
  std::size_t first = 0, last = 0;  // indices into the curve, inclusive
  double level = 0;                 // median latency of its points
  double spread = 0;                // median absolute deviation of its points
};

// Runs of at least `min_points` consecutive points within a tolerance of their running median
// (max(abs_tol, rel_tol x median)); neighbouring runs at the same level are merged.
std::vector<Plateau> find_plateaus(const std::vector<CurvePoint>& curve, double rel_tol = 0.04, double abs_tol = 4.0,
                                   std::size_t min_points = 3);

struct CacheLevelStep {
  double reach = 0;           // largest footprint nearer the lower plateau than the upper (bytes)
  double next_footprint = 0;  // first footprint past it: the reach lies in [reach, next_footprint)
  // Where the curve crosses the midpoint between the plateaus, interpolated in log footprint
  // between those two points: a point at the exact reach that half its accesses miss (an H100's
  // 8 GiB at 1 MiB strides read 616.5 cycles between 433 and 800) moves the bracket by a whole
  // step with a tenth of a cycle, the crossing by a little. Not the reach: a step at exactly E
  // entries puts the crossing half a sweep step past E.
  double crossing = 0;
  double hit_cycles = 0;           // the lower plateau's latency
  double miss_penalty_cycles = 0;  // upper plateau - lower plateau
  // The probability that the step is real and the reach bracket [reach, next_footprint) is the
  // right one: the plateaus' difference against their noise, times the chance that the two
  // footprints bracketing the reach truly lie on the sides of the midpoint they were read on.
  double confidence = 0;
};

// How find_levels tells a plateau from a step, in the curve's units. The defaults suit latencies
// in cycles; other curves (cycles per instruction) pass their own.
struct LevelTolerance {
  double rel_tol = 0.04, abs_tol = 4.0;  // a point joins a plateau within max(abs, rel x level)
  std::size_t min_points = 3;            // points of a plateau
  double noise_floor = 0.5;              // smallest noise (standard deviation) a plateau is given
};

// Every step up between consecutive plateaus, in order of footprint. A plateau lower than the one
// before it (noise, or a data-cache effect) ends no level.
std::vector<CacheLevelStep> find_levels(const std::vector<CurvePoint>& curve, const LevelTolerance& tol = {});

// One stride's reading of a level: its entries (reach / stride) and its step's confidence.
struct LevelReading {
  double stride = 0;
  double entries = 0;
  double confidence = 0;
};
// The confidence of a level's entry count E from its readings at several strides (from the page
// up, each with its own page per element): a reading of the same count is right when its bracket
// holds the edge, with the probability its confidence states, so E is right with at least the
// largest of those probabilities. A point at exactly the reach that half its accesses miss makes
// one stride's bracket a coin toss (an H100's 8192 entries at 1 MiB strides: 0.59) while the next
// stride's points lie clear of the midpoint. Readings of another count do not count.
double entries_confidence(double entries, const std::vector<LevelReading>& readings);

struct PageSizeInference {
  double page_bytes = 0;     // 0 when the strides measured do not show it
  double at_most_bytes = 0;  // the reach grew from the smallest stride on: the page is at most that
  double first_level_entries = 0;
  // The probability that the page is right: the reaches at the page and one stride above it (the
  // two that decide it) are right (their levels' confidences), and reach(s) = entries x
  // max(s, page) fits every stride (else 0).
  double confidence = 0;
};

// reach_per_stride: (stride, first-level reach at that stride), strides ascending powers of two;
// reach_confidence: each reach's level confidence (the same order; empty: taken as 1).
PageSizeInference infer_page_size(const std::vector<std::pair<double, double>>& reach_per_stride,
                                  const std::vector<double>& reach_confidence = {});

}  // namespace archbench
