// EXPECT: differentiable_input_without_formula<.*my_mul.*other
// EXPECT-Clang: differentiable_input_without_formula<my_mul, [{][{]111, 116, 104, 101, 114, 0[}][}]>
// (clang 14 prints the name "other" as character codes, g++ as a string.)
// A differentiable Tensor input with neither a formula nor non_differentiable: named with its operator.
#include <autograd/autograd_kernel.hpp>

struct my_mul : opd::op<"cf::my_mul(Tensor self, Tensor other) -> Tensor"> {};
struct my_mul_d {
  static opd::Tensor d(const opd::Tensor& g) { return g; }
};
template <>
struct opd::autograd::derivatives_of<my_mul>
    : opd::autograd::derivatives<"MyMulBackward0", opd::autograd::formula<"self", &my_mul_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_mul>(); }
