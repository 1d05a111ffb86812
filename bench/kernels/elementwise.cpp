// The pointwise kernels side by side with ATen (libtorch 1.13), one run:
//
//   BM_<op>_<1t|mt>/<opd|aten>/<n>   op in {exp (unary), mul (binary), lt (comparison)},
//                                    n in {1, 1000, 1000000} float elements
//
// Both sides make the functional call a user makes: opd::call through the
// dispatcher (kernels/ops.hpp, kernels/ops_pointwise.hpp) and at::exp & co.,
// output allocation included. 1t: one thread on both sides
// (opd::kernels::set_num_threads(1), at::set_num_threads(1)); mt: every core.
// See docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>
#include <kernels/ops_pointwise.hpp>

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#endif

namespace {

namespace ops = opd::kernels::ops;

// Values in [0.5, 1.5): a deterministic pattern, the same on both sides.
std::vector<float> pattern(int64_t n, float shift) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = 0.5f + static_cast<float>((i * 7919) % 1000) / 1000.f + shift;
  return v;
}

int threads_for(bool mt) { return mt ? static_cast<int>(std::max(1u, std::thread::hardware_concurrency())) : 1; }

void set_threads(int n) {
  opd::kernels::set_num_threads(n);
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_threads(n);
#endif
}

enum class Op { exp, mul, lt };

template <Op K>
void BM_opd(benchmark::State& st, bool mt) {
  set_threads(threads_for(mt));
  const int64_t n = st.range(0);
  const opd::Tensor a = opd::from_vector<float>(pattern(n, 0.f));
  const opd::Tensor b = opd::from_vector<float>(pattern(n, 0.001f));
  for (auto _ : st) {
    if constexpr (K == Op::exp) {
      benchmark::DoNotOptimize(opd::call<ops::exp::functional>(a));
    } else if constexpr (K == Op::mul) {
      benchmark::DoNotOptimize(opd::call<ops::mul::functional>(a, b));
    } else {
      benchmark::DoNotOptimize(opd::call<ops::lt::functional>(a, b));
    }
  }
  st.SetItemsProcessed(st.iterations() * n);
}

#if defined(OPD_BENCH_WITH_TORCH)
template <Op K>
void BM_aten(benchmark::State& st, bool mt) {
  set_threads(threads_for(mt));
  const int64_t n = st.range(0);
  std::vector<float> va = pattern(n, 0.f), vb = pattern(n, 0.001f);
  const at::Tensor a = at::from_blob(va.data(), {n}, at::kFloat).clone();
  const at::Tensor b = at::from_blob(vb.data(), {n}, at::kFloat).clone();
  for (auto _ : st) {
    if constexpr (K == Op::exp) {
      benchmark::DoNotOptimize(at::exp(a));
    } else if constexpr (K == Op::mul) {
      benchmark::DoNotOptimize(at::mul(a, b));
    } else {
      benchmark::DoNotOptimize(at::lt(a, b));
    }
  }
  st.SetItemsProcessed(st.iterations() * n);
}
#endif

template <Op K>
void register_op(const char* name) {
  for (bool mt : {false, true}) {
    const std::string base = std::string("BM_") + name + (mt ? "_mt" : "_1t");
    benchmark::RegisterBenchmark((base + "/opd").c_str(), [mt](benchmark::State& st) { BM_opd<K>(st, mt); })
        ->Arg(1)->Arg(1000)->Arg(1000000)->UseRealTime();
#if defined(OPD_BENCH_WITH_TORCH)
    benchmark::RegisterBenchmark((base + "/aten").c_str(), [mt](benchmark::State& st) { BM_aten<K>(st, mt); })
        ->Arg(1)->Arg(1000)->Arg(1000000)->UseRealTime();
#endif
  }
}

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
  register_op<Op::exp>("exp");
  register_op<Op::mul>("mul");
  register_op<Op::lt>("lt");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
