// EXPECT: a variant records into its functional.s node only with the same Tensor arguments
// A variant may record into its functional's node type only when its Tensor arguments and results are
// laid out as the functional's: here the "variant" has two results.
#include <autograd/autograd_kernel.hpp>

struct my_f : opd::op<"cf::my_f(Tensor self) -> Tensor"> {
  static opd::Tensor d_self(const opd::Tensor& g) { return g; }
  using derivatives = opd::autograd::derivatives<"MyFBackward0", opd::autograd::formula<"self", &d_self>>;
};
struct my_g : opd::op<"cf::my_g(Tensor self) -> (Tensor, Tensor)"> {};
auto registration() { return opd::autograd::register_derivatives<my_g, opd::autograd::derivatives_t<my_f>, my_f>(); }
