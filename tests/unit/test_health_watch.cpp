// The health watch (fixtures/harness/health.hpp) against a fake NVML (tests/unit/fake_nvml.cpp,
// loaded as libnvidia-ml.so.1 through LD_LIBRARY_PATH): every counter read before and after, a
// counter that moves during the run, NVML's reason for one it does not have, XID events, the PCIe
// link under load. The watch's output for the first case is tests/data/health/fake_nvml_run.json,
// the file the Python health rules are tested on (tests/scripts/test_health.py).
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <fstream>

#include "fixtures/harness/health.hpp"

using namespace archbench;
using json = nlohmann::ordered_json;

namespace {
void* fake() {
  static void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  return lib;
}
template <class Fn>
Fn control(const char* name) {
  auto fn = reinterpret_cast<Fn>(fake() ? dlsym(fake(), name) : nullptr);
  if (!fn) throw std::runtime_error(std::string("not the fake NVML (LD_LIBRARY_PATH?): no ") + name);
  return fn;
}
void reset() { control<void (*)()>("fake_nvml_reset")(); }
void set_field(unsigned field, unsigned scope, unsigned long long v) {
  control<void (*)(unsigned, unsigned, unsigned long long)>("fake_nvml_set_field")(field, scope, v);
}
void set_links(unsigned n) { control<void (*)(unsigned)>("fake_nvml_set_links")(n); }
void set_pcie(unsigned max_gen, unsigned max_width, unsigned gen, unsigned width) {
  control<void (*)(unsigned, unsigned, unsigned, unsigned)>("fake_nvml_set_pcie")(max_gen, max_width, gen, width);
}
void post_xid(unsigned long long xid) { control<void (*)(unsigned long long)>("fake_nvml_post_xid")(xid); }

// A Hopper board as NVML shows it: ECC and row remapping, no page retirement, PCIe gen5 x16, two
// NVLinks; every counter at `base`.
void hopper_board(unsigned long long base) {
  reset();
  for (const HealthCounter& c : health_counters()) {
    if (c.nvml_field >= 29 && c.nvml_field <= 31) continue;  // retired pages: not on Ampere and later
    for (unsigned scope = 0; scope < (c.per_nvlink ? 2u : 1u); ++scope) set_field(c.nvml_field, scope, base);
  }
  set_links(2);
  set_pcie(5, 16, 5, 16);
}
const auto kNoLoad = [](const std::function<void()>& probe) { probe(); };
}  // namespace

TEST(HealthWatch, ReadsEveryCounterBeforeAndAfterAndSeesOneMove) {
  hopper_board(0);
  set_field(5, 0, 12);  // corrected ECC errors over the board's life
  HealthWatch watch("GPU-fake");
  EXPECT_EQ(watch.json()["counters"]["ecc_uncorrected_volatile"], json({{"before", 0.0}}));
  // During the run: an uncorrectable ECC error, its XID (48), a replay on NVLink 1.
  set_field(4, 0, 1);
  set_field(6, 0, 1);
  set_field(161, 1, 3);
  post_xid(48);
  const json doc = watch.finish(kNoLoad, 250.0);

  EXPECT_EQ(doc["source"], "NVML fake-1.0");
  EXPECT_EQ(doc["counters"]["ecc_uncorrected_volatile"], json({{"before", 0.0}, {"after", 1.0}}));
  EXPECT_EQ(doc["counters"]["ecc_corrected_aggregate"], json({{"before", 12.0}, {"after", 12.0}}));
  EXPECT_EQ(doc["counters"]["nvlink_replay_errors"], json({{"before", 0.0}, {"after", 3.0}}));  // summed over links
  EXPECT_EQ(doc["counters"]["retired_pages_pending"], json({{"not_available", "NVML: Not Supported"}}));
  EXPECT_EQ(doc["xid"]["events"], json::array({48}));
  EXPECT_EQ(doc["pcie_link"], json({{"max_gen", 5}, {"max_width", 16}, {"gen_under_load", 5}, {"width_under_load", 16}}));
  EXPECT_EQ(doc["seconds"], 250.0);
  for (const HealthCounter& c : health_counters()) EXPECT_TRUE(doc["counters"].contains(c.name)) << c.name;

  // The file the Python rules are tested on is this output, byte for byte.
  std::ifstream committed(std::string(ARCHBENCH_TEST_DATA) + "/health/fake_nvml_run.json");
  ASSERT_TRUE(committed) << "tests/data/health/fake_nvml_run.json";
  EXPECT_EQ(json::parse(committed), doc) << doc.dump(2);
}

