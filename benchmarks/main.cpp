// archbench's main: select the GPU, register every feature's sweeps from its attributes, then
// hand over to Google Benchmark. Bad input ends with a one-line error and exit code 2.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <dlfcn.h>
#include <unistd.h>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <regex>
#include <set>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "archbench/build_info.hpp"
#include "fixtures/runners/chase_runner.hpp"
#include "fixtures/runners/hostlink_runner.hpp"
#include "benchmarks/shell/cli.hpp"
#include "kernels/shared/cuda_check.hpp"
#include "fixtures/harness/gpu.hpp"
#include "fixtures/harness/health.hpp"
#include "benchmarks/shell/gpu_profile.hpp"
#include "fixtures/harness/hw_profiler.hpp"
#include "benchmarks/shell/incremental_json.hpp"
#include "fixtures/harness/method_ids.hpp"
#include "fixtures/harness/placement.hpp"
#include "fixtures/harness/report.hpp"
#include "fixtures/harness/registry.hpp"
#include "benchmarks/shell/supervisor.hpp"
#include "fixtures/runners/sync_runner.hpp"
#include "fixtures/harness/watchdog.hpp"

namespace {

constexpr int kBadInput = 2;

int fail(const std::string& message) {
  std::fprintf(stderr, "archbench: error: %s\n", message.c_str());
  return kBadInput;
}

std::string utc_date() {
  const std::time_t now = std::time(nullptr);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

bool has_prefix(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Google Benchmark's flags (1.7-1.9: benchmark.cc's BM_DEFINE_ list), by name: a mistyped one is
// named as such, not taken for a flag and answered "no GPU". Its own parser checks their values.
bool google_benchmark_flag(const std::string& a) {
  static const char* const kNames[] = {"list_tests",
                                       "filter",
                                       "min_time",
                                       "min_warmup_time",
                                       "repetitions",
                                       "dry_run",
                                       "enable_random_interleaving",
                                       "report_aggregates_only",
                                       "display_aggregates_only",
                                       "format",
                                       "out_format",
                                       "out",
                                       "color",
                                       "counters_tabular",
                                       "perf_counters",
                                       "context",
                                       "time_unit",
                                       "help"};
  if (has_prefix(a, "--v=")) return true;
  if (!has_prefix(a, "--benchmark_")) return false;
  const std::string name = a.substr(12, a.find('=') == std::string::npos ? std::string::npos : a.find('=') - 12);
  for (const char* n : kNames)
    if (name == n) return true;
  return false;
}

// The first argument neither archbench nor Google Benchmark knows, or "" (checked before any GPU
// call, so a typo is not reported as "no GPU").
std::string first_unknown_flag(const std::vector<std::string>& rest) {
  for (std::size_t i = 1; i < rest.size(); ++i) {
    const std::string& a = rest[i];
    if (google_benchmark_flag(a) || has_prefix(a, "--archbench_feature=")) continue;
    return a;
  }
  return "";
}

// The value of --benchmark_filter= among the arguments ("" when none): it also asks for the
// features on request (fixtures/harness/registry.hpp, feature_selected).
std::string filter_arg(const std::vector<std::string>& args) {
  std::string filter;
  for (const std::string& a : args)
    if (has_prefix(a, "--benchmark_filter=")) filter = a.substr(19);
  return filter;
}

// Google Benchmark's arguments with its default filter spelled ".*": with the filter "." (the
// default, or "all") Google Benchmark 1.7 reserves its list of benchmarks anew for each family,
// exactly one family larger, so finding a full run's ~10,000 families copies the list ~10,000
// times: 2.4 s against 0.5 s listing an H200's run on a CI core, 6 of an H200 run's 7 s start-up.
// ".*" matches the same names.
std::vector<std::string> with_default_filter_spelled_out(std::vector<std::string> args) {
  bool given = false;
  for (std::string& a : args)
    if (has_prefix(a, "--benchmark_filter=")) {
      given = true;
      if (a == "--benchmark_filter=." || a == "--benchmark_filter=all") a = "--benchmark_filter=.*";
    }
  if (!given) args.push_back("--benchmark_filter=.*");
  return args;
}

// Why no GPU can be used, in words a login node's user can act on.
std::string no_gpu_cause(cudaError_t err) {
  if (err == cudaSuccess) return "no CUDA GPU found: the driver sees 0 devices";
  if (err == cudaErrorNoDevice)
    return "no CUDA GPU found: the driver is installed but sees no device (CUDA_VISIBLE_DEVICES='" +
           std::string(std::getenv("CUDA_VISIBLE_DEVICES") ? std::getenv("CUDA_VISIBLE_DEVICES") : "unset") + "')";
  if (err == cudaErrorInsufficientDriver) {
    // cudart says "insufficient driver" both when the driver is too old and when there is none.
    if (void* libcuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL)) {
      dlclose(libcuda);
      int driver = 0, runtime = 0;
      cudaDriverGetVersion(&driver);
      cudaRuntimeGetVersion(&runtime);
      return "no CUDA GPU usable: the NVIDIA driver supports CUDA " + std::to_string(driver / 1000) + "." +
             std::to_string(driver % 1000 / 10) + ", older than this build's runtime " +
             std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    }
    return "no CUDA GPU found: no NVIDIA driver is installed (libcuda.so.1 not found)";
  }
  return std::string("no CUDA GPU usable (cudaGetDeviceCount: ") + cudaGetErrorString(err) + ")";
}

// --isolate: every feature in a child process of this binary (--archbench_feature=F), with its
// own JSON; the parent merges them into `json_path` after each child, so a hung kernel (the
// child's watchdog ends it) or a sticky CUDA error costs one feature, and nothing finished is
// lost. Exit 0, or 1 when a child failed (its error is in the JSON as F/isolated_child).
int run_isolated(const std::vector<std::string>& args, const std::string& json_path,
                 const std::vector<std::string>& skip) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::string self = fs::read_symlink("/proc/self/exe", ec).string();
  if (ec || self.empty()) self = args[0];
  char tmpl[] = "/tmp/archbench-isolate-XXXXXX";
  if (!mkdtemp(tmpl)) return fail("cannot create a temporary directory for --isolate");
  const std::string tmp = tmpl;
  constexpr double kBackstopSeconds = 6 * 3600;  // the child's own watchdog acts first
  nlohmann::ordered_json context;                // null until a child has written one
  std::vector<std::string> benchmarks;
  int matched = 0;
  bool failed = false;
  for (const archbench::Feature& f : archbench::features()) {
    if (!archbench::feature_selected(f, "", skip, filter_arg(args))) continue;
    const std::string child_json = tmp + "/" + f.name + ".json";
    std::vector<std::string> child = {self};
    for (std::size_t i = 1; i < args.size(); ++i) {
      const std::string& a = args[i];
      if (a == "--isolate" || has_prefix(a, "--results_dir=") || has_prefix(a, "--tag=") ||
          has_prefix(a, "--benchmark_out=") || has_prefix(a, "--benchmark_out_format="))
        continue;
      child.push_back(a);
    }
    child.push_back("--archbench_feature=" + f.name);
    child.push_back("--benchmark_out=" + child_json);
    child.push_back("--benchmark_out_format=json");
    const archbench::ChildOutcome outcome = archbench::run_child(child, kBackstopSeconds);
    const auto text = archbench::read_file(child_json);
    const auto parts = text ? archbench::split_benchmark_json(*text) : std::nullopt;
    const std::size_t finished = parts ? parts->benchmarks.size() : 0;
    if (text && !parts) {  // never drop a child's results silently: keep its file beside the output
      failed = true;
      std::string kept = "(no --benchmark_out to keep it beside)";
      if (!json_path.empty()) {
        kept = json_path + "." + f.name + ".unreadable.json";
        fs::copy_file(child_json, kept, fs::copy_options::overwrite_existing, ec);
        if (ec) kept = "(it could not be kept: " + ec.message() + ")";
      }
      benchmarks.push_back(archbench::error_benchmark_json(
          f.name + "/isolated_child",
          "the child process of " + f.name + " wrote JSON that cannot be read; kept as " + kept));
    }
    if (outcome.kind == archbench::ChildOutcome::Kind::exited && outcome.code == 2 && finished == 0) continue;
    ++matched;
    if (parts) {
      // The first child's context, with each child's whole wall time (its start-up included)
      // in place of the child's own accounting.
      auto child_context = nlohmann::ordered_json::parse(parts->context, nullptr, /*allow_exceptions=*/false);
      if (context.is_null() && child_context.is_object()) {
        context = child_context;
        for (auto it = context.begin(); it != context.end();)
          it = it.key().rfind(archbench::wall_seconds_key(""), 0) == 0 ? context.erase(it) : std::next(it);
        context.erase("archbench_health");
      }
      // The health counters over every child: before the first, after the last, every XID event.
      if (context.is_object() && child_context.is_object() && child_context.contains("archbench_health"))
        context["archbench_health"] =
            archbench::merge_health(context.value("archbench_health", nlohmann::ordered_json()),
                                    child_context["archbench_health"]);
      benchmarks.insert(benchmarks.end(), parts->benchmarks.begin(), parts->benchmarks.end());
    }
    if (context.is_object()) {
      context[archbench::wall_seconds_key(f.name)] = archbench::seconds_text(outcome.seconds);
      context[archbench::wall_seconds_key("total")] = archbench::seconds_text(archbench::seconds_since_process_start());
    }
    if (!outcome.ok()) {
      failed = true;
      const bool hung = outcome.kind == archbench::ChildOutcome::Kind::exited && outcome.code == archbench::kExitHung;
      const std::string why = "the child process of " + f.name + " " + outcome.describe() +
                              (hung ? " (its watchdog: a hung kernel)" : "") + "; " + std::to_string(finished) +
                              " benchmark(s) of it had finished and are kept";
      std::fprintf(stderr, "archbench: %s\n", why.c_str());
      benchmarks.push_back(archbench::error_benchmark_json(f.name + "/isolated_child", why));
    }
    if (!json_path.empty()) {
      try {
        archbench::write_file_atomically(
            json_path, archbench::join_benchmark_json(context.is_object() ? context.dump(2) : "", benchmarks));
      } catch (const std::exception& e) {
        return fail(e.what());
      }
    }
  }
  fs::remove_all(tmp, ec);
  if (matched == 0) return fail("the benchmark filter matched no benchmark");
  if (!json_path.empty()) std::fprintf(stderr, "archbench: results written to %s\n", json_path.c_str());
  return failed ? 1 : 0;
}

