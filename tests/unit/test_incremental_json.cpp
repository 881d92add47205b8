// The result document the incremental reporter writes after every benchmark.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "benchmarks/shell/incremental_json.hpp"
#include "benchmarks/shell/supervisor.hpp"
#include "fixtures/harness/entry_fields.hpp"

using namespace archbench;

// A run as Google Benchmark hands it to a reporter.
benchmark::BenchmarkReporter::Run run(const std::string& name) {
  benchmark::BenchmarkReporter::Run r;
  r.run_name.function_name = name;
  r.iterations = 1;
  r.time_unit = benchmark::kMicrosecond;
  return r;
}

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

// The time accounting: each benchmark's wall_time_s (from the end of the previous one, set-up
// included) and the context's per-feature, start-up and total seconds, kept current.
TEST(IncrementalJson, EveryBenchmarkAndFeatureCarriesItsWallTime) {
  const std::string path = ::testing::TempDir() + "archbench_wall_time.json";
  IncrementalJsonReporter reporter(path, nullptr);
  reporter.ReportContext(benchmark::BenchmarkReporter::Context());
  reporter.ReportRuns({run("MemLatency/chain/a")});
  reporter.ReportRuns({run("MemLatency/chain/b")});
  reporter.ReportRuns({run("Bandwidth/read/c")});
  reporter.Finalize();
  const auto doc = nlohmann::json::parse(*read_file(path));
  ASSERT_EQ(doc["benchmarks"].size(), 3u);
  for (const auto& b : doc["benchmarks"]) {
    ASSERT_TRUE(b.contains("wall_time_s")) << b["name"];
    EXPECT_GE(b["wall_time_s"].get<double>(), 0.0);
  }
  const auto& ctx = doc["context"];
  for (const char* key : {"archbench_wall_seconds_startup", "archbench_wall_seconds_MemLatency",
                          "archbench_wall_seconds_Bandwidth", "archbench_wall_seconds_total"})
    ASSERT_TRUE(ctx.contains(key)) << key;
  EXPECT_FALSE(ctx.contains("archbench_wall_seconds_MemLatency/chain"));
  EXPECT_EQ(feature_of("Tlb/latency/ld.ca"), "Tlb");
  EXPECT_EQ(seconds_text(12.345), "12.3");
}

// archbench's own context entries (the health watch's object): set before the context is
// reported, the file carries them from its first context on; set after the last benchmark, the
// file is rewritten with them, its entries kept.
TEST(IncrementalJson, OwnContextEntriesAreObjectsAndSurviveTheContext) {
  const std::string path = ::testing::TempDir() + "archbench_own_context.json";
  IncrementalJsonReporter reporter(path, nullptr);
  reporter.set_context("archbench_health", {{"counters", {{"x", {{"before", 0}}}}}});
  reporter.ReportContext(benchmark::BenchmarkReporter::Context());
  reporter.ReportRuns({run("Launch/end_to_end")});
  EXPECT_EQ(nlohmann::json::parse(*read_file(path))["context"]["archbench_health"]["counters"]["x"]["before"], 0);
  reporter.Finalize();
  reporter.set_context("archbench_health", {{"counters", {{"x", {{"before", 0}, {"after", 2}}}}}});
  const auto doc = nlohmann::json::parse(*read_file(path));
  EXPECT_EQ(doc["context"]["archbench_health"]["counters"]["x"]["after"], 2);
  ASSERT_EQ(doc["benchmarks"].size(), 1u);
}

// Each entry carries what its label declares as fields of its own: no tool parses the label.
TEST(IncrementalJson, EveryEntryCarriesItsDeclarationsAsFields) {
  const std::string path = ::testing::TempDir() + "archbench_declared.json";
  IncrementalJsonReporter reporter(path, nullptr);
  reporter.ReportContext(benchmark::BenchmarkReporter::Context());
  auto declared = run("Geometry/l1/capacity/carveout:0");
  declared.report_label = "primary=capacity_bytes:5%,hit_cycles:lower | method=3f2a9c1b7e40 | onset | at 240 KiB";
  auto bare = run("Launch/end_to_end");
  bare.report_label = "a note alone";
  reporter.ReportRuns({declared});
  reporter.ReportRuns({bare});
  reporter.Finalize();
  const auto doc = nlohmann::json::parse(*read_file(path));
  const auto& d = doc["benchmarks"][0];
  EXPECT_EQ(d["primary"], nlohmann::json::parse(R"([{"counter": "capacity_bytes", "how": "value", "tolerance_pct": 5.0},
                                                    {"counter": "hit_cycles", "how": "lower"}])"));
  EXPECT_EQ(d["method"], "3f2a9c1b7e40");
  EXPECT_EQ(d["note"], "onset | at 240 KiB");
  EXPECT_EQ(d["label"], declared.report_label);  // the label stays, for Google Benchmark's console
  EXPECT_FALSE(doc["benchmarks"][1].contains("primary"));
}

