// Per-call cost of the C ABI on a 1-element add (add.out into an existing
// 1-element float tensor, alpha = 1), next to the C++ call and ATen:
//
//   BM_add1/opd_call   opd::call<add::out>(a, b, 1, out): the typed C++ call
//   BM_add1/c_shim     opd_add_out(out, a, b, alpha): the exported C function
//                      (OPD_EXPORT_C), called through a pointer to it hidden from
//                      the optimizer, as one from dlsym would be
//   BM_add1/c_boxed    opd_call_boxed("aten::add.out", 4 tagged values): lookup by
//                      name, the arguments checked, a Stack, the boxed kernel; the
//                      returned handle released
//   BM_add1/aten       at::add_out(out, a, b, 1) (libtorch, when found)
//
// The summary prints the medians and the three ratios: c_shim - opd_call
// (target <= 5 ns), c_boxed / c_shim (<= 2), c_shim / aten (<= 0.5).
// Run with --benchmark_repetitions=5 for medians; see docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "dispatch/c_abi/shim.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/ops.hpp"
#include "median_reporter.hpp"

#if defined(OPD_HEADER_ONLY)
#include "dispatch/c_abi/c_entry_points-inl.hpp"
#endif
#ifdef OPD_BENCH_WITH_TORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#endif

using add_out = opd::kernels::ops::add::out;
OPD_EXPORT_C(bench_opd_add_out, add_out)

namespace {

opd::Tensor one() { return opd::from_vector<float>({1.0f}, {1}); }

void BM_add1_opd_call(benchmark::State& st) {
  const opd::Tensor a = one(), b = one();
  opd::Tensor out = one();
  const opd::Scalar alpha(1);
  for (auto _ : st) {
    opd::call<add_out>(a, b, alpha, out);
    benchmark::ClobberMemory();
  }
  if (out.data_ptr<float>()[0] != 2.0f) st.SkipWithError("wrong result");
}

void BM_add1_c_shim(benchmark::State& st) {
  opd_tensor a = opd::c_abi::detail::new_tensor(one()), b = opd::c_abi::detail::new_tensor(one());
  opd_tensor out = opd::c_abi::detail::new_tensor(one());
  // A pointer the caller loaded, as from dlsym: read back through a volatile
  // so the compiler cannot call the trampoline directly. (Not DoNotOptimize:
  // with g++ 12 -O2 under ASan its "+m,r" operand skipped the store of the
  // address, and the loop called a null pointer.)
  decltype(&bench_opd_add_out) volatile fn_slot = &bench_opd_add_out;
  const auto fn = fn_slot;
  opd_scalar alpha{};
  alpha.tag = OPD_SCALAR_INT;
  alpha.v.i = 1;
  for (auto _ : st) {
    const int32_t status = fn(out, a, b, alpha);
    benchmark::DoNotOptimize(status);
    benchmark::ClobberMemory();
  }
  if (out->t.data_ptr<float>()[0] != 2.0f) st.SkipWithError("wrong result");
  for (opd_tensor t : {a, b, out}) opd_tensor_release(t);
}

void BM_add1_c_boxed(benchmark::State& st) {
  opd_tensor a = opd::c_abi::detail::new_tensor(one()), b = opd::c_abi::detail::new_tensor(one());
  opd_tensor out = opd::c_abi::detail::new_tensor(one());
  const std::string name = std::string(add_out::name) + "." + std::string(add_out::overload_name);
  opd_any args[4]{};
  args[0].tag = OPD_TAG_TENSOR, args[0].v.tensor = a;
  args[1].tag = OPD_TAG_TENSOR, args[1].v.tensor = b;
  args[2].tag = OPD_TAG_INT, args[2].v.i = 1;
  args[3].tag = OPD_TAG_TENSOR, args[3].v.tensor = out;
  for (auto _ : st) {
    opd_any result{};
    int64_t n = 0;
    const int32_t status = opd_call_boxed(name.c_str(), args, 4, &result, 1, &n);
    benchmark::DoNotOptimize(status);
    opd_tensor_release(result.v.tensor);  // the returned out, a new handle
  }
  if (out->t.data_ptr<float>()[0] != 2.0f) st.SkipWithError("wrong result");
  for (opd_tensor t : {a, b, out}) opd_tensor_release(t);
}

#ifdef OPD_BENCH_WITH_TORCH
void BM_add1_aten(benchmark::State& st) {
  const at::Tensor a = at::ones({1}), b = at::ones({1});
  at::Tensor out = at::ones({1});
  const at::Scalar alpha(1);
  for (auto _ : st) {
    at::add_out(out, a, b, alpha);
    benchmark::ClobberMemory();
  }
  if (out.data_ptr<float>()[0] != 2.0f) st.SkipWithError("wrong result");
}
#endif

struct Summary : opd_bench::MedianReporter {
  void summary(const char* what, const table& t) override {
    const auto o = get(t, "BM_add1/opd_call"), s = get(t, "BM_add1/c_shim"), b = get(t, "BM_add1/c_boxed"),
               a = get(t, "BM_add1/aten");
    std::printf("\nSummary, median %s in ns per call:\n", what);
    std::printf("  %10s %10s %10s %10s %16s %16s %14s\n", "opd_call", "c_shim", "c_boxed", "aten",
                "shim-call (<=5)", "boxed/shim (<=2)", "shim/aten (<=.5)");
    std::printf(" ");
    print(o, 10, 1);
    print(s, 10, 1);
    print(b, 10, 1);
    print(a, 10, 1);
    print(o && s ? std::optional<double>(*s - *o) : std::nullopt, 16, 1);
    print(b && s ? std::optional<double>(*b / *s) : std::nullopt, 16, 2);
    print(a && s ? std::optional<double>(*s / *a) : std::nullopt, 14, 2);
    std::printf("\n");
  }
};

}  // namespace

int main(int argc, char** argv) {
  const opd::RegistrationSet kernels = opd::kernels::register_cpu();
#ifdef OPD_BENCH_WITH_TORCH
  at::set_num_threads(1);
  benchmark::RegisterBenchmark("BM_add1/aten", BM_add1_aten);
#endif
  benchmark::RegisterBenchmark("BM_add1/opd_call", BM_add1_opd_call);
  benchmark::RegisterBenchmark("BM_add1/c_shim", BM_add1_c_shim);
  benchmark::RegisterBenchmark("BM_add1/c_boxed", BM_add1_c_boxed);
  Summary reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
