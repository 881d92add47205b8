// Child processes with a time limit, and merging Google Benchmark JSON (no GPU needed).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>

#include "benchmarks/shell/supervisor.hpp"

using namespace archbench;

TEST(Supervisor, ChildOutcomes) {
  EXPECT_TRUE(run_child({"/bin/true"}, 10).ok());
  const ChildOutcome f = run_child({"/bin/sh", "-c", "exit 3"}, 10);
  EXPECT_EQ(f.kind, ChildOutcome::Kind::exited);
  EXPECT_EQ(f.code, 3);
  const ChildOutcome s = run_child({"/bin/sh", "-c", "kill -SEGV $$"}, 10);
  EXPECT_EQ(s.kind, ChildOutcome::Kind::signaled);
  EXPECT_EQ(s.signal, 11);
  const ChildOutcome t = run_child({"/bin/sleep", "30"}, 0.3);  // a hung child is killed
  EXPECT_EQ(t.kind, ChildOutcome::Kind::timed_out);
  EXPECT_LT(t.seconds, 5);
  EXPECT_NE(t.describe().find("was killed"), std::string::npos);
  EXPECT_EQ(run_child({"/nonexistent/binary"}, 5).kind, ChildOutcome::Kind::not_started);
}

TEST(Supervisor, SplitsAndJoinsBenchmarkJson) {
  const std::string text = R"({
  "context": {"gpu_name": "X {weird} \"quoted\"", "n": 3},
  "benchmarks": [
    {"name": "A/1", "counters": {"x": [1, 2]}},
    {"name": "B/]2", "v": -1.5e3}
  ]
})";
  const auto parts = split_benchmark_json(text);
  ASSERT_TRUE(parts);
  EXPECT_EQ(nlohmann::json::parse(parts->context),
            nlohmann::json::parse(R"({"gpu_name": "X {weird} \"quoted\"", "n": 3})"));
  ASSERT_EQ(parts->benchmarks.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(parts->benchmarks[1]), nlohmann::json::parse(R"({"name": "B/]2", "v": -1.5e3})"));
  std::vector<std::string> all = parts->benchmarks;
  all.push_back(error_benchmark_json("C/child", "killed \"after\" 5 s"));
  const auto again = split_benchmark_json(join_benchmark_json(parts->context, all));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->benchmarks.size(), 3u);
  EXPECT_EQ(nlohmann::json::parse(again->benchmarks[2])["error_message"], "killed \"after\" 5 s");
  EXPECT_FALSE(split_benchmark_json("{\"context\": {}, \"benchmarks\": [{\"name\": 1}"));  // truncated
  EXPECT_FALSE(split_benchmark_json("[]"));
}

// Google Benchmark writes a non-finite aggregate (the cv of a counter that is 0 in every
// repetition) as a bare -NaN: the child's results are read with it as null, not dropped.
TEST(Supervisor, ReadsNonFiniteCountersOfRepetitionsAsNull) {
  const std::string text = R"({"context": {"x": 1}, "benchmarks": [
    {"name": "F/a_cv", "run_type": "aggregate", "clock_event_reasons": -NaN, "b": NaN, "c": Infinity, "d": [1, -inf],
     "label": "not a nan or inf inside a string"}]})";
  const auto parts = split_benchmark_json(text);
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->benchmarks.size(), 1u);
  const auto b = nlohmann::json::parse(parts->benchmarks[0]);
  EXPECT_TRUE(b["clock_event_reasons"].is_null());
  EXPECT_TRUE(b["b"].is_null());
  EXPECT_TRUE(b["c"].is_null());
  EXPECT_TRUE(b["d"][1].is_null());
  EXPECT_EQ(b["label"], "not a nan or inf inside a string");
}

TEST(Supervisor, AtomicWrite) {
  const std::string path = testing::TempDir() + "/archbench_supervisor_test.json";
  write_file_atomically(path, "one");
  write_file_atomically(path, "two");
  EXPECT_EQ(read_file(path).value_or(""), "two");
  std::remove(path.c_str());
  EXPECT_FALSE(read_file(path));
}
