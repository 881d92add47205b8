// The headlines' choice among candidate shapes: refusals, finalists, and the rates it reports.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/best_candidate.hpp"

using namespace archbench;

namespace {
struct Shape {
  std::string name;
  double true_rate;
};
std::string name_of(const Shape& s) { return s.name; }
}  // namespace

TEST(BestCandidate, AFinalistThatWasLuckyOnceLosesToTheShapeThatIsFaster) {
  const std::vector<Shape> shapes = {{"steady", 100.0}, {"lucky", 99.0}, {"slow", 90.0}};
  std::map<std::string, int> calls;
  // "lucky" reads 101 on its first measurement only; every other measurement is its true rate.
  const auto rate_of = [&](const Shape& s) { return ++calls[s.name] == 1 && s.name == "lucky" ? 101.0 : s.true_rate; };
  const auto choice = best_candidate(shapes, rate_of, name_of, 2, 3);
  ASSERT_NE(choice.best, nullptr);
  EXPECT_EQ(choice.best->name, "steady");
  ASSERT_EQ(choice.tried.size(), 3u);
  EXPECT_EQ(choice.tried[0], std::make_pair(100.0, std::string("steady")));
  EXPECT_EQ(choice.tried[1], std::make_pair(99.0, std::string("lucky")));  // its finalists' median
  EXPECT_EQ(choice.tried[2], std::make_pair(90.0, std::string("slow")));   // measured once
  EXPECT_EQ(calls["steady"], 4);
  EXPECT_EQ(calls["lucky"], 4);
  EXPECT_EQ(calls["slow"], 1);
}

TEST(BestCandidate, WithoutFinalRoundsTheFirstRoundDecides) {
  const std::vector<Shape> shapes = {{"a", 1.0}, {"b", 3.0}, {"c", 2.0}};
  const auto choice = best_candidate(shapes, [](const Shape& s) { return s.true_rate; }, name_of, 4, 0);
  EXPECT_EQ(choice.best->name, "b");
  EXPECT_EQ(choice.tried.front().second, "b");
  EXPECT_EQ(choice.tried.back().second, "a");
}

TEST(BestCandidate, ShapesTheGpuRefusesAreLeftOutAndNoneLeftIsAnError) {
  const std::vector<Shape> shapes = {{"refused", 0}, {"runs", 5.0}};
  const auto rate_of = [](const Shape& s) {
    if (s.name == "refused") throw std::invalid_argument("too many warps");
    return s.true_rate;
  };
  const auto choice = best_candidate(shapes, rate_of, name_of, 4, 3);
  EXPECT_EQ(choice.best->name, "runs");
  EXPECT_EQ(choice.tried.size(), 1u);
  const std::vector<Shape> none = {{"refused", 0}};
  try {
    best_candidate(none, rate_of, name_of, 4, 3);
    FAIL() << "no candidate ran, yet a choice came back";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("refused: too many warps"), std::string::npos) << e.what();
  }
}

// Many shapes within 0.1 % of each other and one 0.05 % faster, each measurement with 0.05 % noise:
// the finalists' medians pick the faster shape more often than one measurement per shape does.
TEST(BestCandidate, FinalistsPickTheFastestOfNearEqualShapesMoreOftenThanOneRound) {
  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0.0, 0.0005);
  std::vector<Shape> shapes;
  for (int i = 0; i < 20; ++i) shapes.push_back({"s" + std::to_string(i), 1.0 - 0.00005 * i});
  shapes.push_back({"fastest", 1.0005});
  const auto rate_of = [&](const Shape& s) { return s.true_rate * (1.0 + noise(rng)); };
  int single = 0, finals = 0;
  for (int trial = 0; trial < 400; ++trial) {
    single += best_candidate(shapes, rate_of, name_of, 4, 0).best->name == "fastest";
    finals += best_candidate(shapes, rate_of, name_of, 4, 3).best->name == "fastest";
  }
  std::printf("one round picked the fastest %d times of 400, the finalists %d\n", single, finals);
  EXPECT_GT(finals, single + 20) << "one round " << single << ", finalists " << finals << " of 400";
}
