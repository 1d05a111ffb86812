// EXPECT: formula_does_not_return_tensor<.*my_neg.*self
// EXPECT-Clang: formula_does_not_return_tensor<my_neg, [{][{]115, 101, 108, 102, 0[}][}]>
// (clang 14 prints the name "self" as character codes, g++ as a string.)
// A formula whose result is not a Tensor: the error names the operator and the input.
#include <autograd/autograd_kernel.hpp>

struct my_neg : opd::op<"cf::my_neg(Tensor self) -> Tensor"> {};
struct my_neg_d {
  static double d(const opd::Tensor&) { return 0.0; }
};
template <>
struct opd::autograd::derivatives_of<my_neg>
    : opd::autograd::derivatives<"MyNegBackward0", opd::autograd::formula<"self", &my_neg_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_neg>(); }
