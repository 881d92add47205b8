// The throttle summary in the result file's context.
#include <gtest/gtest.h>

#include "fixtures/incremental_json.hpp"

using namespace archbench;

TEST(IncrementalJson, ThrottleSummaryGoesAtTheEndOfTheContext) {
  const std::string prefix = "{\n  \"context\": {\n    \"date\": \"x\"\n  },\n  \"benchmarks\": [\n    {\"name\": \"A\"}";
  const std::string out = with_throttle_summary(prefix, 2, 7);
  EXPECT_NE(out.find("\"date\": \"x\",\n    \"archbench_throttled_benchmarks\": \"2 of 7\"\n  },\n  \"benchmarks\": ["),
            std::string::npos)
      << out;
  EXPECT_EQ(with_throttle_summary("{\n  \"benchmarks\": [", 1, 1), "{\n  \"benchmarks\": [");  // no context yet
}
