// Minor page faults per iteration, as a Google Benchmark counter.
//
// Why: a large-tensor row's time is dominated by whether its buffers are
// fresh pages (a fault per 4 KiB) or reused ones. Timings on this shared
// machine are noisy; the fault count is not, and it says which of the two a
// row measures.
#pragma once

#include <sys/resource.h>

#include <benchmark/benchmark.h>

namespace opd_bench {

inline long minor_faults() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

// Runs the timed loop `body()` once per iteration and records `faults`.
template <class Body>
void loop_counting_faults(benchmark::State& st, Body&& body) {
  const long before = minor_faults();
  for (auto _ : st) body();
  st.counters["faults"] =
      benchmark::Counter(static_cast<double>(minor_faults() - before), benchmark::Counter::kAvgIterations);
}

}  // namespace opd_bench
