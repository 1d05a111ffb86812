// Driver for instruction counts under callgrind: N calls of one path.
//
//   dispatch_callgrind <opd|c10> <direct|typed|boxed|to_boxed> <N>
//
// Instructions per call = (Ir(N=200000) - Ir(N=100000)) / 100000, which
// cancels start-up, registration and the loop's set-up (bench/callgrind.sh).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include <benchmark/benchmark.h>  // DoNotOptimize only

#include "bench_ops.hpp"

namespace {

int run_opd(const char* path, long n) {
  const opd::Tensor t = opd::empty(std::vector<int64_t>{2, 2}, opd::ScalarType::Float, opd::Device(opd::DeviceType::CPU));
  if (std::strcmp(path, "direct") == 0) {
    bench_opd::direct_fn fn = &bench_opd::noop_kernel;
    benchmark::DoNotOptimize(fn);
    for (long i = 0; i < n; ++i) {
      opd::Tensor r = fn(t, 3, std::nullopt);
      benchmark::DoNotOptimize(r);
    }
  } else if (std::strcmp(path, "typed") == 0) {
    for (long i = 0; i < n; ++i) {
      opd::Tensor r = opd::call<bench_opd::noop>(t, std::int64_t{3}, std::optional<double>{});
      benchmark::DoNotOptimize(r);
    }
  } else if (std::strcmp(path, "boxed") == 0) {
    opd::Stack stack;
    stack.reserve(4);
    for (long i = 0; i < n; ++i) {
      stack.clear();
      stack.emplace_back(t);
      stack.emplace_back(std::int64_t{3});
      stack.emplace_back();
      opd::call_boxed<bench_opd::noop>(stack);
      benchmark::DoNotOptimize(stack.data());
    }
  } else if (std::strcmp(path, "to_boxed") == 0) {
    for (long i = 0; i < n; ++i) {
      opd::Tensor r = opd::call<bench_opd::noop_boxed>(t, std::int64_t{3}, std::optional<double>{});
      benchmark::DoNotOptimize(r);
    }
  } else {
    return 2;
  }
  return 0;
}

#if defined(OPD_BENCH_WITH_TORCH)
int run_c10(const char* path, long n) {
  const at::Tensor t = at::empty({2, 2}, at::kFloat);
  if (std::strcmp(path, "direct") == 0) {
    bench_c10::direct_fn fn = &bench_c10::noop_kernel;
    benchmark::DoNotOptimize(fn);
    for (long i = 0; i < n; ++i) {
      at::Tensor r = fn(t, 3, c10::nullopt);
      benchmark::DoNotOptimize(r);
    }
  } else if (std::strcmp(path, "typed") == 0) {
    const auto op = bench_c10::typed_op();
    for (long i = 0; i < n; ++i) {
      at::Tensor r = op.call(t, 3, c10::nullopt);
      benchmark::DoNotOptimize(r);
    }
  } else if (std::strcmp(path, "boxed") == 0) {
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
  } else if (std::strcmp(path, "to_boxed") == 0) {
    const auto op = bench_c10::typed_boxed_op();
    for (long i = 0; i < n; ++i) {
      at::Tensor r = op.call(t, 3, c10::nullopt);
      benchmark::DoNotOptimize(r);
    }
  } else {
    return 2;
  }
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <opd|c10> <direct|typed|boxed|to_boxed> <N>\n", argv[0]);
    return 2;
  }
  const long n = std::atol(argv[3]);
  bench_opd::register_all();
  int rc = 2;
  if (std::strcmp(argv[1], "opd") == 0) {
    // Warm the path once (first-call statics, lazy tables) outside the count's difference.
    run_opd(argv[2], 1);
    rc = run_opd(argv[2], n);
  }
#if defined(OPD_BENCH_WITH_TORCH)
  else if (std::strcmp(argv[1], "c10") == 0) {
    run_c10(argv[2], 1);
    rc = run_c10(argv[2], n);
  }
#endif
  if (rc == 2) std::fprintf(stderr, "unknown side or path: %s %s\n", argv[1], argv[2]);
  return rc;
}
