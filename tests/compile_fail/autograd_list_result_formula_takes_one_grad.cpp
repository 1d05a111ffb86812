// EXPECT: formula_grad_parameter_mismatch<.*my_halves.*self
// EXPECT-Clang: formula_grad_parameter_mismatch<my_halves, [{][{]115, 101, 108, 102, 0[}][}]>
// (clang 14 prints the name "self" as character codes, g++ as a string.)
// An operator that returns Tensor[] gives its formulas one gradient per element
// (const variable_list&): a formula that takes one Tensor is an error naming the operator and the input.
#include <autograd/autograd_kernel.hpp>

struct my_halves : opd::op<"cf::my_halves(Tensor self) -> Tensor[]"> {};
struct my_halves_d {
  static opd::Tensor d(const opd::Tensor& g) { return g; }
};
template <>
struct opd::autograd::derivatives_of<my_halves>
    : opd::autograd::derivatives<"MyHalvesBackward0", opd::autograd::formula<"self", &my_halves_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_halves>(); }
