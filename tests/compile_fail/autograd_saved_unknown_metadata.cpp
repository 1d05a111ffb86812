// EXPECT: saved_value_names_no_argument<.*my_neg.*self.layout
// EXPECT-Clang: saved_value_names_no_argument<my_neg, [{][{]115, 101, 108, 102, 46, 108, 97, 121, 111, 117
// A saved value names metadata that is not saved (.sizes, .strides, .storage_offset, .dtype, .device, .dim are): the error names
// the operator and the value.
#include <autograd/autograd_kernel.hpp>

struct my_neg : opd::op<"cf::my_neg(Tensor self) -> Tensor"> {
  static opd::Tensor d_self(const opd::Tensor& g, const opd::autograd::saved<my_neg, "self.layout">&) { return g; }
  using derivatives = opd::autograd::derivatives<"MyNegBackward0", opd::autograd::formula<"self", &d_self>>;
};
auto h = opd::autograd::register_derivatives<my_neg>();
