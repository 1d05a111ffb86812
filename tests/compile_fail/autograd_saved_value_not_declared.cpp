// EXPECT: saved_value_not_declared<.*my_mul.*other
// A formula reads a saved value its saved<...> parameter does not declare: the error names operator and value.
#include <autograd/autograd_kernel.hpp>

struct my_mul : opd::op<"cf::my_mul(Tensor self, Tensor other) -> Tensor"> {};
struct my_mul_d {
  static opd::Tensor d_self(const opd::Tensor& g, const opd::autograd::saved<my_mul, "self">& s) {
    (void)s.get<"other">();
    return g;
  }
};
