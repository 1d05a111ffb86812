#pragma once
// A Google Benchmark console reporter that also keeps each benchmark's
// median (or its single run's time when there are no repetitions), real and
// CPU, in ns, and hands both tables to summary() at the end of the run: the
// benchmark programs print their comparisons (opd against the peer) from it.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace opd_bench {

class MedianReporter : public benchmark::ConsoleReporter {
 public:
  // Keyed by "<name>" or "<name>/<args>" (BM_add_out/opd/1000).
  using table = std::map<std::string, double>;

  MedianReporter() : ConsoleReporter(isatty(fileno(stdout)) ? OO_Defaults : OO_Tabular) {}

  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      if (r.error_occurred) continue;
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      const bool single = r.run_type == Run::RT_Iteration && r.repetitions <= 1;
      if (!median && !single) continue;
      std::string name = r.run_name.function_name;
      if (!r.run_name.args.empty()) name += "/" + r.run_name.args;
      real_[name] = ns(r, r.GetAdjustedRealTime());
      cpu_[name] = ns(r, r.GetAdjustedCPUTime());
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    summary("real time", real_);
    summary("CPU time", cpu_);
    std::fflush(stdout);
  }

  static std::optional<double> get(const table& t, const std::string& name) {
    auto it = t.find(name);
    if (it == t.end()) return std::nullopt;
    return it->second;
  }
  static void print(std::optional<double> v, int width, int decimals = 2) {
    if (v) std::printf(" %*.*f", width, decimals, *v);
    else std::printf(" %*s", width, "-");
  }

 protected:
  // Prints the comparison for one of the tables ("real time", "CPU time").
  virtual void summary(const char* what, const table& medians) = 0;

 private:
  static double ns(const Run& r, double t) {
    switch (r.time_unit) {
      case benchmark::kNanosecond: return t;
      case benchmark::kMicrosecond: return t * 1e3;
      case benchmark::kMillisecond: return t * 1e6;
      case benchmark::kSecond: return t * 1e9;
    }
    return t;
  }
  table real_, cpu_;
};

// Google Benchmark's main with `reporter` (a MedianReporter) as the display.
inline int run_benchmarks(int argc, char** argv, MedianReporter& reporter) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}

}  // namespace opd_bench
