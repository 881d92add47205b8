#include "benchmarks/shell/incremental_json.hpp"

#include "benchmarks/shell/supervisor.hpp"
#include "fixtures/harness/bench_name.hpp"
#include "fixtures/harness/entry_fields.hpp"
#include "fixtures/harness/primary_metrics.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace archbench {

namespace {
using Clock = std::chrono::steady_clock;
const Clock::time_point kProcessStart = Clock::now();

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}
}  // namespace

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

double seconds_since_process_start() { return seconds_between(kProcessStart, Clock::now()); }

std::string feature_of(const std::string& benchmark_name) { return benchmark_name.substr(0, benchmark_name.find('/')); }

std::string wall_seconds_key(const std::string& part) { return "archbench_wall_seconds_" + part; }

nlohmann::ordered_json axes_of(const std::string& function_name) {
  const NameParts parts = split_bench_name(function_name);
  nlohmann::ordered_json axes = nlohmann::ordered_json::object();
  for (const auto& [key, text] : parts.args) {
    // An integer is a number, anything else (a fraction, a shape, a word) the text the name holds.
    const bool integer = !text.empty() && text.size() < 19 &&
                         text.find_first_not_of("0123456789") == std::string::npos && (text == "0" || text[0] != '0');
    axes[key] = integer ? nlohmann::ordered_json(std::stoll(text)) : nlohmann::ordered_json(text);
  }
  return axes;
}

std::string family_and_axes(const std::string& function_name, const std::string& separator) {
  return "\"family\": " + nlohmann::ordered_json(split_bench_name(function_name).family).dump() + "," + separator +
         "\"axes\": " + axes_of(function_name).dump();
}

std::string declared_fields(const std::string& label, const std::string& separator) {
  const auto d = parse_label(label);
  if (!d) return "";
  nlohmann::ordered_json primary = nlohmann::ordered_json::array();
  for (const Primary& p : d->primary) {
    nlohmann::ordered_json one = {{"counter", p.counter}};
    switch (p.kind) {
      case Primary::Kind::higher:
        one["how"] = "higher";
        break;
      case Primary::Kind::lower:
        one["how"] = "lower";
        break;
      case Primary::Kind::value:
        one["how"] = "value";
        one["tolerance_pct"] = p.tolerance_pct;
        break;
    }
    primary.push_back(one);
  }
  std::string out = "," + separator + "\"primary\": " + primary.dump();
  if (!d->method.empty()) out += "," + separator + "\"method\": " + nlohmann::ordered_json(d->method).dump();
  if (!d->note.empty()) out += "," + separator + "\"note\": " + nlohmann::ordered_json(d->note).dump();
  return out;
}

std::string with_family_and_axes(const std::string& entries, const std::vector<benchmark::BenchmarkReporter::Run>& runs) {
  std::string out;
  std::size_t from = 0;
  for (const auto& run : runs) {
    // This run's own "run_name" line (its name as JSONReporter escapes it): an entry written
    // without one gets no fields, and never another run's.
    const std::string line = "\"run_name\": " + nlohmann::ordered_json(run.run_name.str()).dump() + ",\n";
    const std::size_t at = entries.find(line, from);
    if (at == std::string::npos) continue;
    const std::size_t eol = at + line.size() - 1;
    const std::string indent(at - (entries.rfind('\n', at) + 1), ' ');
    out.append(entries, from, eol - from);
    out += "\n" + indent + family_and_axes(run.run_name.function_name, "\n" + indent) +
           declared_fields(run.report_label, "\n" + indent) +
           take_entry_fields(run.run_name.function_name, "\n" + indent) + ",";
    from = eol;
  }
  out.append(entries, from, std::string::npos);
  return out;
}

IncrementalJsonReporter::IncrementalJsonReporter(std::string path, benchmark::BenchmarkReporter* console)
    : path_(std::move(path)), console_(console) {
  inner_.SetOutputStream(&json_);
  inner_.SetErrorStream(&json_);
  if (!write_whole())  // fails early, before any measurement, when the path is not writable
    throw std::runtime_error("cannot write the output file '" + path_ + "'");
}

bool IncrementalJsonReporter::ReportContext(const Context& context) {
  inner_.ReportContext(context);
  // JSONReporter has written the document's opening, the context and the opening of the
  // benchmarks list: closing the list and the object makes it a document nlohmann can read, and
  // what it writes from here on are the list's entries.
  const std::string opening = json_.str();
  json_.str("");
  const auto doc = nlohmann::ordered_json::parse(opening + "]}", nullptr, /*allow_exceptions=*/false);
  if (!doc.is_discarded() && doc.contains("context")) context_ = doc["context"];
  for (const auto& [key, value] : own_context_.items()) context_[key] = value;
  last_report_ = Clock::now();
  context_[wall_seconds_key("startup")] = seconds_text(seconds_since_process_start());
  warn_once(write_tail());
  return console_ ? console_->ReportContext(context) : true;
}

