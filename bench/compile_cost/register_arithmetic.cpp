// compile_cost: registering the arithmetic CPU kernels (add, sub, mul, div,
// copy_, fill_ and the factories: the built-in kernels the issue-9 baseline
// measured) and calling two of them through the dispatcher, from a user file.
#include <kernels/ops_arithmetic.hpp>

int main() {
  auto kernels = opd::kernels::register_arithmetic();
  opd::Tensor a = opd::call<opd::kernels::ops::ones>(std::vector<int64_t>{3});
  opd::Tensor c = opd::call<opd::kernels::ops::add::functional>(a, a);
  return c.defined() ? 0 : 1;
}
