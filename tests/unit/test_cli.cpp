#include <gtest/gtest.h>

#include <map>
#include <set>

#include "benchmarks/shell/cli.hpp"

using namespace archbench;

namespace {
struct FakeEnv {
  std::map<std::string, std::string> vars;
  const char* operator()(const char* k) const {
    auto it = vars.find(k);
    return it == vars.end() ? nullptr : it->second.c_str();
  }
};
CliOptions parse(std::vector<std::string> args, FakeEnv env = {}) {
  args.insert(args.begin(), "archbench");
  return parse_cli(args, env);
}
}  // namespace

TEST(Cli, DefaultsAndPassThrough) {
  const CliOptions o = parse({"--benchmark_filter=MemLatency", "--benchmark_repetitions=3"});
  EXPECT_EQ(o.device, 0);
  EXPECT_FALSE(o.quick);
  EXPECT_EQ(o.rest,
            (std::vector<std::string>{"archbench", "--benchmark_filter=MemLatency", "--benchmark_repetitions=3"}));
}

TEST(Cli, OwnOptionsAreTakenOut) {
  const CliOptions o = parse({"--device=1", "--quick", "--results_dir=out", "--tag=nightly", "--info", "--x"});
  EXPECT_EQ(o.device, 1);
  EXPECT_TRUE(o.quick);
  EXPECT_TRUE(o.info);
  EXPECT_EQ(o.results_dir, "out");
  EXPECT_EQ(o.tag, "nightly");
  EXPECT_EQ(o.rest, (std::vector<std::string>{"archbench", "--x"}));
}

TEST(Cli, EnvironmentAndFlagPrecedence) {
  FakeEnv env{{{"ARCHBENCH_DEVICE", "3"}, {"ARCHBENCH_QUICK", "1"}}};
  EXPECT_EQ(parse({}, env).device, 3);
  EXPECT_TRUE(parse({}, env).quick);
  EXPECT_EQ(parse({"--device=2"}, env).device, 2);
  EXPECT_FALSE(parse({}, FakeEnv{{{"ARCHBENCH_QUICK", "0"}}}).quick);
}

