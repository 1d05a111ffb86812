// EXPECT: formula_for_non_tensor_argument<.*my_scale.*factor
// EXPECT-Clang: formula_for_non_tensor_argument<my_scale, [{][{]102, 97, 99, 116, 111, 114, 0[}][}]>
// (clang 14 prints the name "factor" as character codes, g++ as a string.)
// A formula for an argument that is not a Tensor (a float): the error names the operator and the argument.
#include <autograd/autograd_kernel.hpp>

struct my_scale : opd::op<"cf::my_scale(Tensor self, float factor) -> Tensor"> {};
struct my_scale_d {
  static opd::Tensor d(const opd::Tensor& g) { return g; }
};
template <>
struct opd::autograd::derivatives_of<my_scale>
    : opd::autograd::derivatives<"MyScaleBackward0", opd::autograd::formula<"self", &my_scale_d::d>,
                                 opd::autograd::formula<"factor", &my_scale_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_scale>(); }
