// Where a short single-SM chase sits in the L2 (pure C++, unit-tested on synthetic maps).
//
// An L2 hit's latency depends on the SM and on the slice that holds the line: on an H200 one SM's
// lines read 260-350 cycles, and a chase of a few KiB touches a few slices, so its figure followed
// the lines it happened to get (274-285 cycles by board). A chase over the lines at the SM's
// average distance reads what the SM reads over the whole L2: place_lines picks, among a region's
// line offsets, the one whose lines' mean latency from the SM is nearest that average.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <stdexcept>
#include <vector>

namespace archbench {

struct LinePlacement {
  std::size_t offset_lines = 0;  // the chase's first line, in lines from the region's start
  double mean_cycles = 0;        // its lines' mean latency (the map's units)
};

// per_line[i]: line i's latency from the SM. The chase reads `count` lines `stride_lines` apart
// from its first line; candidates are offsets 0 .. candidates - 1 whose lines all lie in per_line.
// Returns the offset whose mean is nearest `target`, ties to the smaller offset. Throws
// std::invalid_argument when no candidate fits.
inline LinePlacement place_lines(const std::vector<float>& per_line, std::size_t stride_lines, std::size_t count,
                                 std::size_t candidates, double target) {
  if (stride_lines == 0 || count == 0 || candidates == 0 || (count - 1) * stride_lines >= per_line.size())
    throw std::invalid_argument("place_lines: the chase does not fit the mapped region");
  const std::size_t fit = per_line.size() - (count - 1) * stride_lines;
  // sums[i]: the lines i, i - stride, i - 2 stride, ... summed, so that each candidate's sum is
  // one difference (a 1 MiB chase over 1 MiB of candidates is 8192 x 8192 lines otherwise).
  std::vector<double> sums(per_line.size());
  for (std::size_t i = 0; i < per_line.size(); ++i)
    sums[i] = double(per_line[i]) + (i >= stride_lines ? sums[i - stride_lines] : 0.0);
  LinePlacement best;
  double best_gap = INFINITY;
  for (std::size_t o = 0; o < candidates && o < fit; ++o) {
    const double sum = sums[o + (count - 1) * stride_lines] - (o >= stride_lines ? sums[o - stride_lines] : 0.0);
    const double mean = sum / double(count), gap = std::abs(mean - target);
    if (gap < best_gap) best_gap = gap, best = {o, mean};
  }
  return best;
}

// Copies of one or more lines each (AsyncCopy's latency copies: `copies[k]` the lines copy k's
// bytes or box rows cover, from the first): a copy is done when its slowest line arrives, so their
// figure follows the mean over copies of each copy's slowest line, not the mean of every line (two
// placements of 32 copies of 256 B whose lines' means were both at the target read 459.5 and 466.0
// cycles on one H200). If a line's latency is an SM term plus the line's own (the L2 map's additive
// fit), a copy's slowest line is the SM's term plus one that depends on its lines alone. The
// target is therefore what each copy's shape reads at every position of the map (the mean over
// positions of its slowest line: the map's mean for a copy of one line), moved by `sm_shift` (how
// far the GPU's median SM's lines sit from this SM's): copies placed there read on this SM what
// they typically read on the median SM. Not the median over the candidates: they share most of
// their lines (copies 4 KiB apart, offsets 128 B apart), and that median missed the map's mean by
// up to 1.3 % for copies of one line. Candidates are offsets 0 .. candidates - 1 that keep every
// line in per_line; ties to the smaller offset. Throws std::invalid_argument when none fits.
struct CopyPlacement {
  std::size_t offset_lines = 0;    // the copies' first line, in lines from the region's start
  double slowest_mean_cycles = 0;  // at that offset, the mean over copies of their slowest line
  double target_cycles = 0;        // the copies' shapes' typical slowest line, plus sm_shift
};
inline CopyPlacement place_copies(const std::vector<float>& per_line,
                                  const std::vector<std::vector<std::size_t>>& copies, std::size_t candidates,
                                  double sm_shift) {
  std::size_t last = 0;
  for (const auto& c : copies)
    for (const std::size_t l : c) last = l > last ? l : last;
  const bool empty = copies.empty() || std::any_of(copies.begin(), copies.end(), [](const auto& c) { return c.empty(); });
  if (empty || candidates == 0 || last >= per_line.size())
    throw std::invalid_argument("place_copies: the copies do not fit the mapped region");
  const auto slowest = [&](const std::vector<std::size_t>& c, std::size_t at) {  // c's slowest line, `at` lines on
    float s = per_line[at + c.front()];
    for (const std::size_t l : c) s = std::max(s, per_line[at + l]);
    return double(s);
  };
  // Each shape (a copy's lines less its first) once: 32 copies mostly share one.
  std::map<std::vector<std::size_t>, double> typical;
  double target = 0;
  for (const auto& c : copies) {
    std::vector<std::size_t> shape(c);
    for (std::size_t& l : shape) l -= c.front();
    auto [it, fresh] = typical.try_emplace(shape, 0.0);
    if (fresh) {
      const std::size_t positions = per_line.size() - shape.back();
      double sum = 0;
      for (std::size_t p = 0; p < positions; ++p) sum += slowest(shape, p);
      it->second = sum / double(positions);
    }
    target += it->second;
  }
  CopyPlacement best;
  best.target_cycles = target / double(copies.size()) + sm_shift;
  double best_gap = INFINITY;
  for (std::size_t o = 0; o < candidates && o + last < per_line.size(); ++o) {
    double sum = 0;
    for (const auto& c : copies) sum += slowest(c, o);
    const double figure = sum / double(copies.size());
    if (const double gap = std::abs(figure - best.target_cycles); gap < best_gap)
      best_gap = gap, best.offset_lines = o, best.slowest_mean_cycles = figure;
  }
  return best;
}

// Per element of a chase, one line among its candidates so that the chosen lines' mean is
// nearest `target`: candidates[k * per + j] is element k's candidate j (the same page, another
// line). Greedy: element k takes the candidate that brings the mean of elements 0..k nearest the
// target, so later elements make up for earlier ones. One shift for the whole chain left 153 of 717
// chases of 2-31 lines on an H200 more than 1.4 cycles off (up to 7.3: the 32 shifts of 16 KiB gave
// no pair nearer); each element's own nearest line did worse (median 2.3 cycles off), because the
// lines of 16 KiB of a page reach few slices and an element's nearest all lie on one side.
// Throws std::invalid_argument when the candidates are not count x per.
struct LineChoice {
  std::vector<std::size_t> choice;  // per element: its candidate
  double mean_cycles = 0;           // the chosen lines' mean latency
};
inline LineChoice lines_for_mean(const std::vector<float>& candidates, std::size_t per, std::size_t count,
                                 double target) {
  if (per == 0 || count == 0 || candidates.size() < per * count)
    throw std::invalid_argument("lines_for_mean: fewer candidates than count x per");
  LineChoice out;
  double sum = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const auto gap = [&](std::size_t j) { return std::abs((sum + candidates[k * per + j]) / double(k + 1) - target); };
    std::size_t best = 0;
    for (std::size_t j = 1; j < per; ++j)
      if (gap(j) < gap(best)) best = j;
    out.choice.push_back(best);
    sum += candidates[k * per + best];
  }
  out.mean_cycles = sum / double(count);
  return out;
}

}  // namespace archbench
