// The result document the incremental reporter writes after every benchmark.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fixtures/incremental_json.hpp"

using namespace archbench;

TEST(IncrementalJson, EverySnapshotIsAValidDocumentWithTheThrottleSummary) {
  const nlohmann::ordered_json ctx = {{"date", "x"}, {"gpu_name", "G"}};
  const std::string runs = "\n    {\"name\": \"A\"},\n    {\"name\": \"B\"}";  // as JSONReporter separates them
  const auto doc = nlohmann::json::parse(result_document(ctx, runs, 2, 7));
  EXPECT_EQ(doc["context"]["archbench_throttled_benchmarks"], "2 of 7");
  EXPECT_EQ(doc["context"]["gpu_name"], "G");
  ASSERT_EQ(doc["benchmarks"].size(), 2u);
  EXPECT_EQ(doc["benchmarks"][1]["name"], "B");
  // Before any benchmark (and before the context): still a document.
  const auto empty = nlohmann::json::parse(result_document(nlohmann::ordered_json::object(), "", 0, 0));
  EXPECT_TRUE(empty["benchmarks"].empty());
}
