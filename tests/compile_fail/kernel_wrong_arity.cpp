// EXPECT: kernel_arity_mismatch<3, 2>
// The schema has three arguments (alpha included), the kernel takes two.
#include <dispatch/op.hpp>

struct my_add : opd::op<"myops::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};

opd::Tensor add_kernel(const opd::Tensor& self, const opd::Tensor& other);

static_assert(opd::schema::check_kernel<my_add, decltype(add_kernel)>());

int main() {}
