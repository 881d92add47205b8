#include "benchmarks/shell/cli.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace archbench {
namespace {

bool take_value(const std::string& arg, const std::string& name, std::string& value) {
  const std::string prefix = "--" + name + "=";
  if (arg.compare(0, prefix.size(), prefix) != 0) return false;
  value = arg.substr(prefix.size());
  return true;
}

// A whole number in [0, max] (a device, an SM), else a one-line error naming what was expected.
int parse_index(const std::string& text, const std::string& origin, long max, const char* what) {
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || v < 0 || v > max)
    throw CliError(origin + "='" + text + "' is not " + what + " (expected 0, 1, ...)");
  return static_cast<int>(v);
}
int parse_device(const std::string& text, const std::string& origin) {
  return parse_index(text, origin, 1024, "a device index");
}
int parse_sm(const std::string& text, const std::string& origin) {
  return parse_index(text, origin, 65535, "an SM number");
}

bool truthy(const char* v) {
  if (!v) return false;
  const std::string s(v);
  return !(s.empty() || s == "0" || s == "false" || s == "no" || s == "off");
}

}  // namespace

CliOptions parse_cli(const std::vector<std::string>& argv, const std::function<const char*(const char*)>& getenv) {
  CliOptions o;
  if (const char* env = getenv("ARCHBENCH_DEVICE")) o.device = parse_device(env, "ARCHBENCH_DEVICE");
  o.quick = truthy(getenv("ARCHBENCH_QUICK"));
  o.dense = truthy(getenv("ARCHBENCH_DENSE"));
  o.isolate = truthy(getenv("ARCHBENCH_ISOLATE"));
  o.counters = truthy(getenv("ARCHBENCH_COUNTERS"));
  if (const char* env = getenv("ARCHBENCH_REFERENCE_SM")) o.reference_sm = parse_sm(env, "ARCHBENCH_REFERENCE_SM");
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    std::string v;
    if (i == 0) {
      o.rest.push_back(a);
    } else if (take_value(a, "device", v)) {
      o.device = parse_device(v, "--device");
    } else if (a == "--device") {
      throw CliError("--device needs a value: --device=N");
    } else if (take_value(a, "reference_sm", v)) {
      o.reference_sm = parse_sm(v, "--reference_sm");
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--dense") {
      o.dense = true;
    } else if (a == "--isolate") {
      o.isolate = true;
    } else if (a == "--counters") {
      o.counters = true;
    } else if (take_value(a, "watchdog", v)) {
      char* end = nullptr;
      const double s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(s >= 0)) throw CliError("--watchdog='" + v + "' is not a number of seconds");
      o.watchdog_s = s;
    } else if (take_value(a, "sustained_seconds", v)) {
      char* end = nullptr;
      const double s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(s >= 1 && s <= 3600) || s != double(int(s)))
        throw CliError("--sustained_seconds='" + v + "' is not a whole number of seconds in 1..3600");
      o.sustained_seconds = s;
    } else if (take_value(a, "integrity_seconds", v)) {
      char* end = nullptr;
      const double s = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(s >= 1 && s <= 86400))
        throw CliError("--integrity_seconds='" + v + "' is not a number of seconds in 1..86400");
      o.integrity_seconds = s;
    } else if (take_value(a, "archbench_feature", v)) {
      o.only_feature = v;
    } else if (take_value(a, "skip_feature", v)) {
      std::size_t from = 0;
      while (from <= v.size()) {
        const std::size_t comma = std::min(v.find(',', from), v.size());
        const std::string name = v.substr(from, comma - from);
        if (name.empty()) throw CliError("--skip_feature='" + v + "' has an empty feature name");
        o.skip_features.push_back(name);
        from = comma + 1;
      }
    } else if (a == "--info") {
      o.info = true;
    } else if (take_value(a, "results_dir", v)) {
      if (v.empty()) throw CliError("--results_dir needs a directory");
      o.results_dir = v;
    } else if (take_value(a, "gpu_profile", v)) {
      if (v.empty()) throw CliError("--gpu_profile needs a result file (results/<gpu>/<run>.json)");
      o.gpu_profile = v;
    } else if (take_value(a, "tag", v)) {
      for (char c : v)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
          throw CliError("--tag='" + v + "' may hold only letters, digits, '-' and '_'");
      o.tag = v;
    } else {
      o.rest.push_back(a);
    }
  }
  if (o.quick && o.dense) throw CliError("--quick and --dense exclude each other");
  return o;
}

std::string usage_text() {
  return "archbench options (besides Google Benchmark's --benchmark_* flags):\n"
         "  --device=N          GPU to measure (default: $ARCHBENCH_DEVICE or 0)\n"
         "  --quick             reduced sweeps for smoke tests and CI (or ARCHBENCH_QUICK=1)\n"
         "  --dense             denser footprint sweeps (or ARCHBENCH_DENSE=1)\n"
         "  --isolate           run each feature in a child process: a hung kernel or a sticky CUDA\n"
         "                      error loses that feature only (or ARCHBENCH_ISOLATE=1)\n"
         "  --counters          after each benchmark's timed runs, replay its kernel untimed under CUPTI's\n"
         "                      range profiler and add the GPU's counters (hw_*) to its JSON; skipped\n"
         "                      with the reason where profiling is not allowed (or ARCHBENCH_COUNTERS=1)\n"
         "  --skip_feature=F,G  register no benchmark of these features (run_node.py runs P2P apart)\n"
         "                      Energy is left out of the default run: --benchmark_filter=Energy runs it\n"
         "  --reference_sm=N    run single-SM measurements on SM N (default: the SM of median L2\n"
         "                      latency, chosen at start-up; or ARCHBENCH_REFERENCE_SM)\n"
         "  --sustained_seconds=S  length of the two sustained-clock runs (Scheduling; default 10, --quick 1)\n"
         "  --integrity_seconds=S  the integrity screen's time (Integrity, on request:\n"
         "                      --benchmark_filter=Integrity; default 30, --quick 4; docs/acceptance.md)\n"
         "  --watchdog=S        end the run when one benchmark takes more than S s (default 300, 0: off)\n"
         "  --results_dir=DIR   write JSON to DIR/<gpu-slug>/<YYYY-MM-DD>[-tag].json\n"
         "  --tag=TAG           suffix for the result file name\n"
         "  --info              print the GPU context and exit\n"
         "  --gpu_profile=FILE  with --benchmark_list_tests: list the benchmarks for the GPU that a\n"
         "                      result file's context describes, without a GPU\n"
         "  --version           print the version and exit\n";
}

std::string gpu_slug(const std::string& gpu_name) {
  std::string s;
  for (char c : gpu_name) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u))
      s.push_back(static_cast<char>(std::tolower(u)));
    else if (!s.empty() && s.back() != '-')
      s.push_back('-');
  }
  while (!s.empty() && s.back() == '-') s.pop_back();
  return s.empty() ? "unknown-gpu" : s;
}

std::string results_path(const std::string& dir, const std::string& slug, const std::string& date,
                         const std::string& tag, const std::function<bool(const std::string&)>& exists) {
  const std::string base = dir + "/" + slug + "/" + date + (tag.empty() ? "" : "-" + tag);
  std::string p = base + ".json";
  for (int k = 2; exists(p); ++k) p = base + "-" + std::to_string(k) + ".json";
  return p;
}

}  // namespace archbench
