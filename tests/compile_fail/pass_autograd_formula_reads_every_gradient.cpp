// A formula of an operator with several outputs may take every output's gradient
// (const variable_list&, as PyTorch's grads[i]) beside formulas that take output 0's.
#include <array>
#include <tuple>

#include <autograd/autograd_kernel.hpp>

struct my_pair : opd::op<"cp::my_pair(Tensor a, Tensor b, Tensor c) -> (Tensor, Tensor)"> {};
struct my_pair_d {
  static std::array<opd::Tensor, 2> ab(const opd::autograd::variable_list& grads) { return {grads[0], grads[1]}; }
  static opd::Tensor c(const opd::Tensor& g) { return g; }
};
template <>
struct opd::autograd::derivatives_of<my_pair>
    : opd::autograd::derivatives<"MyPairBackward0", opd::autograd::formula<"a, b", &my_pair_d::ab>,
                                 opd::autograd::formula<"c", &my_pair_d::c>> {};

auto registration() { return opd::autograd::register_derivatives<my_pair>(); }
int main() {}
