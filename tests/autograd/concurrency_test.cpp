// Independent forward and backward calls on several threads, each on its own
// graph, through an operator declared here with its formula, as a user
// declares one: the test uses no built-in kernel, so the TSan sub-build (whose
// library leaves the built-in kernels out) builds and runs it. Its name
// contains "Concurrency", which selects it there (OPD_TSAN_TEST_REGEX).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <thread>
#include <vector>

#include <autograd/autograd.hpp>
#include <autograd/autograd_kernel.hpp>
#include <autograd/layers.hpp>
#include <dispatch/dispatcher.hpp>

namespace {

using opd::Tensor;

// Elementwise product of two Double tensors of one shape; its gradients are
// products again, so the backward pass needs no other operator.
struct conc_mul : opd::op<"autograd_conc::mul(Tensor self, Tensor other) -> Tensor"> {
  static Tensor d_self(const Tensor& grad, const opd::autograd::saved<conc_mul, "other">& s) {
    return opd::call<conc_mul>(grad, s.get<"other">());
  }
  static Tensor d_other(const Tensor& grad, const opd::autograd::saved<conc_mul, "self">& s) {
    return opd::call<conc_mul>(grad, s.get<"self">());
  }
  using derivatives = opd::autograd::derivatives<"ConcMulBackward0", opd::autograd::formula<"self", &d_self>,
                                                 opd::autograd::formula<"other", &d_other>>;
};

Tensor conc_mul_cpu(const Tensor& self, const Tensor& other) {
  const std::vector<double> a = opd::to_vector<double>(self), b = opd::to_vector<double>(other);
  std::vector<double> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] * b[i];
  return opd::from_vector<double>(out, self.sizes());
}

TEST(AutogradConcurrency, IndependentForwardAndBackwardCallsOfAUserOperator) {
  // The autograd layers alone (the ADInplaceOrView kernels and the fallback), not
  // the library's formulas: the TSan sub-build compiles no built-in kernel or formula.
  auto autograd = opd::autograd::register_autograd_layers();
  auto kernel = opd::register_kernel<conc_mul, &conc_mul_cpu>(opd::DispatchKey::CPU);
  auto formulas = opd::autograd::register_derivatives<conc_mul>();
  constexpr int kThreads = 4, kRounds = 20, kChain = 16;
  std::vector<int> wrong(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &wrong] {
      auto close = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::abs(b); };
      for (int round = 0; round < kRounds; ++round) {
        // y = x * c_0 * ... * c_(kChain-1), every c_i = c: dy/dx = c^kChain, dy/dc_i = x c^(kChain-1).
        // Each input is used once, so the engine adds no gradients (add is a built-in kernel).
        const double c = 1.0 + 0.125 * t, x0 = 0.5 + round;
        const bool with_cs = round % 2 == 1;  // every other round, the factors are differentiated too
        Tensor x = opd::from_vector<double>({x0, -x0});
        x.set_requires_grad(true);
        opd::autograd::variable_list inputs{x};
        Tensor y = x;
        for (int i = 0; i < kChain; ++i) {
          Tensor ci = opd::from_vector<double>({c, c});
          ci.set_requires_grad(with_cs);
          if (with_cs) inputs.push_back(ci);
          y = opd::call<conc_mul>(y, ci);
        }
        if (y.grad_fn() == nullptr || y.grad_fn()->name() != "ConcMulBackward0") ++wrong[static_cast<std::size_t>(t)];
        const opd::autograd::variable_list grads =
            opd::autograd::grad({y}, inputs, {opd::from_vector<double>({1.0, 1.0})});
        double power = 1;
        for (int i = 0; i < kChain; ++i) power *= c;
        const std::vector<double> gx = opd::to_vector<double>(grads[0]);
        if (!close(gx[0], power) || !close(gx[1], power)) ++wrong[static_cast<std::size_t>(t)];
        for (std::size_t i = 1; i < grads.size(); ++i) {
          const std::vector<double> gc = opd::to_vector<double>(grads[i]);
          if (!close(gc[0], x0 * power / c) || !close(gc[1], -x0 * power / c)) ++wrong[static_cast<std::size_t>(t)];
        }
        if (grads.size() != (with_cs ? 1u + kChain : 1u)) ++wrong[static_cast<std::size_t>(t)];
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(wrong[static_cast<std::size_t>(t)], 0) << "thread " << t;
}

}  // namespace
