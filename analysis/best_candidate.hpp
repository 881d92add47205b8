// Choosing the best of a level's candidate shapes (pure C++, unit-tested on synthetic rates).
//
// Every candidate is measured once; the `finalists` best of that round are measured `rounds` times
// more, and the one with the best median of those wins, its rate that median. One measurement per
// candidate picks the luckiest of near-equal shapes: on an H200 the DRAM read's first-round winner
// read 4.730 TB/s measured again where another shape read 4.7335 (docs/bandwidth.md).
#pragma once
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "analysis/stats.hpp"

namespace archbench {

template <class C>
struct CandidateChoice {
  const C* best = nullptr;
  std::vector<std::pair<double, std::string>> tried;  // every rate, best first (finalists by their median)
};

// rate_of(c) measures candidate c (a higher rate is better); a shape the GPU cannot run throws
// std::invalid_argument and is left out. Throws std::invalid_argument when no candidate ran.
template <class C, class RateOf, class NameOf>
CandidateChoice<C> best_candidate(const std::vector<C>& candidates, RateOf rate_of, NameOf name_of,
                                  std::size_t finalists, int rounds) {
  std::vector<std::pair<double, const C*>> ran;
  std::string refused;
  for (const C& c : candidates) {
    try {
      ran.emplace_back(rate_of(c), &c);
    } catch (const std::invalid_argument& e) {
      refused = name_of(c) + ": " + e.what();
    }
  }
  if (ran.empty()) throw std::invalid_argument("no candidate ran" + (refused.empty() ? "" : " (" + refused + ")"));
  const auto faster = [](const auto& a, const auto& b) { return a.first > b.first; };
  std::stable_sort(ran.begin(), ran.end(), faster);
  for (std::size_t i = 0; rounds > 0 && i < std::min(finalists, ran.size()); ++i) {
    std::vector<double> rates;
    for (int round = 0; round < rounds; ++round) rates.push_back(rate_of(*ran[i].second));
    ran[i].first = median(rates);
  }
  std::stable_sort(ran.begin(), ran.end(), faster);
  CandidateChoice<C> choice;
  choice.best = ran.front().second;
  for (const auto& [rate, c] : ran) choice.tried.emplace_back(rate, name_of(*c));
  return choice;
}

}  // namespace archbench