TEST(HealthWatch, PcieLinkIsReadUnderLoad) {
  hopper_board(0);
  set_pcie(5, 16, 1, 16);  // idle at gen1, as a link in its power-saving state
  HealthWatch watch("GPU-fake");
  const json doc = watch.finish(
      [](const std::function<void()>& probe) {
        probe();
        set_pcie(5, 16, 5, 16);  // the copies bring it up
        probe();
      },
      1.0);
  EXPECT_EQ(doc["pcie_link"]["gen_under_load"], 5);

  hopper_board(0);
  set_pcie(5, 16, 4, 8);  // a degraded link stays degraded under load
  HealthWatch degraded("GPU-fake");
  const json d = degraded.finish(kNoLoad, 1.0);
  EXPECT_EQ(d["pcie_link"]["gen_under_load"], 4);
  EXPECT_EQ(d["pcie_link"]["width_under_load"], 8);
}

TEST(HealthWatch, SaysWhyWhereNvmlHasNoCounter) {
  hopper_board(0);
  set_links(0);
  control<void (*)()>("fake_nvml_refuse_events")();
  control<void (*)(unsigned, int)>("fake_nvml_refuse_field")(94, 3);
  HealthWatch watch("GPU-fake");
  const json doc = watch.finish(kNoLoad, 1.0);
  EXPECT_EQ(doc["xid"], json({{"not_available", "NVML: Not Supported"}}));
  EXPECT_EQ(doc["counters"]["pcie_replays"], json({{"not_available", "NVML: Not Supported"}}));
  EXPECT_EQ(doc["counters"]["nvlink_crc_errors"], json({{"not_available", "no active NVLink"}}));
}

TEST(HealthWatch, CounterThatVanishesDuringTheRunIsNotAvailable) {
  hopper_board(0);
  HealthWatch watch("GPU-fake");
  control<void (*)(unsigned, int)>("fake_nvml_refuse_field")(4, 999);  // the GPU stopped answering
  const json doc = watch.finish(kNoLoad, 1.0);
  EXPECT_EQ(doc["counters"]["ecc_uncorrected_volatile"],
            json({{"not_available", "after the run: NVML: Unknown Error"}}));
}

TEST(HealthWatch, WithoutNvmlEveryCounterSaysSo) {
  HealthWatch watch("GPU-not-this-one");
  const json doc = watch.finish(kNoLoad, 1.0);
  EXPECT_EQ(doc["source"], "NVML unavailable: NVML does not know GPU-not-this-one");
  EXPECT_TRUE(doc["counters"]["ecc_uncorrected_volatile"].contains("not_available"));
  EXPECT_TRUE(doc["xid"].contains("not_available"));
  EXPECT_TRUE(doc["pcie_link"].contains("not_available"));
}

TEST(HealthWatch, ALoadThatFailsKeepsTheCountersAndTheEvents) {
  hopper_board(0);
  HealthWatch watch("GPU-fake");
  post_xid(43);  // a trap's XID: its context is unusable afterwards, and the copies throw
  const json doc = watch.finish([](const std::function<void()>&) { throw std::runtime_error("cudaErrorLaunchFailure"); },
                                1.0);
  EXPECT_EQ(doc["pcie_link"], json({{"not_available", "the host link could not be loaded: cudaErrorLaunchFailure"}}));
  EXPECT_EQ(doc["xid"]["events"], json::array({43}));
  EXPECT_EQ(doc["counters"]["ecc_uncorrected_volatile"], json({{"before", 0.0}, {"after", 0.0}}));
}

TEST(HealthWatch, TheChildrenOfAnIsolatedRunMergeIntoOneSpan) {
  const json first = json::parse(R"({"source": "NVML x", "counters": {
      "ecc_uncorrected_volatile": {"before": 0, "after": 0}, "pcie_replays": {"before": 1, "after": 2},
      "retired_pages_pending": {"not_available": "NVML: Not Supported"}},
      "xid": {"events": [43]}, "pcie_link": {"max_gen": 5}, "seconds": 10.0})");
  const json second = json::parse(R"({"source": "NVML x", "counters": {
      "ecc_uncorrected_volatile": {"before": 0, "after": 1}, "pcie_replays": {"before": 2, "after": 5},
      "retired_pages_pending": {"not_available": "NVML: Not Supported"}},
      "xid": {"events": [48]}, "pcie_link": {"max_gen": 4}, "seconds": 20.0})");
  const json m = merge_health(merge_health(json(), first), second);
  EXPECT_EQ(m["counters"]["ecc_uncorrected_volatile"], json({{"before", 0}, {"after", 1}}));
  EXPECT_EQ(m["counters"]["pcie_replays"], json({{"before", 1}, {"after", 5}}));
  EXPECT_TRUE(m["counters"]["retired_pages_pending"].contains("not_available"));
  EXPECT_EQ(m["xid"]["events"], json::array({43, 48}));
  EXPECT_EQ(m["pcie_link"]["max_gen"], 4);
  EXPECT_EQ(m["seconds"], 30.0);
  json died = second;  // the last child stopped before its "after" reading
  died["counters"]["pcie_replays"].erase("after");
  died.erase("seconds");
  const json d = merge_health(first, died);
  EXPECT_FALSE(d["counters"]["pcie_replays"].contains("after"));
  EXPECT_FALSE(d.contains("seconds"));
}
