// Functionalization above a tracing backend (examples/lazy_trace/trace_backend.hpp):
// a small program with views and in-place operators runs on the backend,
// which sees only functional, *_copy and scatter operators; the program
// prints the graph the backend recorded, and checks the result against the
// same program run eagerly on the CPU (exit code 1 when they differ).
#include <cstdio>
#include <iostream>
#include <vector>

#include "lazy_trace/trace_backend.hpp"

namespace ops = opd::kernels::ops;
using opd::Tensor;

// y = x.t(); y[1] += 2; x *= x; return x.diagonal() + 1  (x: 3x3)
Tensor program(Tensor x) {
  Tensor y = opd::call<ops::t>(x);
  Tensor row = opd::call<ops::select>(y, 0, 1);
  opd::call<ops::add_scalar::inplace>(row, 2.0, 1.0);
  opd::call<ops::mul::inplace>(x, x);
  Tensor d = opd::call<ops::diagonal>(x, 0, 0, 1);
  return opd::call<ops::add_scalar::functional>(d, 1.0, 1.0);
}

int main() {
  auto cpu_kernels = opd::kernels::register_cpu();
  lazy::Backend backend;

  std::vector<float> init(9);
  for (std::size_t i = 0; i < init.size(); ++i) init[i] = static_cast<float>(i);
  const Tensor x_cpu = opd::from_vector<float>(init, {3, 3});

  // Eager, on the CPU.
  const Tensor x_eager = opd::call<ops::clone>(x_cpu, std::nullopt);
  const Tensor out_eager = program(x_eager);

  // Functionalized, on the tracing backend.
  const Tensor x = lazy::from_cpu(x_cpu);
  Tensor out;
  {
    opd::FunctionalizeGuard on(opd::FunctionalizeMode::remove_views);
    out = program(x);
  }
  const Tensor out_lazy = lazy::to_cpu(out);
  const Tensor x_after = lazy::to_cpu(x);

  std::printf("graph the tracing backend recorded:\n");
  backend.print(std::cout);
  const bool same = opd::to_vector<float>(out_lazy) == opd::to_vector<float>(out_eager) &&
                    opd::to_vector<float>(x_after) == opd::to_vector<float>(x_eager);
  std::printf("result %s eager mode\n", same ? "equals" : "DIFFERS FROM");
  return same ? 0 : 1;
}
