// Autograd's costs, opd and ATen (libtorch 1.13) side by side:
//   BM_autograd_<add|mul|transpose>_<nograd|grad|inference>/<opd|aten>   forward, 1-element float
//   BM_backward_chain_<add|mul>/<opd|aten>/<nodes>                      backward per chain
// `opd_bench_autograd callgrind <row> <side> <n>` runs one row n times (no
// Google Benchmark), for instruction counts: bench/autograd_callgrind.sh.
#include <benchmark/benchmark.h>

#include <autograd/autograd.hpp>
#include <dispatch/dispatcher.hpp>
#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "../../examples/autograd_training.hpp"

#ifdef OPD_BENCH_WITH_TORCH
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/grad_mode.h>
#include <c10/core/InferenceMode.h>
#endif

namespace {

namespace k = opd::kernels::ops;

struct Setup {
  opd::RegistrationSet kernels = opd::kernels::register_cpu();
  opd::RegistrationSet autograd = opd::autograd::register_autograd();
};
Setup& setup() {
  static Setup s;
  return s;
}

opd::Tensor one(bool requires_grad) {
  opd::Tensor t = opd::from_vector<float>({1.5f});
  if (requires_grad) t.set_requires_grad(true);
  return t;
}
opd::Tensor one2d(bool requires_grad) {
  opd::Tensor t = opd::from_vector<float>({1.5f}, {1, 1});
  if (requires_grad) t.set_requires_grad(true);
  return t;
}

// One forward call of a row, opd side: returns a function run once per iteration.
std::function<void()> opd_forward(const std::string& op, const std::string& mode) {
  setup();
  const bool grad = mode == "grad";
  auto guard = mode == "inference" ? std::make_shared<opd::InferenceMode>() : nullptr;
  if (op == "add") {
    opd::Tensor a = one(grad), b = one(false);
    return [a, b, guard] { benchmark::DoNotOptimize(opd::call<k::add::functional>(a, b)); };
  }
  if (op == "mul") {
    opd::Tensor a = one(grad), b = one(false);
    return [a, b, guard] { benchmark::DoNotOptimize(opd::call<k::mul::functional>(a, b)); };
  }
  opd::Tensor a = one2d(grad);
  return [a, guard] { benchmark::DoNotOptimize(opd::call<k::transpose>(a, 0, 1)); };
}

// A chain of `nodes` operations from one leaf, then its backward.
void opd_chain(const std::string& op, int nodes) {
  opd::Tensor x = one(true);
  opd::Tensor c = one(false);
  opd::Tensor y = x;
  for (int i = 0; i < nodes; ++i) y = op == "add" ? opd::call<k::add::functional>(y, c) : opd::call<k::mul::functional>(y, c);
  y.backward();
}

#ifdef OPD_BENCH_WITH_TORCH
std::function<void()> aten_forward(const std::string& op, const std::string& mode) {
  const bool grad = mode == "grad";
  auto guard = mode == "inference" ? std::make_shared<c10::InferenceMode>() : nullptr;
  at::Tensor a = op == "transpose" ? at::full({1, 1}, 1.5f) : at::full({1}, 1.5f);
  if (grad) a.set_requires_grad(true);
  at::Tensor b = at::full({1}, 1.5f);
  if (op == "add") return [a, b, guard] { benchmark::DoNotOptimize(at::add(a, b)); };
  if (op == "mul") return [a, b, guard] { benchmark::DoNotOptimize(at::mul(a, b)); };
  return [a, guard] { benchmark::DoNotOptimize(at::transpose(a, 0, 1)); };
}
void aten_chain(const std::string& op, int nodes) {
  at::Tensor x = at::full({1}, 1.5f).set_requires_grad(true);
  at::Tensor c = at::full({1}, 1.5f);
  at::Tensor y = x;
  for (int i = 0; i < nodes; ++i) y = op == "add" ? at::add(y, c) : at::mul(y, c);
  y.backward();
}
#endif

void BM_forward(benchmark::State& state, std::string op, std::string mode, bool aten) {
  std::function<void()> f;
#ifdef OPD_BENCH_WITH_TORCH
  f = aten ? aten_forward(op, mode) : opd_forward(op, mode);
#else
  if (aten) {
    state.SkipWithError("libtorch not found");
    return;
  }
  f = opd_forward(op, mode);
#endif
  for (auto _ : state) f();
}
void BM_chain(benchmark::State& state, std::string op, bool aten) {
  setup();
  const int nodes = static_cast<int>(state.range(0));
  for (auto _ : state) {
#ifdef OPD_BENCH_WITH_TORCH
    if (aten) {
      aten_chain(op, nodes);
      continue;
    }
#else
    if (aten) {
      state.SkipWithError("libtorch not found");
      return;
    }
#endif
    opd_chain(op, nodes);
  }
}

// One SGD step of examples/autograd_training.hpp's MLP (batch 64): forward,
// grad of the loss, in-place update; the same step with ATen.
void BM_train_mlp(benchmark::State& state, bool all_threads, bool aten) {
  setup();
  const int threads = all_threads ? static_cast<int>(std::thread::hardware_concurrency()) : 1;
  const opd_training::Problem p = opd_training::mlp_problem(64, 1);
  const opd_training::Batch& b = p.batches[0];
  if (aten) {
#ifdef OPD_BENCH_WITH_TORCH
    at::set_num_threads(threads);
    std::vector<at::Tensor> w;
    for (const opd_training::Param& q : p.params)
      w.push_back(at::from_blob(const_cast<float*>(q.values.data()), q.shape, at::kFloat).clone().set_requires_grad(true));
    const at::Tensor x = at::from_blob(const_cast<float*>(b.x.data()), p.input_shape, at::kFloat).clone();
    const at::Tensor y = at::from_blob(const_cast<int64_t*>(b.target.data()), {64}, at::kLong).clone();
    for (auto _ : state) {
      const at::Tensor loss = at::nll_loss(at::log_softmax(at::linear(at::relu(at::linear(x, w[0], w[1])), w[2], w[3]), 1), y);
      loss.backward();
      at::NoGradGuard no_grad;
      for (at::Tensor& t : w) {
        t.sub_(t.grad(), 1e-3);
        t.mutable_grad().reset();
      }
    }
#else
    state.SkipWithError("libtorch not found");
#endif
    return;
  }
  opd::kernels::set_num_threads(threads);
  std::vector<opd::Tensor> w = opd_training::leaves(p);
  const opd::Tensor x = opd_training::input(p, b), y = opd_training::target(b);
  for (auto _ : state) benchmark::DoNotOptimize(opd_training::sgd_step(&opd_training::mlp, w, x, y, 1e-3f));
}

void register_rows() {
  for (bool all_threads : {false, true}) {
    for (bool aten : {false, true}) {
      const std::string name = std::string("BM_train_mlp_") + (all_threads ? "mt" : "1t") + (aten ? "/aten" : "/opd");
      benchmark::RegisterBenchmark(name.c_str(), BM_train_mlp, all_threads, aten);
    }
  }
  for (const char* op : {"add", "mul", "transpose"}) {
    for (const char* mode : {"nograd", "grad", "inference"}) {
      for (bool aten : {false, true}) {
        const std::string name = std::string("BM_autograd_") + op + "_" + mode + (aten ? "/aten" : "/opd");
        benchmark::RegisterBenchmark(name.c_str(), BM_forward, std::string(op), std::string(mode), aten);
      }
    }
  }
  for (const char* op : {"add", "mul"}) {
    for (bool aten : {false, true}) {
      const std::string name = std::string("BM_backward_chain_") + op + (aten ? "/aten" : "/opd");
      benchmark::RegisterBenchmark(name.c_str(), BM_chain, std::string(op), aten)->Arg(10)->Arg(1000);
    }
  }
}

// callgrind <row> <side> <n>: rows add_nograd, ..., chain_add_<nodes>, and
// add_noautograd (opd: the same call with no autograd registered at all).
int run_callgrind(const std::string& row, const std::string& side, long n) {
  const bool aten = side == "aten";
  if (row == "add_noautograd") {
    auto kernels = opd::kernels::register_cpu();
    opd::Tensor a = one(false), b = one(false);
    for (long i = 0; i < n; ++i) benchmark::DoNotOptimize(opd::call<k::add::functional>(a, b));
    return 0;
  }
  if (row.rfind("chain_", 0) == 0) {
    const std::string op = row.substr(6, 3);
    const int nodes = std::atoi(row.c_str() + 10);
    setup();
    for (long i = 0; i < n; ++i) {
#ifdef OPD_BENCH_WITH_TORCH
      if (aten) {
        aten_chain(op, nodes);
        continue;
      }
#endif
      opd_chain(op, nodes);
    }
    return 0;
  }
  const std::size_t us = row.find('_');
  const std::string op = row.substr(0, us), mode = row.substr(us + 1);
  std::function<void()> f;
#ifdef OPD_BENCH_WITH_TORCH
  f = aten ? aten_forward(op, mode) : opd_forward(op, mode);
#else
  if (aten) return 2;
  f = opd_forward(op, mode);
#endif
  for (long i = 0; i < n; ++i) f();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 5 && std::strcmp(argv[1], "callgrind") == 0) return run_callgrind(argv[2], argv[3], std::atol(argv[4]));
  register_rows();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
