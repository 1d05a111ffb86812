// opd_bench_lazy (issue 28): the lazy backend's costs, one thread (the _mt rows: all).
//
//   BM_lazy_trace_per_op                 tracing only (no sync), per operator: a
//                                        relu(x * y + 1) chain on lazy tensors, 8x8
//   BM_lazy_trace_per_op_functionalized  the same under the Functionalize layer
//                                        (what user code holding to_lazy tensors pays)
//   BM_lazy_mlp_step/<eager|lazy>        a 3-layer MLP forward (32x256, 256x256
//                                        weights) on a fresh batch per step (made the
//                                        same way on both sides): eager CPU calls, or
//                                        lazily: the batch handed over, trace, sync (a
//                                        graph cache hit: the plan keeps the weights
//                                        transposed, weights_transposed=3 in all), result read
//   BM_lazy_mlp_train_step/<eager|lazy>  the same MLP's training step: forward, mean
//                                        squared output, gradients (autograd), SGD in
//                                        place; lazily: the batch handed over, trace of
//                                        all of it, sync (a graph cache hit), loss read
// Every MLP row counts the minor page faults per step (getrusage).
//   BM_lazy_chain8/<eager|lazy>/<n>      8 elementwise operators on n floats: eager,
//                                        or traced and synced (run as one fused loop)
//   BM_lazy_chain8_mt/<eager|lazy>/<n>   the same on all the machine's threads (real time)
//   BM_lazy_rownorm/<eager|lazy>/<rows>  (x - mean) * rstd * w + b on rows x 1024 floats,
//                                        mean and rstd [rows, 1], w and b [1024]: the
//                                        columns broadcast along rows (gathered per block)
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <random>
#include <thread>
#include <vector>

#include <autograd/autograd.hpp>
#include <dispatch/dispatcher.hpp>
#include <kernels/cpu/parallel.hpp>
#include <kernels/ops.hpp>
#include <lazy/lazy.hpp>

namespace {

namespace ops = opd::kernels::ops;
using opd::Tensor;

Tensor randn(std::vector<int64_t> sizes, unsigned seed, float scale = 1.f) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.f, scale);
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = dist(gen);
  return opd::from_vector<float>(v, sizes);
}

struct Setup {
  opd::RegistrationSet kernels = opd::kernels::register_cpu();
  opd::RegistrationSet autograd = opd::autograd::register_autograd();
  Setup() {
    opd::lazy::ensure_registered();
    opd::kernels::set_num_threads(1);
  }
};
void setup() { static Setup s; }

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// Each step's input: a fresh batch, as a data loader hands over (a copy of
// one tensor, so both sides compute on the same values and pay the same).
Tensor fresh_batch(const Tensor& x) { return opd::call<ops::clone>(x, std::nullopt); }

constexpr int kChainOps = 96;  // 32 x (mul, add, relu)

void trace_chain(const Tensor& x, const Tensor& y) {
  Tensor a = x;
  for (int i = 0; i < kChainOps / 3; ++i)
    a = opd::call<ops::relu>(opd::call<ops::add_scalar::functional>(opd::call<ops::mul::functional>(a, y), 1.0, 1.0));
  benchmark::DoNotOptimize(a);
}