// What the features register, from the options (the GPU: Gpu::current()).
archbench::SuiteConfig suite_config(const archbench::CliOptions& opt, archbench::Placement placement) {
  const double sustained = opt.sustained_seconds > 0 ? opt.sustained_seconds : opt.quick ? 1 : 10;
  const double integrity = opt.integrity_seconds > 0 ? opt.integrity_seconds : opt.quick ? 4 : 30;
  return {archbench::Gpu::current(), opt.quick, opt.dense, sustained, std::move(placement), integrity};
}

// --benchmark_list_tests: the names, nothing measured.
bool listing_only(const std::vector<std::string>& args) {
  return std::any_of(args.begin(), args.end(), [](const std::string& a) {
    return a == "--benchmark_list_tests" || a == "--benchmark_list_tests=true";
  });
}

// The SM that single-SM measurements run on (fixtures/harness/placement.hpp): `given` >= 0
// (--reference_sm), else the SM of median L2 latency. Fails (exit 2) for an SM the GPU lacks.
int choose_placement(const archbench::Gpu& gpu, int given, archbench::Placement& placement) {
  using namespace archbench;
  if (given >= gpu.info().sm_count)
    return fail("--reference_sm=" + std::to_string(given) + " is out of range: the GPU has " +
                std::to_string(gpu.info().sm_count) + " SMs (0.." + std::to_string(gpu.info().sm_count - 1) + ")");
  try {
    placement = place_single_sm_measurements(given);
  } catch (const std::exception& e) {
    return fail(std::string("choosing the reference SM: ") + e.what());
  }
  return 0;
}

