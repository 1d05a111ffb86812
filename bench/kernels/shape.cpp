// cat and index_select through the dispatcher: opd next to ATen (libtorch).
//
//   BM_<op>_<threads>/<side>/<n>
//     op       cat           cat([a, b], dim=1) of two float32 [r, c] tensors, r * c = n
//                            (n = 1: [1, 1]; 1000: [10, 100]; 1000000: [1000, 1000])
//              index_select  index_select(x, 0, idx): x float32 [n], idx int64 [n] of random positions
//     threads  1t            one thread on both sides (opd::kernels::set_num_threads(1), at::set_num_threads(1))
//              mt            every core on both sides
//     side     opd           opd::call<opd::kernels::ops::cat / index_select>
//              aten          at::cat / at::index_select
//     n        1, 1000, 1000000 elements per input
//
// The summary at the end prints the medians and opd / aten per op, thread
// setting and n. Run with --benchmark_repetitions=5; see docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/ops.hpp"
#include "kernels/ops_shape.hpp"
#include "median_reporter.hpp"

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#endif

namespace {

namespace ops = opd::kernels::ops;

int all_cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

void set_threads(bool multi) {
  const int n = multi ? all_cores() : 1;
  opd::kernels::set_num_threads(n);
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_threads(n);
#endif
}

std::vector<int64_t> cat_shape(int64_t n) {
  if (n >= 1000000) return {1000, n / 1000};
  if (n >= 1000) return {10, n / 10};
  return {1, n};
}

std::vector<float> values(int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(i % 101);
  return v;
}
std::vector<int64_t> positions(int64_t n) {
  std::mt19937_64 gen(42);
  std::uniform_int_distribution<int64_t> pick(0, n - 1);
  std::vector<int64_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = pick(gen);
  return v;
}

template <bool Multi>
void BM_cat_opd(benchmark::State& st) {
  set_threads(Multi);
  const std::vector<int64_t> shape = cat_shape(st.range(0));
  const std::vector<opd::Tensor> in{opd::from_vector<float>(values(st.range(0)), shape),
                                    opd::from_vector<float>(values(st.range(0)), shape)};
  for (auto _ : st) {
    opd::Tensor c = opd::call<ops::cat>(in, 1);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  st.SetBytesProcessed(st.iterations() * st.range(0) * 2 * 4 * 2);
}

template <bool Multi>
void BM_index_select_opd(benchmark::State& st) {
  set_threads(Multi);
  const int64_t n = st.range(0);
  const opd::Tensor x = opd::from_vector<float>(values(n), std::vector<int64_t>{n});
  const opd::Tensor idx = opd::from_vector<int64_t>(positions(n), std::vector<int64_t>{n});
  for (auto _ : st) {
    opd::Tensor r = opd::call<ops::index_select>(x, 0, idx);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  st.SetBytesProcessed(st.iterations() * n * (4 + 8 + 4));
}

#if defined(OPD_BENCH_WITH_TORCH)
at::Tensor aten_from(const std::vector<float>& v, const std::vector<int64_t>& shape) {
  return at::from_blob(const_cast<float*>(v.data()), shape, at::kFloat).clone();
}

template <bool Multi>
void BM_cat_aten(benchmark::State& st) {
  set_threads(Multi);
  const std::vector<int64_t> shape = cat_shape(st.range(0));
  const std::vector<float> v = values(st.range(0));
  const std::vector<at::Tensor> in{aten_from(v, shape), aten_from(v, shape)};
  for (auto _ : st) {
    at::Tensor c = at::cat(in, 1);
    benchmark::DoNotOptimize(c.data_ptr());
  }
  st.SetBytesProcessed(st.iterations() * st.range(0) * 2 * 4 * 2);
}

template <bool Multi>
void BM_index_select_aten(benchmark::State& st) {
  set_threads(Multi);
  const int64_t n = st.range(0);
  const at::Tensor x = aten_from(values(n), {n});
  std::vector<int64_t> p = positions(n);
  const at::Tensor idx = at::from_blob(p.data(), {n}, at::kLong).clone();
  for (auto _ : st) {
    at::Tensor r = at::index_select(x, 0, idx);
    benchmark::DoNotOptimize(r.data_ptr());
  }
  st.SetBytesProcessed(st.iterations() * n * (4 + 8 + 4));
}
#endif

void register_benchmarks() {
  struct Entry {
    const char* name;
    void (*fn)(benchmark::State&);
  };
  const Entry entries[] = {
      {"BM_cat_1t/opd", BM_cat_opd<false>},
      {"BM_cat_mt/opd", BM_cat_opd<true>},
      {"BM_index_select_1t/opd", BM_index_select_opd<false>},
      {"BM_index_select_mt/opd", BM_index_select_opd<true>},
#if defined(OPD_BENCH_WITH_TORCH)
      {"BM_cat_1t/aten", BM_cat_aten<false>},
      {"BM_cat_mt/aten", BM_cat_aten<true>},
      {"BM_index_select_1t/aten", BM_index_select_aten<false>},
      {"BM_index_select_mt/aten", BM_index_select_aten<true>},
#endif
  };
  for (const Entry& e : entries) benchmark::RegisterBenchmark(e.name, e.fn)->Arg(1)->Arg(1000)->Arg(1000000);
}

class SummaryReporter : public opd_bench::MedianReporter {
  void summary(const char* what, const table& t) override {
    std::printf("\nSummary, median %s in ns per call:\n", what);
    std::printf("  %-22s %8s %12s %12s %9s\n", "benchmark", "n", "opd", "aten", "opd/aten");
    for (const char* op : {"BM_cat_1t", "BM_cat_mt", "BM_index_select_1t", "BM_index_select_mt"}) {
      for (const char* n : {"1", "1000", "1000000"}) {
        const auto o = get(t, std::string(op) + "/opd/" + n);
        const auto a = get(t, std::string(op) + "/aten/" + n);
        std::printf("  %-22s %8s", op, n);
        print(o, 12, 1);
        print(a, 12, 1);
        print(o && a && *a > 0 ? std::optional<double>(*o / *a) : std::nullopt, 9, 3);
        std::printf("\n");
      }
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_interop_threads(1);
#endif
  register_benchmarks();
  SummaryReporter reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
