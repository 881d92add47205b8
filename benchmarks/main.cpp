// archbench's main: select the GPU, register every feature's sweeps from its attributes, then
// hand over to Google Benchmark. Bad input ends with a one-line error and exit code 2.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <unistd.h>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "fixtures/cli.hpp"
#include "fixtures/cuda_check.hpp"
#include "fixtures/gpu.hpp"
#include "fixtures/incremental_json.hpp"
#include "fixtures/registry.hpp"

namespace archbench {
std::vector<Feature>& features() {
  static std::vector<Feature> f;
  return f;
}
}  // namespace archbench

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

}  // namespace

int main(int argc, char** argv) {
  using namespace archbench;
  CliOptions opt;
  try {
    opt = parse_cli(std::vector<std::string>(argv, argv + argc), [](const char* k) { return std::getenv(k); });
  } catch (const CliError& e) {
    return fail(e.what());
  }
  for (const std::string& a : opt.rest)
    if (a == "--help" || a == "-h") std::fputs(usage_text().c_str(), stdout);

  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess || count == 0)
    return fail(std::string("no CUDA GPU found (cudaGetDeviceCount: ") +
                (err == cudaSuccess ? "0 devices" : cudaGetErrorString(err)) + ")");
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
    out_path = results_path(opt.results_dir, gpu_slug(gpu.info().name), utc_date() + (opt.quick ? "-quick" : opt.dense ? "-dense" : ""),
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
  // The table as Google Benchmark would print it: colour on a terminal, tabular counters on request.
  int console_opts = isatty(fileno(stdout)) ? benchmark::ConsoleReporter::OO_Color : benchmark::ConsoleReporter::OO_None;
  for (const std::string& a : gb_args) {
    if (a == "--benchmark_counters_tabular" || a == "--benchmark_counters_tabular=true") console_opts |= benchmark::ConsoleReporter::OO_Tabular;
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

  const SuiteConfig cfg{gpu, opt.quick, opt.dense};
  try {
    for (const Feature& f : features()) f.register_benchmarks(cfg);
  } catch (const std::exception& e) {
    return fail(std::string("registering benchmarks: ") + e.what());
  }

  std::vector<char*> gb_argv;
  for (std::string& a : gb_args) gb_argv.push_back(a.data());
  int gb_argc = static_cast<int>(gb_argv.size());
  gb_argv.push_back(nullptr);
  benchmark::Initialize(&gb_argc, gb_argv.data());
  if (gb_argc > 1) return fail(std::string("unknown option '") + gb_argv[1] + "' (see --help)");

  gpu.add_benchmark_context();
  benchmark::AddCustomContext("archbench_quick", opt.quick ? "true" : "false");
  benchmark::AddCustomContext("archbench_dense", opt.dense ? "true" : "false");
  const std::size_t ran = json_reporter ? benchmark::RunSpecifiedBenchmarks(json_reporter.get())
                                        : benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (ran == 0) return fail("the benchmark filter '" + benchmark::GetBenchmarkFilter() + "' matched no benchmark");
  if (!out_path.empty()) std::fprintf(stderr, "archbench: results written to %s\n", out_path.c_str());
  return 0;
}
