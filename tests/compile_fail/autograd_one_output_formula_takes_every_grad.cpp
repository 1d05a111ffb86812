// EXPECT: formula_grad_parameter_mismatch<.*my_scale.*self
// EXPECT-Clang: formula_grad_parameter_mismatch<my_scale, [{][{]115, 101, 108, 102, 0[}][}]>
// (clang 14 prints the name "self" as character codes, g++ as a string.)
// Every output's gradient (const variable_list&) is for operators with several outputs: a formula of
// a one-output operator that takes it is an error naming the operator and the input.
#include <autograd/autograd_kernel.hpp>

struct my_scale : opd::op<"cf::my_scale(Tensor self) -> Tensor"> {};
struct my_scale_d {
  static opd::Tensor d(const opd::autograd::variable_list& grads) { return grads[0]; }
};
template <>
struct opd::autograd::derivatives_of<my_scale>
    : opd::autograd::derivatives<"MyScaleBackward0", opd::autograd::formula<"self", &my_scale_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_scale>(); }
