// EXPECT: formula_does_not_return_tensor<.*my_join.*tensors
// EXPECT-Clang: formula_does_not_return_tensor<my_join, [{][{]116, 101, 110, 115, 111, 114, 115, 0[}][}]>
// (clang 14 prints the name "tensors" as character codes, g++ as a string.)
// A Tensor[] input gets one gradient per element: a formula for it that returns
// one Tensor (not std::vector<Tensor>) is an error naming the operator and the input.
#include <autograd/autograd_kernel.hpp>

struct my_join : opd::op<"cf::my_join(Tensor[] tensors) -> Tensor"> {};
struct my_join_d {
  static opd::Tensor d(const opd::Tensor& g) { return g; }
};
template <>
struct opd::autograd::derivatives_of<my_join>
    : opd::autograd::derivatives<"MyJoinBackward0", opd::autograd::formula<"tensors", &my_join_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_join>(); }
