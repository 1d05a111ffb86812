// Training a small MLP on the lazy device (include/lazy/): each step's
// forward, backward (autograd's formulas are ordinary operator calls, so
// they are traced too) and in-place SGD update are recorded as one graph of
// IR nodes (derived from the operators' schemas, with shapes from their Meta
// kernels) and run at opd::lazy::sync(). The first step compiles the graph
// (one uncached compile); the later steps find it in the graph cache. Prints
// the graph of the first step, the counters after each step, and checks the
// weights against the same steps run eagerly on the CPU (exit code 1 when
// they differ).
#include <cstdio>
#include <iostream>
#include <random>
#include <vector>

#include <autograd/autograd.hpp>
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
  std::vector<Tensor> params;  // w0, b0, w1, b1, w2, b2
  Tensor operator()(Tensor x) const {
    for (std::size_t i = 0; i < params.size(); i += 2) {
      x = opd::call<ops::linear>(x, params[i], params[i + 1]);
      if (i + 2 < params.size()) x = opd::call<ops::relu>(x);
    }
    return x;
  }
  // One SGD step on the mean squared output; returns the loss.
  Tensor train_step(const Tensor& x, double lr) {
    const Tensor y = (*this)(x);
    const Tensor loss = opd::call<ops::mean>(opd::call<ops::mul::functional>(y, y), std::nullopt);
    const std::vector<Tensor> grads = opd::autograd::grad({loss}, params);
    opd::NoGradGuard no_grad;
    for (std::size_t i = 0; i < params.size(); ++i) opd::call<ops::sub::inplace>(params[i], grads[i], lr);
    return loss;
  }
};

int main() {
  auto cpu_kernels = opd::kernels::register_cpu();
  auto autograd = opd::autograd::register_autograd();
  opd::lazy::ensure_registered();

  Mlp eager, on_lazy;
  for (unsigned i = 0; i < 3; ++i) {
    eager.params.push_back(randn({64, 64}, 10 + i, 0.125f));
    eager.params.push_back(randn({64}, 20 + i, 0.1f));
  }
  for (Tensor& p : eager.params) {
    on_lazy.params.push_back(opd::lazy::to_lazy(p));  // a copy on the lazy device
    on_lazy.params.back().set_requires_grad(true);
    p.set_requires_grad(true);
  }

  for (int step = 0; step < 3; ++step) {
    const Tensor x = randn({8, 64}, 100 + static_cast<unsigned>(step), 1.f);
    const Tensor eager_loss = eager.train_step(x, 0.05);
    const Tensor loss = on_lazy.train_step(opd::lazy::to_lazy(x), 0.05);  // traced, nothing runs
    if (step == 0) {
      std::cout << "pending graph of step 0 (forward, backward, SGD):\n"
                << opd::lazy::dump_graph() << "\nas Graphviz DOT:\n" << opd::lazy::dump_dot();
    }
    opd::lazy::sync();  // the whole step: compiled (first step) or a cache hit
    const opd::lazy::Counters c = opd::lazy::counters();
    std::printf("step %d: loss=%g (eager %g) nodes_traced=%llu uncached_compile=%llu cached_compile=%llu syncs=%llu "
                "inputs_written=%llu\n",
                step, static_cast<double>(opd::to_vector<float>(opd::lazy::to_cpu(loss))[0]),
                static_cast<double>(opd::to_vector<float>(eager_loss)[0]),
                static_cast<unsigned long long>(c.nodes_traced), static_cast<unsigned long long>(c.uncached_compile),
                static_cast<unsigned long long>(c.cached_compile), static_cast<unsigned long long>(c.syncs),
                static_cast<unsigned long long>(c.inputs_written));
  }
  bool same = true;
  for (std::size_t i = 0; i < eager.params.size(); ++i)
    same = same && opd::to_vector<float>(opd::lazy::to_cpu(on_lazy.params[i])) == opd::to_vector<float>(eager.params[i]);
  const opd::lazy::Counters c = opd::lazy::counters();
  std::printf("weights after 3 steps %s eager mode\n", same ? "equal" : "DIFFER FROM");
  return same && c.uncached_compile == 1 && c.cached_compile == 2 ? 0 : 1;
}
