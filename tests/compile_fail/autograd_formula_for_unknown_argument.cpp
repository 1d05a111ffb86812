// EXPECT: formula_names_no_argument<.*my_mul.*selff
// EXPECT-Clang: formula_names_no_argument<my_mul, [{][{]115, 101, 108, 102, 102, 0[}][}]>
// (clang 14 prints the name "selff" as character codes, g++ as a string.)
// A formula for a name that is not an argument of the schema: the error names the operator and the name.
#include <autograd/autograd_kernel.hpp>

struct my_mul : opd::op<"cf::my_mul(Tensor self, Tensor other) -> Tensor"> {};
struct my_mul_d {
  static opd::Tensor d(const opd::Tensor& g) { return g; }
};
template <>
struct opd::autograd::derivatives_of<my_mul>
    : opd::autograd::derivatives<"MyMulBackward0", opd::autograd::formula<"selff", &my_mul_d::d>,
                                 opd::autograd::formula<"other", &my_mul_d::d>> {};

auto registration() { return opd::autograd::register_derivatives<my_mul>(); }