// Records the placement, with every SM's L2 latency, and the board's fingerprint in the context.
void record_placement_and_board(const archbench::Gpu& gpu, const archbench::Placement& placement) {
  using namespace archbench;
  const ReferenceSmChoice& ref = placement.measured;
  benchmark::AddCustomContext("archbench_reference_sm", std::to_string(placement.reference_sm));
  benchmark::AddCustomContext("archbench_reference_sm_source", placement.source);
  char l2[112];
  std::snprintf(l2, sizeof l2, "%.2f (SMs: median %.2f, min %.2f, max %.2f)",
                ref.cycles_per_sm[placement.reference_sm], ref.median_cycles, ref.min_cycles, ref.max_cycles);
  benchmark::AddCustomContext("archbench_reference_sm_l2_cycles", l2);
  // The board's fingerprint: what distinguishes this board from others of its model, so that
  // compare.py names "another board" instead of a regression (docs/regression.md, section 6).
  try {
    char dram[32];
    std::snprintf(dram, sizeof dram, "%.2f", board_dram_latency_cycles(gpu.info().l2_bytes, placement.reference_sm));
    benchmark::AddCustomContext("archbench_board_dram_latency_cycles", dram);
  } catch (const std::exception& e) {
    benchmark::AddCustomContext("archbench_board_dram_latency_cycles", std::string("unmeasured: ") + e.what());
  }
  try {
    char grid[32];
    std::snprintf(grid, sizeof grid, "%.2f", board_grid_barrier_cycles());
    benchmark::AddCustomContext("archbench_board_grid_barrier_cycles", grid);
  } catch (const std::exception& e) {
    benchmark::AddCustomContext("archbench_board_grid_barrier_cycles", std::string("unmeasured: ") + e.what());
  }
}

