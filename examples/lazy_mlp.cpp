// A small MLP forward on the lazy device (include/lazy/): each step is
// traced into a graph of IR nodes (derived from the operators' schemas, with
// shapes from their Meta kernels), and run when its result is read. The
// first step compiles the graph (one uncached compile); the later steps find
// it in the graph cache. Prints the graph, the counters after each step, and
// checks the result against eager CPU execution (exit code 1 when it differs).
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

#include <dispatch/dispatcher.hpp>
#include <kernels/ops.hpp>
#include <lazy/lazy.hpp>

namespace ops = opd::kernels::ops;
using opd::Tensor;

Tensor randn(std::vector<int64_t> sizes, unsigned seed, float scale) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> dist(0.f, scale);
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = dist(gen);
  return opd::from_vector<float>(v, sizes);
}

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

int main() {
  auto cpu_kernels = opd::kernels::register_cpu();
  opd::lazy::ensure_registered();

  Mlp eager, on_lazy;
  for (int i = 0; i < 3; ++i) {
    eager.w.push_back(randn({64, 64}, 10 + i, 0.125f));
    eager.b.push_back(randn({64}, 20 + i, 0.1f));
    on_lazy.w.push_back(opd::lazy::to_lazy(eager.w.back()));
    on_lazy.b.push_back(opd::lazy::to_lazy(eager.b.back()));
  }

  bool same = true;
  for (int step = 0; step < 3; ++step) {
    const Tensor x = randn({8, 64}, 100 + step, 1.f);
    Tensor y = on_lazy(opd::lazy::to_lazy(x));
    if (step == 0) {
      std::cout << "pending graph of step 0:\n" << opd::lazy::dump_graph() << "\nas Graphviz DOT:\n" << opd::lazy::dump_dot();
    }
    const Tensor got = opd::lazy::to_cpu(y);  // sync: compile (first step) or cache hit
    same = same && opd::to_vector<float>(got) == opd::to_vector<float>(eager(x));
    const opd::lazy::Counters c = opd::lazy::counters();
    std::printf("step %d: nodes_traced=%llu uncached_compile=%llu cached_compile=%llu syncs=%llu\n", step,
                static_cast<unsigned long long>(c.nodes_traced), static_cast<unsigned long long>(c.uncached_compile),
                static_cast<unsigned long long>(c.cached_compile), static_cast<unsigned long long>(c.syncs));
  }
  const opd::lazy::Counters c = opd::lazy::counters();
  std::printf("result %s eager mode\n", same ? "equals" : "DIFFERS FROM");
  return same && c.uncached_compile == 1 && c.cached_compile == 2 ? 0 : 1;
}
