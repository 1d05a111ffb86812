// EXPECT: formula_for_non_tensor_argument<.*my_pick.*sizes
// EXPECT-Clang: formula_for_non_tensor_argument<my_pick, [{][{]115, 105, 122, 101, 115, 0[}][}]>
// (clang 14 prints the name "sizes" as character codes, g++ as a string.)
// Only Tensor, Tensor?, Tensor[] and Tensor?[] arguments get gradients: a formula
// for an int[] argument is an error naming the operator and the argument.
#include <vector>

#include <autograd/autograd_kernel.hpp>

struct my_pick : opd::op<"cf::my_pick(Tensor[] tensors, int[] sizes) -> Tensor"> {};
struct my_pick_d {
  static std::vector<opd::Tensor> d(const opd::Tensor& g) { return {g}; }
};
template <>
struct opd::autograd::derivatives_of<my_pick>
    : opd::autograd::derivatives<"MyPickBackward0", opd::autograd::formula<"tensors", &my_pick_d::d>,
                                 opd::autograd::formula<"sizes", &my_pick_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_pick>(); }
