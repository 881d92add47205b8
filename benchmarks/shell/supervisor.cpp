#include "benchmarks/shell/supervisor.hpp"

#include "benchmarks/shell/incremental_json.hpp"
#include "fixtures/harness/bench_name.hpp"

#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace archbench {

std::string ChildOutcome::describe() const {
  char b[160];
  switch (kind) {
    case Kind::exited:
      std::snprintf(b, sizeof b, "exited with code %d after %.1f s", code, seconds);
      break;
    case Kind::signaled:
      std::snprintf(b, sizeof b, "was killed by signal %d after %.1f s", signal, seconds);
      break;
    case Kind::timed_out:
      std::snprintf(b, sizeof b, "did not finish in %.0f s and was killed", seconds);
      break;
    case Kind::not_started:
      std::snprintf(b, sizeof b, "could not be started");
      break;
  }
  return b;
}

ChildOutcome run_child(const std::vector<std::string>& argv, double timeout_s) {
  ChildOutcome o;
  if (argv.empty()) return o;
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) return o;
  if (pid == 0) {
    execv(args[0], args.data());
    _exit(127);
  }
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  int status = 0;
  for (;;) {
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) break;
    if (r < 0) return o;
    if (elapsed() > timeout_s) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      o.kind = ChildOutcome::Kind::timed_out;
      o.seconds = elapsed();
      return o;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  o.seconds = elapsed();
  if (WIFEXITED(status)) {
    o.kind = WEXITSTATUS(status) == 127 ? ChildOutcome::Kind::not_started : ChildOutcome::Kind::exited;
    o.code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    o.kind = ChildOutcome::Kind::signaled;
    o.signal = WTERMSIG(status);
  }
  return o;
}

std::optional<BenchmarkJson> split_benchmark_json(const std::string& text) {
  auto doc = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    // Google Benchmark writes a non-finite counter as a bare NaN or Infinity (the coefficient of
    // variation of a counter that is 0 in every repetition): JavaScript, not JSON (Python reads
    // it, nlohmann does not). Read it as null.
    static const std::regex kNonFinite(R"(([:,\[]\s*)-?(?:NaN|nan|Infinity|inf)\b)");
    doc = nlohmann::ordered_json::parse(std::regex_replace(text, kNonFinite, "$1null"), nullptr, false);
  }
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("context") || !doc.contains("benchmarks") ||
      !doc["benchmarks"].is_array())
    return std::nullopt;
  BenchmarkJson out;
  out.context = doc["context"].dump(2);
  for (const auto& b : doc["benchmarks"]) out.benchmarks.push_back(b.dump(2));
  return out;
}

std::string join_benchmark_json(const std::string& context, const std::vector<std::string>& benchmarks) {
  std::ostringstream o;
  o << "{\n  \"context\": " << (context.empty() ? "{}" : context) << ",\n  \"benchmarks\": [";
  for (std::size_t i = 0; i < benchmarks.size(); ++i) o << (i ? ",\n    " : "\n    ") << benchmarks[i];
  o << "\n  ]\n}\n";
  return o.str();
}

std::string error_benchmark_json(const std::string& name, const std::string& message) {
  const nlohmann::ordered_json e = {{"name", name},
                                    {"run_name", name},
                                    {"family", split_bench_name(name).family},
                                    {"axes", axes_of(name)},
                                    {"run_type", "iteration"},
                                    {"error_occurred", true},
                                    {"error_message", message}};
  return e.dump();
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write '" + tmp + "'");
    f << text;
    if (!f.flush()) throw std::runtime_error("cannot write '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
}

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f) return std::nullopt;
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

}  // namespace archbench
