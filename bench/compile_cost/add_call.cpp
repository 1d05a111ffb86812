// compile_cost: the CPU kernels' headers and one direct call of the add kernel.
#include <kernels/cpu/kernels.hpp>

int main() {
  opd::Tensor a = opd::kernels::ones({3}, std::nullopt, std::nullopt);
  opd::Tensor out = opd::kernels::empty({3}, std::nullopt, std::nullopt);
  opd::kernels::add_impl(a, a, opd::Scalar(1), out);
  return out.defined() ? 0 : 1;
}
