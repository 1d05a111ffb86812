// EXPECT: kernel_argument_mismatch<1, const opd::Tensor ?&, (long int|int64_t|long), 'o', 't', 'h', 'e', 'r'>
// Argument 1 (`other`) is a Tensor: a kernel taking an integer there does not
// fit. (A Tensor by value is accepted, as c10 accepts it: kernel_forms_test.cpp.)
#include <dispatch/op.hpp>

#include <cstdint>

struct my_add : opd::op<"myops::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};

opd::Tensor add_kernel(const opd::Tensor& self, std::int64_t other, const opd::Scalar& alpha);

static_assert(opd::schema::check_kernel<my_add, decltype(&add_kernel)>());

int main() {}