// A benchmark's own structured fields (fixtures/harness/entry_fields.hpp: the integrity screen's
// mismatches) go into its entry as JSON, each repetition's into its own, and into no other entry.
TEST(IncrementalJson, AnEntryCarriesTheFieldsItsBenchmarkAdded) {
  const std::string path = ::testing::TempDir() + "archbench_entry_fields.json";
  IncrementalJsonReporter reporter(path, nullptr);
  reporter.ReportContext(benchmark::BenchmarkReporter::Context());
  // two repetitions of one benchmark, each with its own fields, reported together as Google
  // Benchmark does: each entry takes its own, in order
  add_entry_fields("Integrity/ffma", {{"mismatches_found", nlohmann::ordered_json::parse(R"([{"sm": 3, "lane": 7}])")}});
  add_entry_fields("Integrity/ffma", {{"mismatches_found", nlohmann::ordered_json::array()}});
  reporter.ReportRuns({run("Integrity/ffma"), run("Integrity/ffma")});
  reporter.ReportRuns({run("Integrity/mma")});
  reporter.Finalize();
  const auto doc = nlohmann::json::parse(*read_file(path));
  EXPECT_EQ(doc["benchmarks"][0]["mismatches_found"][0]["sm"], 3);
  EXPECT_TRUE(doc["benchmarks"][1]["mismatches_found"].empty());
  EXPECT_FALSE(doc["benchmarks"][2].contains("mismatches_found"));
  EXPECT_EQ(take_entry_fields("Integrity/ffma", " "), "");  // taken when its entries were written
}

// Each entry carries its family and sweep axes beside its name, integers as numbers and anything
// else as the name writes it, so that no script takes a name apart.
TEST(IncrementalJson, EveryEntryCarriesItsFamilyAndAxes) {
  const std::string path = ::testing::TempDir() + "archbench_axes.json";
  IncrementalJsonReporter reporter(path, nullptr);
  reporter.ReportContext(benchmark::BenchmarkReporter::Context());
  reporter.ReportRuns({run("MemLatency/chain/ld.cg/footprint:4096/stride:128")});
  reporter.ReportRuns({run("L2Persist/kept/hit_ratio:0.5"), run("Launch/end_to_end")});
  reporter.Finalize();
  const auto doc = nlohmann::json::parse(*read_file(path));
  ASSERT_EQ(doc["benchmarks"].size(), 3u);
  const auto& m = doc["benchmarks"][0];
  EXPECT_EQ(m["family"], "MemLatency/chain/ld.cg");
  EXPECT_EQ(m["axes"]["footprint"], 4096);
  EXPECT_EQ(m["axes"]["stride"], 128);
  EXPECT_EQ(doc["benchmarks"][1]["axes"]["hit_ratio"], "0.5");
  EXPECT_EQ(doc["benchmarks"][2]["family"], "Launch/end_to_end");
  EXPECT_TRUE(doc["benchmarks"][2]["axes"].empty());
  EXPECT_EQ(family_and_axes("X/n:007/k:12"), R"("family": "X", "axes": {"n":"007","k":12})");
}

// Fields go to the entry of their own run: a run whose entry has no run_name line gets none, and
// the next run's entry still gets its own.
TEST(IncrementalJson, FamilyAndAxesGoToTheirOwnEntry) {
  const std::string entries =
      "    {\n      \"name\": \"A/k:1\",\n      \"run_type\": \"iteration\"\n    },\n"
      "    {\n      \"name\": \"B/k:2\",\n      \"run_name\": \"B/k:2\",\n      \"run_type\": \"iteration\"\n    }";
  const std::string out = with_family_and_axes(entries, {run("A/k:1"), run("B/k:2")});
  const auto doc = nlohmann::json::parse("[" + out + "]");
  EXPECT_FALSE(doc[0].contains("family"));
  EXPECT_EQ(doc[1]["family"], "B");
  EXPECT_EQ(doc[1]["axes"]["k"], 2);
}
