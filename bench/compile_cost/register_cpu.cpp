// compile_cost: registering the built-in CPU kernels and calling two of them
// through the dispatcher, from a user file.
#include <kernels/ops.hpp>

int main() {
  auto kernels = opd::kernels::register_cpu();
  opd::Tensor a = opd::call<opd::kernels::ops::ones>(std::vector<int64_t>{3});
  opd::Tensor c = opd::call<opd::kernels::ops::add::functional>(a, a);
  return c.defined() ? 0 : 1;
}
