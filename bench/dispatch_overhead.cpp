// Per-call overhead of the dispatcher, opd next to PyTorch's c10 (libtorch),
// on one operator in one binary:
//
//   noop(Tensor self, int k, float? s=None) -> Tensor   (the kernel returns self)
//
//   BM_call_direct        the kernel through an opaque function pointer (baseline)
//   BM_call_direct_c10    the same with at::Tensor (extra: c10's own baseline)
//   BM_call_typed/X       typed call reaching the typed kernel
//   BM_call_boxed/X       a Stack with the 3 arguments, boxed call reaching the typed kernel;
//                         opd's stack lends it the caller's tensor (IValue(opd::borrow, t)):
//                         no reference count traffic; c10's Stack has no such push
//   BM_call_boxed/opd_owning  (extra) opd with the tensor pushed as c10 pushes it, a
//                         counted copy
//   BM_call_to_boxed/X    typed call reaching a boxed kernel (box, call, unbox)
//   BM_stack_only/X       (extra) the counted stack building alone, without the call
//
// After the run, a summary prints each path's median, its overhead over
// BM_call_direct (medians of the same run) and opd's overhead / c10's.
// Run with --benchmark_repetitions=5 (or more) for medians; see docs/benchmarks.md.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "bench_ops.hpp"
#include "median_reporter.hpp"

