// EXPECT: kernel_argument_mismatch<1, const opd::Tensor ?&, opd::Tensor, 'o', 't', 'h', 'e', 'r'>
// Argument 1 (`other`) is a Tensor: the kernel must take const Tensor&, not a Tensor by value.
#include <dispatch/op.hpp>

struct my_add : opd::op<"myops::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};

opd::Tensor add_kernel(const opd::Tensor& self, opd::Tensor other, const opd::Scalar& alpha);

static_assert(opd::schema::check_kernel<my_add, decltype(&add_kernel)>());

int main() {}