// Of the listed benchmarks (those `filter` selects, as Google Benchmark reads it: a regular
// expression, "-" first to exclude), the ones this GPU's attributes already rule out, by reason:
// a run would register them and skip each with that reason.
void print_listed_skips(const std::string& filter) {
  const bool negate = !filter.empty() && filter[0] == '-';
  const std::string pattern = negate ? filter.substr(1) : filter;
  std::regex re;
  try {
    re = std::regex(pattern.empty() || pattern == "all" ? "." : pattern, std::regex::extended);
  } catch (const std::regex_error&) {
    return;  // Google Benchmark reports a bad filter itself
  }
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const auto& [name, why] : archbench::registered_skips())
    if (std::regex_search(name, re) != negate) by_reason[why].push_back(name);
  std::size_t n = 0;
  for (const auto& [why, names] : by_reason) n += names.size();
  if (n == 0) return;
  std::fprintf(stderr, "archbench: %zu of them would be skipped on this GPU, with the reason:\n", n);
  for (const auto& [why, names] : by_reason) {
    std::set<std::string> families;  // "TensorCore/wgmma", "Energy/wgmma"
    for (const std::string& name : names) families.insert(name.substr(0, name.find('/', name.find('/') + 1)));
    std::string which;
    for (const std::string& f : families) which += (which.empty() ? "" : ", ") + f;
    std::fprintf(stderr, "  %5zu  %s (%s)\n", names.size(), why.c_str(), which.c_str());
  }
}

