// EXPECT: cannot deduce the kernel's parameter types: a kernel must be a function
// A functor with two operator() overloads: which one is the kernel?
#include <dispatch/op.hpp>

struct my_neg : opd::op<"myops::neg(Tensor self) -> Tensor"> {};

struct neg_kernel {
  opd::Tensor operator()(const opd::Tensor& self) const;
  opd::Tensor operator()(const opd::Tensor& self, int) const;
};

static_assert(opd::schema::check_kernel<my_neg, neg_kernel>());

int main() {}
