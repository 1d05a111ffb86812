// The operators torchvision's CNNs reach below autograd, opd next to ATen
// (libtorch 1.13), one thread and every core, on resnet18's shapes (batch 1,
// 224x224), float32:
//
//   BM_convolution_<1t|mt>/<opd|aten>/<layer>   aten::convolution, resnet18's layer shapes:
//       0  conv1       [1, 3, 224, 224]  64 x 7x7, stride 2, pad 3
//       1  layer1      [1, 64, 56, 56]   64 x 3x3, pad 1
//       2  layer2.0    [1, 64, 56, 56]   128 x 3x3, stride 2, pad 1
//       3  layer2      [1, 128, 28, 28]  128 x 3x3, pad 1
//       4  downsample  [1, 64, 56, 56]   128 x 1x1, stride 2
//       5  layer3      [1, 256, 14, 14]  256 x 3x3, pad 1
//       6  layer4      [1, 512, 7, 7]    512 x 3x3, pad 1
//     and mobilenet_v2's shape classes:
//       7  depthwise   [1, 144, 56, 56]  144 x 3x3, pad 1, groups 144
//       8  depthwise   [1, 96, 112, 112] 96 x 3x3, stride 2, pad 1, groups 96
//       9  1x1         [1, 96, 14, 14]   576 x 1x1
//      10  1x1         [1, 960, 7, 7]    320 x 1x1
//   BM_native_batch_norm_<1t|mt>/<opd|aten>/<n>        inference, [1, C, h, w] with n = C*h*w:
//                                                    1 ([1, 1, 1, 1]) and 802816 ([1, 64, 112, 112])
//   BM_max_pool2d_with_indices_<1t|mt>/<opd|aten>/<n>  3x3 stride 2 pad 1 over n elements:
//                                                    1 (1x1 kernel, [1, 1, 1, 1]) and 802816 ([1, 64, 112, 112])
//   BM_hardtanh_<1t|mt>/<opd|aten>/<n>                 hardtanh(x, 0, 6) (mobilenet_v2's ReLU6), n = 1, 10^6
//   BM__reshape_alias_<1t|mt>/<opd|aten>/<n>           [1, n] viewed as [n] (the flatten before fc), n = 1, 512
//
// Both sides are called through their dispatchers with typed calls
// (opd::call, at::); 1t: opd::kernels::set_num_threads(1) and
// at::set_num_threads(1); mt: every core. The summary prints opd / aten.
// Run with --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/ops.hpp"
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

struct ConvShape {
  V input, weight;
  int64_t stride, padding, groups = 1;
};

const ConvShape conv_shapes[] = {
    {{1, 3, 224, 224}, {64, 3, 7, 7}, 2, 3},   {{1, 64, 56, 56}, {64, 64, 3, 3}, 1, 1},
    {{1, 64, 56, 56}, {128, 64, 3, 3}, 2, 1},  {{1, 128, 28, 28}, {128, 128, 3, 3}, 1, 1},
    {{1, 64, 56, 56}, {128, 64, 1, 1}, 2, 0},  {{1, 256, 14, 14}, {256, 256, 3, 3}, 1, 1},
    {{1, 512, 7, 7}, {512, 512, 3, 3}, 1, 1},
    {{1, 144, 56, 56}, {144, 1, 3, 3}, 1, 1, 144}, {{1, 96, 112, 112}, {96, 1, 3, 3}, 2, 1, 96},
    {{1, 96, 14, 14}, {576, 96, 1, 1}, 1, 0},      {{1, 960, 7, 7}, {320, 960, 1, 1}, 1, 0},
};

V pool_shape(int64_t n) { return n == 1 ? V{1, 1, 1, 1} : V{1, 64, 112, 112}; }

opd::Tensor opd_input(const V& sizes, float scale) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = scale * static_cast<float>(i % 13 - 6);
  return opd::from_vector<float>(v, sizes);
}

