// Functionalization overhead: opd's Functionalize layer next to libtorch
// 1.13's, on the same program, one thread:
//
//   100 steps of   v = x.view(shape); v.add_(1)     (x: float32, n elements)
//
//   BM_steps/<side>/<n>
//     side  opd_plain    the program on CPU tensors (the floor)
//           opd_func     x = opd::to_functional(x) (remove_views, the mode
//                        libtorch's C++ functionalization uses by default),
//                        the Functionalize key on, 100 steps, opd::sync(x)
//           aten_plain   the program on ATen CPU tensors
//           aten_func    at::functionalization::impl::to_functional_tensor(x),
//                        c10::impl::IncludeDispatchKeyGuard(Functionalize),
//                        100 steps, at::functionalization::impl::sync(x)
//     n     16 (view [4, 4]), 1000000 (view [1000, 1000])
//
// Each benchmark iteration is the 100 steps (the wrapping outside the timed
// loop, the final sync inside it); time per step = reported time / 100.
// Results are checked once (x's values after the steps). Run with
// --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include <functionalize/functionalize.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_views.hpp>

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/FunctionalTensorWrapper.h>
#include <ATen/Parallel.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#endif

namespace {

constexpr int kSteps = 100;
namespace ops = opd::kernels::ops;

std::vector<int64_t> view_shape(int64_t n) { return n == 16 ? std::vector<int64_t>{4, 4} : std::vector<int64_t>{1000, 1000}; }

opd::RegistrationSet& opd_kernels() {
  static opd::RegistrationSet k = opd::kernels::register_cpu();
  return k;
}

opd::Tensor opd_input(int64_t n) {
  (void)opd_kernels();
  return opd::from_vector<float>(std::vector<float>(static_cast<std::size_t>(n), 0.0f), {n});
}

void opd_steps(opd::Tensor& x, const std::vector<int64_t>& shape) {
  for (int i = 0; i < kSteps; ++i) {
    opd::Tensor v = opd::call<ops::view>(x, shape);
    opd::call<ops::add_scalar::inplace>(v, 1.0, 1.0);
  }
}

bool check_first(benchmark::State& st, float got, float expected) {
  if (got != expected) {
    st.SkipWithError("wrong result");
    return false;
  }
  return true;
}

void BM_opd_plain(benchmark::State& st) {
  opd::Tensor x = opd_input(st.range(0));
  const auto shape = view_shape(st.range(0));
  int64_t runs = 0;
  for (auto _ : st) {
    opd_steps(x, shape);
    ++runs;
  }
  check_first(st, opd::to_vector<float>(x)[0], static_cast<float>(runs * kSteps));
}

void BM_opd_func(benchmark::State& st) {
  const opd::Tensor x0 = opd_input(st.range(0));
  opd::Tensor x = opd::to_functional(x0, opd::FunctionalizeMode::remove_views);
  const auto shape = view_shape(st.range(0));
  int64_t runs = 0;
  {
    opd::FunctionalizeGuard on(opd::FunctionalizeMode::remove_views);
    for (auto _ : st) {
      opd_steps(x, shape);
      opd::sync(x);
      ++runs;
    }
  }
  check_first(st, opd::to_vector<float>(opd::from_functional(x))[0], static_cast<float>(runs * kSteps));
}

#if defined(OPD_BENCH_WITH_TORCH)
void aten_steps(at::Tensor& x, at::IntArrayRef shape) {
  for (int i = 0; i < kSteps; ++i) {
    at::Tensor v = x.view(shape);
    v.add_(1);
  }
}

void BM_aten_plain(benchmark::State& st) {
  at::set_num_threads(1);
  at::Tensor x = at::zeros({st.range(0)});
  const auto shape = view_shape(st.range(0));
  int64_t runs = 0;
  for (auto _ : st) {
    aten_steps(x, shape);
    ++runs;
  }
  check_first(st, x[0].item<float>(), static_cast<float>(runs * kSteps));
}

void BM_aten_func(benchmark::State& st) {
  at::set_num_threads(1);
  at::Tensor x0 = at::zeros({st.range(0)});
  at::Tensor x = at::functionalization::impl::to_functional_tensor(x0);
  const auto shape = view_shape(st.range(0));
  int64_t runs = 0;
  {
    c10::impl::IncludeDispatchKeyGuard on(c10::DispatchKey::Functionalize);
    for (auto _ : st) {
      aten_steps(x, shape);
      at::functionalization::impl::sync(x);
      ++runs;
    }
  }
  const at::Tensor v = at::functionalization::impl::from_functional_tensor(x);
  check_first(st, v[0].item<float>(), static_cast<float>(runs * kSteps));
}
#endif

void sizes(benchmark::internal::Benchmark* b) { b->Arg(16)->Arg(1000000)->Unit(benchmark::kMicrosecond); }

BENCHMARK(BM_opd_plain)->Apply(sizes);
BENCHMARK(BM_opd_func)->Apply(sizes);
#if defined(OPD_BENCH_WITH_TORCH)
BENCHMARK(BM_aten_plain)->Apply(sizes);
BENCHMARK(BM_aten_func)->Apply(sizes);
#endif

}  // namespace

BENCHMARK_MAIN();