void BM_lazy_trace_per_op(benchmark::State& state) {
  setup();
  const Tensor x = opd::lazy::make_lazy(randn({8, 8}, 1)), y = opd::lazy::make_lazy(randn({8, 8}, 2));
  for (auto _ : state) trace_chain(x, y);  // the graph is dropped unrun with its tensors
  state.counters["us_per_op"] = benchmark::Counter(static_cast<double>(state.iterations()) * kChainOps * 1e-6,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_lazy_trace_per_op);

void BM_lazy_trace_per_op_functionalized(benchmark::State& state) {
  setup();
  const Tensor x = opd::lazy::to_lazy(randn({8, 8}, 1)), y = opd::lazy::to_lazy(randn({8, 8}, 2));
  for (auto _ : state) trace_chain(x, y);
  state.counters["us_per_op"] = benchmark::Counter(static_cast<double>(state.iterations()) * kChainOps * 1e-6,
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_lazy_trace_per_op_functionalized);

struct Mlp {
  std::vector<Tensor> w, b;
  Tensor operator()(Tensor x) const {
    for (std::size_t i = 0; i < w.size(); ++i) {
      x = opd::call<ops::linear>(x, w[i], b[i]);
      if (i + 1 < w.size()) x = opd::call<ops::relu>(x);
    }
    return x;
  }
};

void BM_lazy_mlp_step(benchmark::State& state, bool lazy) {
  setup();
  Mlp cpu, dev;
  for (int i = 0; i < 3; ++i) {
    cpu.w.push_back(randn({256, 256}, 10 + static_cast<unsigned>(i), 0.0625f));
    cpu.b.push_back(randn({256}, 20 + static_cast<unsigned>(i), 0.1f));
    dev.w.push_back(opd::lazy::to_lazy(cpu.w.back()));
    dev.b.push_back(opd::lazy::to_lazy(cpu.b.back()));
  }
  const Tensor x = randn({32, 256}, 3);
  const auto before = opd::lazy::counters();
  const long faults = minor_faults();
  for (auto _ : state) {
    Tensor batch = fresh_batch(x);
    Tensor out = lazy ? opd::lazy::to_cpu(dev(opd::lazy::to_lazy(std::move(batch)))) : cpu(batch);
    benchmark::DoNotOptimize(out);
  }
  state.counters["faults_per_step"] =
      static_cast<double>(minor_faults() - faults) / static_cast<double>(state.iterations());
  const auto after = opd::lazy::counters();
  state.counters["uncached_compile"] = static_cast<double>(after.uncached_compile - before.uncached_compile);
  state.counters["cached_compile"] = static_cast<double>(after.cached_compile - before.cached_compile);
  state.counters["weights_transposed"] = static_cast<double>(after.weights_transposed - before.weights_transposed);
}
BENCHMARK_CAPTURE(BM_lazy_mlp_step, eager, false)->Name("BM_lazy_mlp_step/eager");
BENCHMARK_CAPTURE(BM_lazy_mlp_step, lazy, true)->Name("BM_lazy_mlp_step/lazy");

void BM_lazy_mlp_train_step(benchmark::State& state, bool lazy) {
  setup();
  std::vector<Tensor> params;  // w0, b0, w1, b1, w2, b2
  for (unsigned i = 0; i < 3; ++i) {
    params.push_back(randn({256, 256}, 10 + i, 0.0625f));
    params.push_back(randn({256}, 20 + i, 0.1f));
  }
  for (Tensor& p : params) {
    if (lazy) p = opd::lazy::to_lazy(p);
    p.set_requires_grad(true);
  }
  const Tensor x = randn({32, 256}, 3);
  const auto before = opd::lazy::counters();
  const long faults = minor_faults();
  for (auto _ : state) {
    Tensor h = fresh_batch(x);
    if (lazy) h = opd::lazy::to_lazy(std::move(h));
    for (std::size_t i = 0; i < params.size(); i += 2) {
      h = opd::call<ops::linear>(h, params[i], params[i + 1]);
      if (i + 2 < params.size()) h = opd::call<ops::relu>(h);
    }
    Tensor loss = opd::call<ops::mean>(opd::call<ops::mul::functional>(h, h), std::nullopt);
    const std::vector<Tensor> grads = opd::autograd::grad({loss}, params);
    {
      opd::NoGradGuard no_grad;
      for (std::size_t i = 0; i < params.size(); ++i) opd::call<ops::sub::inplace>(params[i], grads[i], 1e-3);
    }
    if (lazy) {
      opd::lazy::sync();  // the step: forward, backward, update
      loss = opd::lazy::to_cpu(loss);
    }
    benchmark::DoNotOptimize(loss);
  }
  state.counters["faults_per_step"] =
      static_cast<double>(minor_faults() - faults) / static_cast<double>(state.iterations());
  const auto after = opd::lazy::counters();
  state.counters["uncached_compile"] = static_cast<double>(after.uncached_compile - before.uncached_compile);
  state.counters["cached_compile"] = static_cast<double>(after.cached_compile - before.cached_compile);
  state.counters["inputs_written_per_step"] =
      static_cast<double>(after.inputs_written - before.inputs_written) / static_cast<double>(state.iterations());
}
BENCHMARK_CAPTURE(BM_lazy_mlp_train_step, eager, false)->Name("BM_lazy_mlp_train_step/eager");
BENCHMARK_CAPTURE(BM_lazy_mlp_train_step, lazy, true)->Name("BM_lazy_mlp_train_step/lazy");

Tensor chain8(const Tensor& x, const Tensor& y) {
  Tensor a = opd::call<ops::mul::functional>(x, y);
  Tensor b = opd::call<ops::add::functional>(a, x, 1.0);
  Tensor c = opd::call<ops::relu>(b);
  Tensor d = opd::call<ops::mul_scalar::functional>(c, 1.5);
  Tensor e = opd::call<ops::sub::functional>(d, y, 1.0);
  Tensor m = opd::call<ops::gt_scalar::functional>(e, 0.0);
  Tensor f = opd::call<ops::where::functional>(m, e, x);
  return opd::call<ops::add_scalar::functional>(f, 1.0, 1.0);
}

void BM_lazy_chain8(benchmark::State& state, bool lazy, bool all_threads = false) {
  setup();
  struct Threads {  // all of the machine's threads for the _mt rows, then one again
    explicit Threads(bool all) {
      if (all) opd::kernels::set_num_threads(static_cast<int>(std::thread::hardware_concurrency()));
    }
    ~Threads() { opd::kernels::set_num_threads(1); }
  } threads(all_threads);
  const int64_t n = state.range(0);
  const Tensor x = randn({n}, 4), y = randn({n}, 5);
  const Tensor lx = opd::lazy::to_lazy(x), ly = opd::lazy::to_lazy(y);
  Tensor keep;
  const auto before = opd::lazy::counters();
  for (auto _ : state) {
    if (lazy) {
      keep = chain8(lx, ly);
      opd::lazy::sync();  // the result stays on the lazy device, materialized
    } else {
      keep = chain8(x, y);
    }
    benchmark::DoNotOptimize(keep);
  }
  state.SetBytesProcessed(state.iterations() * n * static_cast<int64_t>(sizeof(float)) * 3);
  const auto after = opd::lazy::counters();
  state.counters["fused_per_step"] =
      static_cast<double>(after.fused_nodes - before.fused_nodes) / static_cast<double>(state.iterations());
}
BENCHMARK_CAPTURE(BM_lazy_chain8, eager, false)->Name("BM_lazy_chain8/eager")->Arg(1000)->Arg(1000000);
BENCHMARK_CAPTURE(BM_lazy_chain8, lazy, true)->Name("BM_lazy_chain8/lazy")->Arg(1000)->Arg(1000000);
BENCHMARK_CAPTURE(BM_lazy_chain8, eager_mt, false, true)->Name("BM_lazy_chain8_mt/eager")->Arg(1000000)->UseRealTime();
BENCHMARK_CAPTURE(BM_lazy_chain8, lazy_mt, true, true)->Name("BM_lazy_chain8_mt/lazy")->Arg(1000000)->UseRealTime();

Tensor rownorm(const Tensor& x, const Tensor& mean, const Tensor& rstd, const Tensor& w, const Tensor& b) {
  const Tensor centred = opd::call<ops::sub::functional>(x, mean, 1.0);
  const Tensor scaled = opd::call<ops::mul::functional>(centred, rstd);
  return opd::call<ops::add::functional>(opd::call<ops::mul::functional>(scaled, w), b, 1.0);
}

void BM_lazy_rownorm(benchmark::State& state, bool lazy) {
  setup();
  const int64_t rows = state.range(0);
  const Tensor x = randn({rows, 1024}, 6), mean = randn({rows, 1}, 7), rstd = randn({rows, 1}, 8);
  const Tensor w = randn({1024}, 9), b = randn({1024}, 10);
  const Tensor lx = opd::lazy::to_lazy(x), lm = opd::lazy::to_lazy(mean), lr = opd::lazy::to_lazy(rstd);
  const Tensor lw = opd::lazy::to_lazy(w), lb = opd::lazy::to_lazy(b);
  Tensor keep;
  const auto before = opd::lazy::counters();
  for (auto _ : state) {
    if (lazy) {
      keep = rownorm(lx, lm, lr, lw, lb);
      opd::lazy::sync();
    } else {
      keep = rownorm(x, mean, rstd, w, b);
    }
    benchmark::DoNotOptimize(keep);
  }
  state.SetBytesProcessed(state.iterations() * rows * 1024 * static_cast<int64_t>(sizeof(float)) * 2);
  const auto after = opd::lazy::counters();
  state.counters["fused_per_step"] =
      static_cast<double>(after.fused_nodes - before.fused_nodes) / static_cast<double>(state.iterations());
}
BENCHMARK_CAPTURE(BM_lazy_rownorm, eager, false)->Name("BM_lazy_rownorm/eager")->Arg(32)->Arg(1024);
BENCHMARK_CAPTURE(BM_lazy_rownorm, lazy, true)->Name("BM_lazy_rownorm/lazy")->Arg(32)->Arg(1024);

}  // namespace

BENCHMARK_MAIN();