template <bool MT>
void BM_convolution_opd(benchmark::State& st) {
  set_threads(MT);
  const ConvShape& s = conv_shapes[st.range(0)];
  const opd::Tensor x = opd_input(s.input, 0.01f), w = opd_input(s.weight, 0.02f);
  const std::optional<opd::Tensor> b;
  const V stride{s.stride, s.stride}, padding{s.padding, s.padding}, dilation{1, 1}, output_padding{0, 0};
  for (auto _ : st)
    benchmark::DoNotOptimize(
        opd::call<k::ops::convolution>(x, w, b, stride, padding, dilation, false, output_padding, s.groups));
}

template <bool MT>
void BM_native_batch_norm_opd(benchmark::State& st) {
  set_threads(MT);
  const V shape = pool_shape(st.range(0));
  const opd::Tensor x = opd_input(shape, 0.01f);
  const V c{shape[1]};
  const std::optional<opd::Tensor> w = opd_input(c, 0.1f), b = opd_input(c, 0.2f), rm = opd_input(c, 0.05f),
                                   rv = opd::call<k::ops::abs::functional>(opd_input(c, 0.3f));
  for (auto _ : st) benchmark::DoNotOptimize(opd::call<k::ops::native_batch_norm>(x, w, b, rm, rv, false, 0.1, 1e-5));
}

template <bool MT>
void BM_max_pool2d_with_indices_opd(benchmark::State& st) {
  set_threads(MT);
  const bool one = st.range(0) == 1;
  const opd::Tensor x = opd_input(pool_shape(st.range(0)), 0.01f);
  const V kernel = one ? V{1, 1} : V{3, 3}, stride = one ? V{1, 1} : V{2, 2}, padding = one ? V{0, 0} : V{1, 1};
  for (auto _ : st)
    benchmark::DoNotOptimize(opd::call<k::ops::max_pool2d_with_indices>(x, kernel, stride, padding, V{1, 1}, false));
}

template <bool MT>
void BM_hardtanh_opd(benchmark::State& st) {
  set_threads(MT);
  const opd::Tensor x = opd_input({st.range(0)}, 0.5f);
  for (auto _ : st) benchmark::DoNotOptimize(opd::call<k::ops::hardtanh>(x, opd::Scalar(0.0), opd::Scalar(6.0)));
}

template <bool MT>
void BM_reshape_alias_opd(benchmark::State& st) {
  set_threads(MT);
  const int64_t n = st.range(0);
  const opd::Tensor x = opd_input({1, n}, 0.5f);
  for (auto _ : st) benchmark::DoNotOptimize(opd::call<k::ops::reshape_alias>(x, V{n}, V{1}));
}

#if defined(OPD_BENCH_WITH_TORCH)
at::Tensor aten_input(at::IntArrayRef sizes, float scale) {
  return (at::arange(c10::multiply_integers(sizes), at::kFloat).remainder(13).sub(6).mul(scale)).reshape(sizes);
}

template <bool MT>
void BM_convolution_aten(benchmark::State& st) {
  set_threads(MT);
  const ConvShape& s = conv_shapes[st.range(0)];
  const at::Tensor x = aten_input(s.input, 0.01f), w = aten_input(s.weight, 0.02f);
  const c10::optional<at::Tensor> b;
  for (auto _ : st)
    benchmark::DoNotOptimize(
        at::convolution(x, w, b, {s.stride, s.stride}, {s.padding, s.padding}, {1, 1}, false, {0, 0}, s.groups));
}

template <bool MT>
void BM_native_batch_norm_aten(benchmark::State& st) {
  set_threads(MT);
  const V shape = pool_shape(st.range(0));
  const at::Tensor x = aten_input(shape, 0.01f);
  const at::Tensor w = aten_input({shape[1]}, 0.1f), b = aten_input({shape[1]}, 0.2f),
                   rm = aten_input({shape[1]}, 0.05f), rv = aten_input({shape[1]}, 0.3f).abs();
  for (auto _ : st) benchmark::DoNotOptimize(at::native_batch_norm(x, w, b, rm, rv, false, 0.1, 1e-5));
}