// --gpu_profile=FILE --benchmark_list_tests: the names a run would register on the GPU that FILE's
// context describes, without a GPU (a login node, a laptop). Nothing is measured.
int list_for_profile(const archbench::CliOptions& opt, char* argv0) {
  using namespace archbench;
  if (!listing_only(opt.rest)) return fail("--gpu_profile only lists benchmarks: add --benchmark_list_tests");
  try {
    Gpu::select_profile(gpu_info_from_result(opt.gpu_profile));
    const SuiteConfig cfg = suite_config(opt, Placement{});
    for (const Feature& f : features())
      if (feature_selected(f, opt.only_feature, opt.skip_features, filter_arg(opt.rest))) f.register_benchmarks(cfg);
  } catch (const std::exception& e) {
    return fail(e.what());
  }
  std::vector<std::string> args = with_default_filter_spelled_out(opt.rest);
  args[0] = argv0;
  std::vector<char*> gb_argv;
  for (std::string& a : args) gb_argv.push_back(a.data());
  int gb_argc = static_cast<int>(gb_argv.size());
  gb_argv.push_back(nullptr);
  benchmark::Initialize(&gb_argc, gb_argv.data());
  const std::size_t listed = benchmark::RunSpecifiedBenchmarks();
  std::fprintf(stderr, "archbench: %zu benchmark(s) listed for %s as described by %s (no GPU used)\n", listed,
               Gpu::current().info().name.c_str(), opt.gpu_profile.c_str());
  print_listed_skips(filter_arg(opt.rest));
  return listed ? 0 : fail("the benchmark filter matched no benchmark");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace archbench;
  CliOptions opt;
  try {
    opt = parse_cli(std::vector<std::string>(argv, argv + argc), [](const char* k) { return std::getenv(k); });
  } catch (const CliError& e) {
    return fail(e.what());
  }
  try {
    features();  // the feature table against the registrations: a mismatch is the build's defect
  } catch (const std::logic_error& e) {
    std::fprintf(stderr, "archbench: build defect: %s\n", e.what());
    return 1;
  }
  // What needs no GPU comes first: help, version, and flags nobody knows.
  for (const std::string& a : opt.rest) {
    if (a == "--help" || a == "-h") {
      std::fputs(usage_text().c_str(), stdout);
      std::fputs("\nGoogle Benchmark's flags (--benchmark_help lists them all) are accepted too.\n", stdout);
      return 0;
    }
    if (a == "--version") {
      std::printf("archbench %s (git %s, %s, %s)\n", build_info::kVersion, build_info::kGitSha, build_info::kBuildType,
                  build_info::kCudaCompiler);
      return 0;
    }
    if (a == "--benchmark_help") {
      std::vector<char*> help_argv{argv[0], const_cast<char*>("--help"), nullptr};
      int help_argc = 2;
      benchmark::Initialize(&help_argc, help_argv.data());  // prints Google Benchmark's usage and exits 0
      return 0;
    }
  }
  if (const std::string unknown = first_unknown_flag(opt.rest); !unknown.empty())
    return fail("unknown option '" + unknown + "' (see --help; Google Benchmark's: --benchmark_help)");
  if (!opt.gpu_profile.empty()) return list_for_profile(opt, argv[0]);

  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess || count == 0)
    return fail(no_gpu_cause(err));
  if (opt.device >= count)
    return fail("--device=" + std::to_string(opt.device) + " is out of range: " + std::to_string(count) +
                " GPU(s) visible (0.." + std::to_string(count - 1) + ")");
  try {
    Gpu::select(opt.device);
  } catch (const CudaError& e) {
    return fail("cannot use device " + std::to_string(opt.device) + ": " + e.what());
  }
  const Gpu& gpu = Gpu::current();
  if (opt.info) {
    std::fputs(gpu.describe().c_str(), stdout);
    return 0;
  }

  std::vector<std::string> gb_args = opt.rest;
  std::string out_path;
  if (!opt.results_dir.empty()) {
    for (const std::string& a : gb_args)
      if (has_prefix(a, "--benchmark_out=")) return fail("--results_dir and --benchmark_out are exclusive");
    namespace fs = std::filesystem;
    out_path = results_path(opt.results_dir, gpu_slug(gpu.info().name),
                            utc_date() + (opt.quick   ? "-quick"
                                          : opt.dense ? "-dense"
                                                      : ""),
                            opt.tag, [](const std::string& p) { return fs::exists(p); });
    std::error_code ec;
    fs::create_directories(fs::path(out_path).parent_path(), ec);
    if (ec) return fail("cannot create " + fs::path(out_path).parent_path().string() + ": " + ec.message());
    gb_args.push_back("--benchmark_out=" + out_path);
    gb_args.push_back("--benchmark_out_format=json");
  }
  // JSON output goes through IncrementalJsonReporter (every finished benchmark is on disk at
  // once); other formats, or a non-console display, are left to Google Benchmark.
  std::string json_path, out_format = "json";
  bool console_display = true;
  for (const std::string& a : gb_args) {
    if (has_prefix(a, "--benchmark_out=")) json_path = a.substr(16);
    if (has_prefix(a, "--benchmark_out_format=")) out_format = a.substr(23);
    if (has_prefix(a, "--benchmark_format=") && a != "--benchmark_format=console") console_display = false;
  }
  if (opt.isolate && opt.only_feature.empty()) {
    if (!json_path.empty() && out_format != "json") return fail("--isolate writes JSON only");
    std::vector<std::string> args(argv, argv + argc);
    // One reference SM for the whole run: each child would otherwise choose its own, and SMs
    // within a cycle of the median trade places between probes.
    if (opt.reference_sm < 0 && !listing_only(gb_args)) {
      try {
        args.push_back("--reference_sm=" + std::to_string(choose_reference_sm().sm));
      } catch (const std::exception& e) {
        return fail(std::string("choosing the reference SM: ") + e.what());
      }
    }
    return run_isolated(args, json_path, opt.skip_features);
  }
  // The table as Google Benchmark would print it: colour on a terminal, tabular counters on request.
  int console_opts =
      isatty(fileno(stdout)) ? benchmark::ConsoleReporter::OO_Color : benchmark::ConsoleReporter::OO_None;
  for (const std::string& a : gb_args) {
    if (a == "--benchmark_counters_tabular" || a == "--benchmark_counters_tabular=true")
      console_opts |= benchmark::ConsoleReporter::OO_Tabular;
    if (a == "--benchmark_color=false") console_opts &= ~benchmark::ConsoleReporter::OO_Color;
    if (a == "--benchmark_color=true") console_opts |= benchmark::ConsoleReporter::OO_Color;
  }
  benchmark::ConsoleReporter console(static_cast<benchmark::ConsoleReporter::OutputOptions>(console_opts));
  std::unique_ptr<IncrementalJsonReporter> json_reporter;
  if (!json_path.empty() && out_format == "json" && console_display) {
    try {
      json_reporter = std::make_unique<IncrementalJsonReporter>(json_path, &console);
    } catch (const std::exception& e) {
      return fail(e.what());
    }
    std::vector<std::string> kept;
    for (const std::string& a : gb_args)
      if (!has_prefix(a, "--benchmark_out=") && !has_prefix(a, "--benchmark_out_format=")) kept.push_back(a);
    gb_args = kept;
  } else if (!json_path.empty() && !std::ofstream(json_path, std::ios::app)) {
    return fail("cannot write the output file '" + json_path + "'");
  }

  std::string fault;
  try {
    fault = fault_context();
  } catch (const std::invalid_argument& e) {
    return fail(e.what());
  }

  // Chosen before registration: every feature's benchmarks carry it (nothing measured in a listing).
  Placement placement;
  if (!listing_only(gb_args))
    if (const int rc = choose_placement(gpu, opt.reference_sm, placement); rc != 0) return rc;
  const SuiteConfig cfg = suite_config(opt, placement);
  bool found = opt.only_feature.empty();
  try {
    for (const Feature& f : features())
      if (feature_selected(f, opt.only_feature, opt.skip_features, filter_arg(opt.rest))) {
        f.register_benchmarks(cfg);
        found = true;
      }
  } catch (const std::exception& e) {
    return fail(std::string("registering benchmarks: ") + e.what());
  }
  if (!found) return fail("no feature named '" + opt.only_feature + "'");

  gb_args = with_default_filter_spelled_out(gb_args);
  std::vector<char*> gb_argv;
  for (std::string& a : gb_args) gb_argv.push_back(a.data());
  int gb_argc = static_cast<int>(gb_argv.size());
  gb_argv.push_back(nullptr);
  benchmark::Initialize(&gb_argc, gb_argv.data());
  if (gb_argc > 1) return fail(std::string("unknown option '") + gb_argv[1] + "' (see --help)");

  gpu.add_benchmark_context();
  benchmark::AddCustomContext("archbench_quick", opt.quick ? "true" : "false");
  benchmark::AddCustomContext("archbench_dense", opt.dense ? "true" : "false");
  // Each benchmark's label declares its primary metrics (fixtures/harness/primary_metrics.hpp).
  benchmark::AddCustomContext("archbench_primary_metrics", "label");
  // Every benchmark's label carries its method identifier; per feature, what it is made of.
  benchmark::AddCustomContext("archbench_method_ids", "label");
  for (const archbench::FeatureMethod& m : archbench::feature_methods())
    benchmark::AddCustomContext(std::string("archbench_method_") + m.feature, archbench::method_context(m));
  if (!fault.empty()) benchmark::AddCustomContext("archbench_fault", fault);
  if (opt.counters && !listing_only(gb_args)) {
    // Probed here, once: where profiling is not allowed the run goes on without counters.
    enable_hw_counters(true);
    const std::string status = hw_counters_status();
    benchmark::AddCustomContext("archbench_counters", status);
    std::fprintf(stderr, "archbench: --counters: %s\n", status.c_str());
  }
  if (!listing_only(gb_args)) record_placement_and_board(gpu, placement);
  // The health counters before the first benchmark and after the last (fixtures/harness/health.hpp):
  // a run that stops early keeps the "before" reading, and accept.py says the run did not finish.
  std::unique_ptr<HealthWatch> health;
  if (json_reporter && !listing_only(gb_args) && !gpu.described_only()) {
    health = std::make_unique<HealthWatch>(gpu.info().uuid);
    json_reporter->set_context("archbench_health", health->json());
  }
  const double health_start_s = seconds_since_process_start();
  watchdog_start(opt.watchdog_s);
  const std::size_t ran =
      json_reporter ? benchmark::RunSpecifiedBenchmarks(json_reporter.get()) : benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (health && ran > 0) {
    try {
      const nlohmann::ordered_json h =
          health->finish([](const std::function<void()>& probe) { while_host_link_busy(probe); },
                         seconds_since_process_start() - health_start_s);
      json_reporter->set_context("archbench_health", h);
      int read = 0;
      for (const auto& [name, c] : h["counters"].items()) read += c.contains("after");
      std::fprintf(stderr, "archbench: health counters: %d of %zu read before and after, %zu XID event(s)\n", read,
                   h["counters"].size(), h["xid"].contains("events") ? h["xid"]["events"].size() : std::size_t(0));
    } catch (const std::exception& e) {  // a device fault in the last benchmark: the run's entries stand
      std::fprintf(stderr, "archbench: the health counters' after-reading failed: %s\n", e.what());
    }
  }
  if (ran == 0) {
    if (!opt.only_feature.empty()) return kBadInput;  // a child of --isolate: the parent says it once
    return fail("the benchmark filter '" + benchmark::GetBenchmarkFilter() + "' matched no benchmark");
  }
  if (!out_path.empty()) std::fprintf(stderr, "archbench: results written to %s\n", out_path.c_str());
  return 0;
}