namespace {

// The stack of the boxed benchmarks: cleared (its capacity kept: the loop
// measures the call, not malloc), then noop's three arguments pushed, the
// tensor as a counted copy or (Lend, opd only) lent: IValue(opd::borrow, t).
template <bool Lend = false, class Stack, class T>
void build_noop_stack(Stack& stack, const T& t) {
  stack.clear();
  if constexpr (Lend) stack.emplace_back(opd::borrow, t);
  else stack.emplace_back(t);
  stack.emplace_back(std::int64_t{3});
  stack.emplace_back();  // None
}

// ---- opd ------------------------------------------------------------------
opd::Tensor opd_input() { return opd::empty(std::vector<int64_t>{2, 2}, opd::ScalarType::Float, opd::Device(opd::DeviceType::CPU)); }

void BM_call_direct(benchmark::State& st) {
  const opd::Tensor t = opd_input();
  bench_opd::direct_fn fn = &bench_opd::noop_kernel;
  benchmark::DoNotOptimize(fn);  // the optimizer no longer knows which function fn is
  for (auto _ : st) {
    opd::Tensor r = fn(t, 3, std::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_call_direct);

void BM_call_typed_opd(benchmark::State& st) {
  const opd::Tensor t = opd_input();
  for (auto _ : st) {
    opd::Tensor r = opd::call<bench_opd::noop>(t, std::int64_t{3}, std::optional<double>{});
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_call_typed_opd)->Name("BM_call_typed/opd");

// BM_call_boxed/opd: the caller keeps t alive across the call, so it lends
// it to the stack; BM_call_boxed/opd_owning pushes a counted copy, as c10 does.
template <bool Lend>
void BM_call_boxed_opd(benchmark::State& st) {
  const opd::Tensor t = opd_input();
  opd::Stack stack;
  stack.reserve(4);
  for (auto _ : st) {
    build_noop_stack<Lend>(stack, t);
    opd::call_boxed<bench_opd::noop>(stack);
    benchmark::DoNotOptimize(stack.data());
  }
  if (stack.size() != 1 || !stack[0].to_tensor().is_same(t) || stack[0].is_borrowed())
    st.SkipWithError("wrong result");
  stack.clear();
  if (t.use_count() != 1) st.SkipWithError("reference count changed");
}
BENCHMARK(BM_call_boxed_opd<true>)->Name("BM_call_boxed/opd");
BENCHMARK(BM_call_boxed_opd<false>)->Name("BM_call_boxed/opd_owning");

// Extra: only the counted stack building (clear, three pushes), no call. It
// contains one refcount increment/decrement pair that no boxed call on a
// counted stack can avoid; subtracting it isolates the dispatcher's part.
template <class Stack, class T>
void stack_only(benchmark::State& st, const T& t) {
  Stack stack;
  stack.reserve(4);
  for (auto _ : st) {
    build_noop_stack(stack, t);
    benchmark::DoNotOptimize(stack.data());
    benchmark::ClobberMemory();
  }
}
void BM_stack_only_opd(benchmark::State& st) { stack_only<opd::Stack>(st, opd_input()); }
BENCHMARK(BM_stack_only_opd)->Name("BM_stack_only/opd_owning");

void BM_call_to_boxed_opd(benchmark::State& st) {
  const opd::Tensor t = opd_input();
  for (auto _ : st) {
    opd::Tensor r = opd::call<bench_opd::noop_boxed>(t, std::int64_t{3}, std::optional<double>{});
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_call_to_boxed_opd)->Name("BM_call_to_boxed/opd");

// ---- c10 ------------------------------------------------------------------
#if defined(OPD_BENCH_WITH_TORCH)
at::Tensor c10_input() { return at::empty({2, 2}, at::kFloat); }

void BM_call_direct_c10(benchmark::State& st) {
  const at::Tensor t = c10_input();
  bench_c10::direct_fn fn = &bench_c10::noop_kernel;
  benchmark::DoNotOptimize(fn);
  for (auto _ : st) {
    at::Tensor r = fn(t, 3, c10::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_call_direct_c10);

void BM_call_typed_c10(benchmark::State& st) {
  const at::Tensor t = c10_input();
  const auto op = bench_c10::typed_op();
  for (auto _ : st) {
    at::Tensor r = op.call(t, 3, c10::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_call_typed_c10)->Name("BM_call_typed/c10");

void BM_call_boxed_c10(benchmark::State& st) {
  const at::Tensor t = c10_input();
  const c10::OperatorHandle op = bench_c10::op();
  torch::jit::Stack stack;
  stack.reserve(4);
  for (auto _ : st) {
    build_noop_stack(stack, t);
    op.callBoxed(stack);
    benchmark::DoNotOptimize(stack.data());
  }
  if (stack.size() != 1 || !stack[0].toTensor().is_same(t)) st.SkipWithError("wrong result");
}
BENCHMARK(BM_call_boxed_c10)->Name("BM_call_boxed/c10");

void BM_stack_only_c10(benchmark::State& st) { stack_only<torch::jit::Stack>(st, c10_input()); }
BENCHMARK(BM_stack_only_c10)->Name("BM_stack_only/c10");

void BM_call_to_boxed_c10(benchmark::State& st) {
  const at::Tensor t = c10_input();
  const auto op = bench_c10::typed_boxed_op();
  for (auto _ : st) {
    at::Tensor r = op.call(t, 3, c10::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_call_to_boxed_c10)->Name("BM_call_to_boxed/c10");
#endif

// ---- summary --------------------------------------------------------------
// After the run: each path's median, its overhead over BM_call_direct, and
// opd's overhead / c10's.
class SummaryReporter : public opd_bench::MedianReporter {
 private:
  void summary(const char* what, const table& t) override {
    const auto direct = get(t, "BM_call_direct");
    std::printf("\nSummary, median %s in ns per call (overhead = path - BM_call_direct):\n", what);
    if (direct) std::printf("  BM_call_direct %.2f", *direct);
    if (auto d = get(t, "BM_call_direct_c10")) std::printf("   BM_call_direct_c10 %.2f", *d);
    std::printf("\n  %-25s %9s %9s %13s %13s %12s\n", "path", "opd", "c10", "opd overhead", "c10 overhead",
                "opd/c10");
    struct row {
      const char* path;
      const char* opd_side;
    };
    for (const row r : {row{"BM_call_typed", "/opd"}, row{"BM_call_boxed", "/opd"}, row{"BM_call_boxed", "/opd_owning"},
                        row{"BM_call_to_boxed", "/opd"}}) {
      const char* path = r.path;
      const auto o = get(t, std::string(path) + r.opd_side);
      const auto c = get(t, std::string(path) + "/c10");
      std::optional<double> oo, co;
      if (o && direct) oo = *o - *direct;
      if (c && direct) co = *c - *direct;
      std::printf("  %-25s", (std::string(path + 3) + (std::string_view(r.opd_side) == "/opd" ? "" : " (owning)")).c_str());
      print(o, 9);
      print(c, 9);
      print(oo, 13);
      print(co, 13);
      if (oo && co && *co > 0) std::printf(" %12.3f", *oo / *co);
      std::printf("\n");
    }
    // The counted boxed path without the stack building both sides do.
    const auto bo = get(t, "BM_call_boxed/opd_owning"), bc = get(t, "BM_call_boxed/c10");
    const auto so = get(t, "BM_stack_only/opd_owning"), sc = get(t, "BM_stack_only/c10");
    if (bo && bc && so && sc && direct) {
      const double oo = *bo - *so - *direct, co = *bc - *sc - *direct;
      std::printf("  boxed (owning), less each side's BM_stack_only: opd overhead %.2f, c10 overhead %.2f, opd/c10 %.3f\n", oo, co,
                  co > 0 ? oo / co : 0.0);
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  bench_opd::register_all();
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_threads(1);
#endif
  SummaryReporter reporter;
  return opd_bench::run_benchmarks(argc, argv, reporter);
}
