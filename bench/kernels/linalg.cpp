// Matrix product and convolution through the dispatcher, opd next to ATen
// (libtorch 1.13), one thread and every core:
//
//   BM_mm_<1t|mt>/<opd|aten>/<n>       c = mm(a, b), a and b n x n float32, n in 64, 256, 1024;
//                                      the GFLOP/s counter is 2 n^3 per call
//   BM_conv2d_<1t|mt>/<opd|aten>/<h>   y = conv2d(x, w, b, stride 1, padding 1): x 1x64xhxh float32,
//                                      w 64x64x3x3 (a ResNet 3x3 layer), h = 56
//
// 1t: opd::kernels::set_num_threads(1) and at::set_num_threads(1) (both set
// OpenBLAS's thread count too; the two sides share Debian's one OpenBLAS);
// mt: every core. The summary prints opd / aten time and GFLOP/s per row.
// Run with --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dispatch/dispatcher.hpp"
#include "kernels/ops.hpp"
#include "kernels/ops_linalg.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/ops_nn.hpp"
#include "median_reporter.hpp"

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <cblas.h>
#include <ATen/Parallel.h>
#endif

namespace {

namespace k = opd::kernels;
using V = std::vector<int64_t>;

int threads_for(bool mt) { return mt ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) : 1; }

void set_threads(bool mt) {
  k::set_num_threads(threads_for(mt));
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_threads(threads_for(mt));
  // The peer's BLAS at its default, a pool of n threads: at::set_num_threads
  // leaves Debian's OpenBLAS alone, and the library holds it at one.
  openblas_set_num_threads(threads_for(mt));
#endif
}

opd::Tensor opd_input(V sizes, float scale) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = scale * static_cast<float>(i % 13 - 6);
  return opd::from_vector<float>(v, sizes);
}

double conv_flops(int64_t h) { return 2.0 * 64 * 64 * 9 * static_cast<double>(h * h); }

void set_flops(benchmark::State& st, double per_call) {
  st.counters["GFLOP/s"] = benchmark::Counter(per_call * static_cast<double>(st.iterations()) / 1e9,
                                              benchmark::Counter::kIsRate);
}

template <bool MT>
void BM_mm_opd(benchmark::State& st) {
  set_threads(MT);
  const int64_t n = st.range(0);
  const opd::Tensor a = opd_input({n, n}, 0.01f), b = opd_input({n, n}, 0.02f);
  for (auto _ : st) benchmark::DoNotOptimize(opd::call<k::ops::mm>(a, b));
  set_flops(st, 2.0 * static_cast<double>(n * n * n));
}

template <bool MT>
void BM_conv2d_opd(benchmark::State& st) {
  set_threads(MT);
  const int64_t h = st.range(0);
  const opd::Tensor x = opd_input({1, 64, h, h}, 0.01f), w = opd_input({64, 64, 3, 3}, 0.02f),
                    bias = opd_input({64}, 0.1f);
  const std::optional<opd::Tensor> b = bias;
  for (auto _ : st) benchmark::DoNotOptimize(opd::call<k::ops::conv2d>(x, w, b, V{1, 1}, V{1, 1}, V{1, 1}, 1));
  set_flops(st, conv_flops(h));
}

#if defined(OPD_BENCH_WITH_TORCH)
at::Tensor aten_input(at::IntArrayRef sizes, float scale) {
  return (at::arange(c10::multiply_integers(sizes), at::kFloat).remainder(13).sub(6).mul(scale)).reshape(sizes);
}

template <bool MT>
void BM_mm_aten(benchmark::State& st) {
  set_threads(MT);
  const int64_t n = st.range(0);
  const at::Tensor a = aten_input({n, n}, 0.01f), b = aten_input({n, n}, 0.02f);
  for (auto _ : st) benchmark::DoNotOptimize(at::mm(a, b));
  set_flops(st, 2.0 * static_cast<double>(n * n * n));
}

template <bool MT>
void BM_conv2d_aten(benchmark::State& st) {
  set_threads(MT);
  const int64_t h = st.range(0);
  const at::Tensor x = aten_input({1, 64, h, h}, 0.01f), w = aten_input({64, 64, 3, 3}, 0.02f),
                   b = aten_input({64}, 0.1f);
  for (auto _ : st) benchmark::DoNotOptimize(at::conv2d(x, w, b, {1, 1}, {1, 1}, {1, 1}, 1));
  set_flops(st, conv_flops(h));
}
#endif

void register_benchmarks() {
  struct Entry {
    const char* name;
    void (*fn)(benchmark::State&);
    std::vector<int64_t> args;
  };
  const Entry entries[] = {
      {"BM_mm_1t/opd", &BM_mm_opd<false>, {64, 256, 1024}},
      {"BM_mm_mt/opd", &BM_mm_opd<true>, {64, 256, 1024}},
      {"BM_conv2d_1t/opd", &BM_conv2d_opd<false>, {56}},
      {"BM_conv2d_mt/opd", &BM_conv2d_opd<true>, {56}},
#if defined(OPD_BENCH_WITH_TORCH)
      {"BM_mm_1t/aten", &BM_mm_aten<false>, {64, 256, 1024}},
      {"BM_mm_mt/aten", &BM_mm_aten<true>, {64, 256, 1024}},
      {"BM_conv2d_1t/aten", &BM_conv2d_aten<false>, {56}},
      {"BM_conv2d_mt/aten", &BM_conv2d_aten<true>, {56}},
#endif
  };
  for (const Entry& e : entries) {
    auto* b = benchmark::RegisterBenchmark(e.name, e.fn);
    for (int64_t a : e.args) b->Arg(a);
    b->Unit(benchmark::kMicrosecond);
  }
}

class SummaryReporter : public opd_bench::MedianReporter {
  void summary(const char* what, const table& t) override {
    std::printf("\nSummary, median %s in us per call (opd/aten: time ratio; >1 is slower):\n", what);
    std::printf("  %-10s %6s %12s %12s %9s %14s %14s\n", "benchmark", "n", "opd", "aten", "opd/aten", "opd GFLOP/s",
                "aten GFLOP/s");
    struct Row {
      const char* op;
      const char* n;
      double flops;
    };
    const Row rows[] = {{"mm_1t", "64", 2.0 * 64 * 64 * 64},       {"mm_1t", "256", 2.0 * 256 * 256 * 256},
                        {"mm_1t", "1024", 2.0 * 1024 * 1024 * 1024}, {"mm_mt", "64", 2.0 * 64 * 64 * 64},
                        {"mm_mt", "256", 2.0 * 256 * 256 * 256},     {"mm_mt", "1024", 2.0 * 1024 * 1024 * 1024},
                        {"conv2d_1t", "56", conv_flops(56)},         {"conv2d_mt", "56", conv_flops(56)}};
    for (const Row& r : rows) {
      const std::string base = std::string("BM_") + r.op + "/";
      const auto o = get(t, base + "opd/" + r.n);
      const auto a = get(t, base + "aten/" + r.n);
      std::printf("  %-10s %6s", r.op, r.n);
      print(o ? std::optional<double>(*o / 1e3) : std::nullopt, 12, 1);
      print(a ? std::optional<double>(*a / 1e3) : std::nullopt, 12, 1);
      print(o && a ? std::optional<double>(*o / *a) : std::nullopt, 9, 3);
      print(o ? std::optional<double>(r.flops / *o) : std::nullopt, 14, 1);
      print(a ? std::optional<double>(r.flops / *a) : std::nullopt, 14, 1);
      std::printf("\n");
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = k::register_cpu();
  register_benchmarks();
  SummaryReporter reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