TEST(Cli, BadValuesGiveOneLineErrors) {
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--device=abc"},
                                                               {"--device=-1"},
                                                               {"--device="},
                                                               {"--device"},
                                                               {"--device=1x"},
                                                               {"--results_dir="},
                                                               {"--tag=a/b"},
                                                               {"--reference_sm=-1"},
                                                               {"--reference_sm=x"},
                                                               {"--reference_sm="}}) {
    try {
      parse(bad);
      ADD_FAILURE() << "accepted " << bad[0];
    } catch (const CliError& e) {
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
  EXPECT_THROW(parse({}, FakeEnv{{{"ARCHBENCH_DEVICE", "gpu0"}}}), CliError);
}

TEST(Cli, ReferenceSmIsChosenUnlessGiven) {
  EXPECT_EQ(parse({}).reference_sm, -1);
  EXPECT_EQ(parse({"--reference_sm=14"}).reference_sm, 14);
  FakeEnv env{{{"ARCHBENCH_REFERENCE_SM", "7"}}};
  EXPECT_EQ(parse({}, env).reference_sm, 7);
  EXPECT_EQ(parse({"--reference_sm=3"}, env).reference_sm, 3);
  EXPECT_EQ(parse({"--reference_sm=3"}).rest.size(), 1u) << "taken out before Google Benchmark parses";
}

TEST(Cli, GpuSlug) {
  EXPECT_EQ(gpu_slug("NVIDIA H100 80GB HBM3"), "nvidia-h100-80gb-hbm3");
  EXPECT_EQ(gpu_slug("NVIDIA GeForce RTX 4090"), "nvidia-geforce-rtx-4090");
  EXPECT_EQ(gpu_slug("Tesla T4"), "tesla-t4");
  EXPECT_EQ(gpu_slug("  A100-SXM4-40GB (MIG 1g.5gb) "), "a100-sxm4-40gb-mig-1g-5gb");
  EXPECT_EQ(gpu_slug(""), "unknown-gpu");
}

TEST(Cli, ResultsPathNeverOverwrites) {
  std::set<std::string> existing;
  auto exists = [&](const std::string& p) { return existing.count(p) > 0; };
  EXPECT_EQ(results_path("results", "nvidia-h100", "2026-11-22", "", exists), "results/nvidia-h100/2026-11-22.json");
  existing = {"results/nvidia-h100/2026-11-22.json", "results/nvidia-h100/2026-11-22-2.json"};
  EXPECT_EQ(results_path("results", "nvidia-h100", "2026-11-22", "", exists), "results/nvidia-h100/2026-11-22-3.json");
  EXPECT_EQ(results_path("r", "g", "d", "nightly", exists), "r/g/d-nightly.json");
}

TEST(Cli, DenseSweepsByFlagOrEnvironmentNotWithQuick) {
  EXPECT_TRUE(parse({"--dense"}).dense);
  EXPECT_TRUE(parse({}, FakeEnv{{{"ARCHBENCH_DENSE", "1"}}}).dense);
  EXPECT_FALSE(parse({}).dense);
  EXPECT_THROW(parse({"--dense", "--quick"}), CliError);
}

TEST(Cli, IsolationAndWatchdog) {
  const CliOptions o = parse({"--isolate", "--watchdog=12.5", "--archbench_feature=Atomics"});
  EXPECT_TRUE(o.isolate);
  EXPECT_DOUBLE_EQ(o.watchdog_s, 12.5);
  EXPECT_EQ(o.only_feature, "Atomics");
  EXPECT_DOUBLE_EQ(parse({}).watchdog_s, 300);
  EXPECT_TRUE(parse({}, FakeEnv{{{"ARCHBENCH_ISOLATE", "1"}}}).isolate);
  EXPECT_THROW(parse({"--watchdog=-1"}), CliError);
  EXPECT_THROW(parse({"--watchdog="}), CliError);
}

TEST(Cli, SustainedSecondsAreAWholeNumberOfSeconds) {
  EXPECT_DOUBLE_EQ(parse({}).sustained_seconds, 0);  // 0: the suite's default (10 s, --quick 1 s)
  EXPECT_DOUBLE_EQ(parse({"--sustained_seconds=60"}).sustained_seconds, 60);
  EXPECT_THROW(parse({"--sustained_seconds=0"}), CliError);
  EXPECT_THROW(parse({"--sustained_seconds=2.5"}), CliError);
  EXPECT_THROW(parse({"--sustained_seconds=x"}), CliError);
  EXPECT_THROW(parse({"--sustained_seconds="}), CliError);
}

TEST(Cli, SkipFeatureTakesACommaSeparatedList) {
  EXPECT_EQ(
      archbench::parse_cli({"archbench", "--skip_feature=P2P"}, [](const char*) { return nullptr; }).skip_features,
      (std::vector<std::string>{"P2P"}));
  EXPECT_EQ(parse({"--skip_feature=P2P,Tlb"}).skip_features, (std::vector<std::string>{"P2P", "Tlb"}));
  EXPECT_THROW(parse({"--skip_feature="}), archbench::CliError);
  EXPECT_THROW(parse({"--skip_feature=P2P,"}), archbench::CliError);
}

// --- --gpu_profile: a GPU described by a committed run's context ------------------------------------
#include <cstdio>
#include <fstream>

#include "benchmarks/shell/gpu_profile.hpp"

#ifndef ARCHBENCH_TEST_DATA
#define ARCHBENCH_TEST_DATA "tests/data"
#endif

TEST(GpuProfile, ReadsTheGpuOfACommittedRun) {
  const archbench::GpuInfo i = archbench::gpu_info_from_result(ARCHBENCH_TEST_DATA "/h100_declared.json");
  EXPECT_EQ(i.name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(i.cc(), 90);
  EXPECT_EQ(i.sm_count, 132);
  EXPECT_EQ(i.l2_bytes, 52428800u);
  EXPECT_EQ(i.smem_per_block_optin_bytes, 232448u);
  EXPECT_EQ(i.warp_size, 32);
  EXPECT_DOUBLE_EQ(i.max_sm_clock_mhz, 1980);
}

TEST(GpuProfile, ReadsACommittedGzipRun) {
  // Committed runs are .json.gz: the H200 baseline's run 1 (ab95af1).
  const std::string path = std::string(ARCHBENCH_TEST_DATA) +
                           "/../../results/nvidia-h200/regression/2026-11-28-full-ab95af19bdb0-GPU-a48fee24-1.json.gz";
  try {
    const archbench::GpuInfo i = archbench::gpu_info_from_result(path);
    EXPECT_EQ(i.name, "NVIDIA H200");
    EXPECT_EQ(i.sm_count, 132);
    EXPECT_EQ(i.cc(), 90);
  } catch (const std::runtime_error& e) {
    if (std::string(e.what()).find("this build has no zlib") == std::string::npos) throw;
    GTEST_SKIP() << e.what();
  }
}

TEST(GpuProfile, BadFilesAreOneLineErrorsNamingTheFile) {
  const std::string dir = ::testing::TempDir();
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + name) << text;
    return dir + name;
  };
  const std::pair<std::string, std::string> cases[] = {
      {write("p_trunc.json", "{\"context\": {"), "not valid JSON"},
      {write("p_list.json", "[]"), "no 'context' object"},
      {write("p_nogpu.json", "{\"context\": {\"gpu_name\": \"X\"}, \"benchmarks\": []}"), "lacks 'gpu_uuid'"},
      {write("p_damaged.json.gz", "\x1f\x8b\x08 not deflate data"), "gzip"},
      {dir + "p_missing.json", "cannot read: No such file or directory"},
      {dir, "a directory, not a result file"}};
  for (const auto& [path, why] : cases) {
    try {
      archbench::gpu_info_from_result(path);
      ADD_FAILURE() << path << " was accepted";
    } catch (const std::runtime_error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(path), std::string::npos) << m;
      EXPECT_NE(m.find(why), std::string::npos) << m;
    }
  }
}

TEST(Cli, Counters) {
  EXPECT_FALSE(parse({}).counters);
  const CliOptions o = parse({"--counters", "--benchmark_filter=Bandwidth"});
  EXPECT_TRUE(o.counters);
  EXPECT_EQ(o.rest.size(), 2u);  // argv[0] and the filter: --counters is taken out
  EXPECT_TRUE(parse({}, FakeEnv{{{"ARCHBENCH_COUNTERS", "1"}}}).counters);
  EXPECT_FALSE(parse({}, FakeEnv{{{"ARCHBENCH_COUNTERS", "0"}}}).counters);
}
