// A stand-in for archbench that needs no GPU: a few slow CPU benchmarks reported through
// IncrementalJsonReporter, so tests can interrupt a run and read what survived.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "benchmarks/shell/incremental_json.hpp"

static void SlowStep(benchmark::State& state) {
  for (auto _ : state) {
    std::this_thread::sleep_for(std::chrono::milliseconds(state.range(0)));
    state.SetIterationTime(state.range(0) * 1e-3);
  }
  state.counters["latency_cycles"] = double(state.range(0));
}
BENCHMARK(SlowStep)->Name("MemLatency/demo")->DenseRange(100, 500, 100)->Iterations(1)->UseManualTime();

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: incremental_json_demo OUT.json\n");
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  benchmark::ConsoleReporter console(benchmark::ConsoleReporter::OO_None);
  archbench::IncrementalJsonReporter reporter(argv[1], &console);
  benchmark::AddCustomContext("demo", "true");
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
