// Driver for instruction counts under callgrind: N calls of one path.
//
//   dispatch_callgrind <opd|c10> <direct|typed|boxed|boxed_owning|to_boxed> <N>
//
// Instructions per call = (Ir(N=200000) - Ir(N=100000)) / 100000, which
// cancels start-up, registration and the loop's set-up (bench/callgrind.sh).
// Each path's loop is a function of its own, so that what the compiler
// inlines into one loop does not depend on the other paths.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include <benchmark/benchmark.h>  // DoNotOptimize only

#include "bench_ops.hpp"

namespace {

using loop_fn = void (*)(long);

// ---- opd ------------------------------------------------------------------
opd::Tensor opd_input() {
  return opd::empty(std::vector<int64_t>{2, 2}, opd::ScalarType::Float, opd::Device(opd::DeviceType::CPU));
}

[[gnu::noinline]] void opd_direct(long n) {
  const opd::Tensor t = opd_input();
  bench_opd::direct_fn fn = &bench_opd::noop_kernel;
  benchmark::DoNotOptimize(fn);
  for (long i = 0; i < n; ++i) {
    opd::Tensor r = fn(t, 3, std::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
[[gnu::noinline]] void opd_typed(long n) {
  const opd::Tensor t = opd_input();
  for (long i = 0; i < n; ++i) {
    opd::Tensor r = opd::call<bench_opd::noop>(t, std::int64_t{3}, std::optional<double>{});
    benchmark::DoNotOptimize(r);
  }
}
// Lend = true as BM_call_boxed/opd (the tensor lent to the stack), false as
// BM_call_boxed/opd_owning (pushed as a counted copy).
template <bool Lend>
[[gnu::noinline]] void opd_boxed(long n) {
  const opd::Tensor t = opd_input();
  opd::Stack stack;
  stack.reserve(4);
  for (long i = 0; i < n; ++i) {
    stack.clear();
    if constexpr (Lend) stack.emplace_back(opd::borrow, t);
    else stack.emplace_back(t);
    stack.emplace_back(std::int64_t{3});
    stack.emplace_back();
    opd::call_boxed<bench_opd::noop>(stack);
    benchmark::DoNotOptimize(stack.data());
  }
}
[[gnu::noinline]] void opd_to_boxed(long n) {
  const opd::Tensor t = opd_input();
  for (long i = 0; i < n; ++i) {
    opd::Tensor r = opd::call<bench_opd::noop_boxed>(t, std::int64_t{3}, std::optional<double>{});
    benchmark::DoNotOptimize(r);
  }
}

loop_fn opd_loop(const char* path) {
  if (std::strcmp(path, "direct") == 0) return &opd_direct;
  if (std::strcmp(path, "typed") == 0) return &opd_typed;
  if (std::strcmp(path, "boxed") == 0) return &opd_boxed<true>;
  if (std::strcmp(path, "boxed_owning") == 0) return &opd_boxed<false>;
  if (std::strcmp(path, "to_boxed") == 0) return &opd_to_boxed;
  return nullptr;
}

// ---- c10 ------------------------------------------------------------------
#if defined(OPD_BENCH_WITH_TORCH)
[[gnu::noinline]] void c10_direct(long n) {
  const at::Tensor t = at::empty({2, 2}, at::kFloat);
  bench_c10::direct_fn fn = &bench_c10::noop_kernel;
  benchmark::DoNotOptimize(fn);
  for (long i = 0; i < n; ++i) {
    at::Tensor r = fn(t, 3, c10::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
[[gnu::noinline]] void c10_typed(long n) {
  const at::Tensor t = at::empty({2, 2}, at::kFloat);
  const auto op = bench_c10::typed_op();
  for (long i = 0; i < n; ++i) {
    at::Tensor r = op.call(t, 3, c10::nullopt);
    benchmark::DoNotOptimize(r);
  }
}
[[gnu::noinline]] void c10_boxed(long n) {
  const at::Tensor t = at::empty({2, 2}, at::kFloat);
  const c10::OperatorHandle op = bench_c10::op();
  torch::jit::Stack stack;
  stack.reserve(4);
  for (long i = 0; i < n; ++i) {
    stack.clear();
    stack.emplace_back(t);
    stack.emplace_back(int64_t{3});
    stack.emplace_back();
    op.callBoxed(stack);
    benchmark::DoNotOptimize(stack.data());
  }
}
[[gnu::noinline]] void c10_to_boxed(long n) {
  const at::Tensor t = at::empty({2, 2}, at::kFloat);
  const auto op = bench_c10::typed_boxed_op();
  for (long i = 0; i < n; ++i) {
    at::Tensor r = op.call(t, 3, c10::nullopt);
    benchmark::DoNotOptimize(r);
  }
}

loop_fn c10_loop(const char* path) {
  if (std::strcmp(path, "direct") == 0) return &c10_direct;
  if (std::strcmp(path, "typed") == 0) return &c10_typed;
  if (std::strcmp(path, "boxed") == 0) return &c10_boxed;
  if (std::strcmp(path, "to_boxed") == 0) return &c10_to_boxed;
  return nullptr;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <opd|c10> <direct|typed|boxed|boxed_owning|to_boxed> <N>\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[3]);
  bench_opd::register_all();
  loop_fn loop = nullptr;
  if (std::strcmp(argv[1], "opd") == 0) loop = opd_loop(argv[2]);
#if defined(OPD_BENCH_WITH_TORCH)
  else if (std::strcmp(argv[1], "c10") == 0) loop = c10_loop(argv[2]);
#endif
  if (loop == nullptr) {
    std::fprintf(stderr, "unknown side or path: %s %s\n", argv[1], argv[2]);
    return 2;
  }
  loop(1);  // warm the path once (first-call statics, lazy tables) outside the count's difference
  loop(n);
  return 0;
}