void IncrementalJsonReporter::ReportRuns(const std::vector<Run>& runs) {
  if (console_) console_->ReportRuns(runs);
  // Everything since the previous benchmark ended is this one's: its set-up, calibration and
  // timed runs (shared among its repetitions, which Google Benchmark reports together).
  const Clock::time_point now = Clock::now();
  const double wall = seconds_between(last_report_, now);
  last_report_ = now;
  std::vector<Run> timed = runs;
  int iterations = 0;
  for (const Run& r : timed) iterations += r.run_type != Run::RT_Aggregate;
  for (Run& r : timed) {
    if (r.run_type == Run::RT_Aggregate) continue;
    ++runs_;
    const auto t = r.counters.find("throttled");
    if (t != r.counters.end() && t->second.value >= 1) ++throttled_;
    r.counters["wall_time_s"] = wall / iterations;
  }
  if (!timed.empty()) {
    const std::string name = feature_of(timed.front().benchmark_name());
    auto it =
        std::find_if(feature_seconds_.begin(), feature_seconds_.end(), [&](const auto& f) { return f.first == name; });
    if (it == feature_seconds_.end()) it = feature_seconds_.insert(feature_seconds_.end(), {name, 0.0});
    it->second += wall;
    for (const auto& [feature, seconds] : feature_seconds_) context_[wall_seconds_key(feature)] = seconds_text(seconds);
  }
  context_[wall_seconds_key("total")] = seconds_text(seconds_since_process_start());
  inner_.ReportRuns(timed);
  pending_runs_ += with_family_and_axes(json_.str(), timed);
  json_.str("");
  warn_once(write_tail());
}

void IncrementalJsonReporter::set_context(const std::string& key, nlohmann::ordered_json value) {
  own_context_[key] = value;
  if (!context_.empty()) {  // the context has been reported: the file carries it from now on
    context_[key] = std::move(value);
    warn_once(write_tail());
  }
}

void IncrementalJsonReporter::Finalize() {
  if (console_) console_->Finalize();
  context_[wall_seconds_key("total")] = seconds_text(seconds_since_process_start());
  warn_once(write_tail());  // JSONReporter's Finalize would only close the list and the object
}

IncrementalJsonReporter::~IncrementalJsonReporter() {
  if (fd_ >= 0) ::close(fd_);
}

bool IncrementalJsonReporter::write_whole() {
  const std::string head = result_head();
  const std::string doc = head + result_tail(context_, throttled_, runs_);
  try {
    write_file_atomically(path_, doc);  // a temporary file renamed over the target
  } catch (const std::exception&) {
    return false;
  }
  if (fd_ >= 0) ::close(fd_);
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  runs_end_ = head.size();
  file_bytes_ = doc.size();
  return fd_ >= 0;
}

bool IncrementalJsonReporter::write_tail() {
  // One write from the end of the entries on disk: the new entries, then the list's end and the
  // context; after it the file is again a complete document holding every finished benchmark.
  if (fd_ < 0) return false;  // never opened: the constructor has thrown
  std::string tail = pending_runs_ + result_tail(context_, throttled_, runs_);
  if (runs_end_ + tail.size() < file_bytes_) tail.append(file_bytes_ - runs_end_ - tail.size(), ' ');
  const ssize_t wrote = ::pwrite(fd_, tail.data(), tail.size(), off_t(runs_end_));
  if (wrote != ssize_t(tail.size())) return false;  // the entries stay pending for the next write
  runs_end_ += pending_runs_.size();
  file_bytes_ = std::max<std::uint64_t>(file_bytes_, runs_end_ + tail.size() - pending_runs_.size());
  pending_runs_.clear();
  return true;
}

void IncrementalJsonReporter::warn_once(bool ok) {
  if (!ok && !warned_) {  // a full disk mid-run: say so once, keep measuring, keep the last good file
    std::fprintf(stderr, "archbench: warning: cannot update '%s'\n", path_.c_str());
    warned_ = true;
  }
}

std::string result_head() { return "{\n  \"benchmarks\": [\n"; }

std::string result_tail(nlohmann::ordered_json context, int throttled, int total) {
  context["archbench_throttled_benchmarks"] = std::to_string(throttled) + " of " + std::to_string(total);
  return "\n  ],\n  \"context\": " + context.dump(2) + "\n}\n";
}

std::string result_document(nlohmann::ordered_json context, const std::string& runs, int throttled, int total) {
  return result_head() + runs + result_tail(std::move(context), throttled, total);
}

}  // namespace archbench