template <bool MT>
void BM_max_pool2d_with_indices_aten(benchmark::State& st) {
  set_threads(MT);
  const bool one = st.range(0) == 1;
  const at::Tensor x = aten_input(pool_shape(st.range(0)), 0.01f);
  const int64_t kk = one ? 1 : 3, ss = one ? 1 : 2, pp = one ? 0 : 1;
  for (auto _ : st) benchmark::DoNotOptimize(at::max_pool2d_with_indices(x, {kk, kk}, {ss, ss}, {pp, pp}, {1, 1}, false));
}

template <bool MT>
void BM_hardtanh_aten(benchmark::State& st) {
  set_threads(MT);
  const at::Tensor x = aten_input({st.range(0)}, 0.5f);
  for (auto _ : st) benchmark::DoNotOptimize(at::hardtanh(x, 0.0, 6.0));
}

template <bool MT>
void BM_reshape_alias_aten(benchmark::State& st) {
  set_threads(MT);
  const int64_t n = st.range(0);
  const at::Tensor x = aten_input({1, n}, 0.5f);
  for (auto _ : st) benchmark::DoNotOptimize(at::_reshape_alias(x, {n}, {1}));
}
#endif

struct Entry {
  std::string op;
  void (*opd_1t)(benchmark::State&);
  void (*opd_mt)(benchmark::State&);
#if defined(OPD_BENCH_WITH_TORCH)
  void (*aten_1t)(benchmark::State&);
  void (*aten_mt)(benchmark::State&);
#endif
  std::vector<int64_t> args;
};

#if defined(OPD_BENCH_WITH_TORCH)
#define OPD_ROW(op, fn, ...) \
  Entry { op, &fn##_opd<false>, &fn##_opd<true>, &fn##_aten<false>, &fn##_aten<true>, __VA_ARGS__ }
#else
#define OPD_ROW(op, fn, ...) \
  Entry { op, &fn##_opd<false>, &fn##_opd<true>, __VA_ARGS__ }
#endif

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e{
      OPD_ROW("convolution", BM_convolution, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}),
      OPD_ROW("native_batch_norm", BM_native_batch_norm, {1, 802816}),
      OPD_ROW("max_pool2d_with_indices", BM_max_pool2d_with_indices, {1, 802816}),
      OPD_ROW("hardtanh", BM_hardtanh, {1, 1000000}),
      OPD_ROW("_reshape_alias", BM_reshape_alias, {1, 512}),
  };
  return e;
}

void register_benchmarks() {
  for (const Entry& e : entries()) {
    const auto add = [&](const std::string& name, void (*fn)(benchmark::State&)) {
      auto* b = benchmark::RegisterBenchmark(name.c_str(), fn);
      for (int64_t a : e.args) b->Arg(a);
      b->Unit(benchmark::kMicrosecond);
    };
    add("BM_" + e.op + "_1t/opd", e.opd_1t);
    add("BM_" + e.op + "_mt/opd", e.opd_mt);
#if defined(OPD_BENCH_WITH_TORCH)
    add("BM_" + e.op + "_1t/aten", e.aten_1t);
    add("BM_" + e.op + "_mt/aten", e.aten_mt);
#endif
  }
}

class SummaryReporter : public opd_bench::MedianReporter {
  void summary(const char* what, const table& t) override {
    std::printf("\nSummary, median %s in us per call (opd/aten: time ratio; >1 is slower):\n", what);
    std::printf("  %-32s %8s %12s %12s %9s\n", "benchmark", "n", "opd", "aten", "opd/aten");
    for (const Entry& e : entries()) {
      for (const char* threads : {"_1t", "_mt"}) {
        for (int64_t n : e.args) {
          const std::string base = "BM_" + e.op + threads + "/", arg = std::to_string(n);
          const auto o = get(t, base + "opd/" + arg);
          const auto a = get(t, base + "aten/" + arg);
          std::printf("  %-32s %8s", (e.op + threads).c_str(), arg.c_str());
          print(o ? std::optional<double>(*o / 1e3) : std::nullopt, 12, 2);
          print(a ? std::optional<double>(*a / 1e3) : std::nullopt, 12, 2);
          print(o && a ? std::optional<double>(*o / *a) : std::nullopt, 9, 3);
          std::printf("\n");
        }
      }
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
