// EXPECT: kernel_arity_mismatch<2, 3>
// A DispatchKeySet is only skipped as the FIRST parameter; anywhere else it counts.
#include <dispatch/op.hpp>

struct my_add : opd::op<"myops::add(Tensor self, Tensor other) -> Tensor"> {};

opd::Tensor add_kernel(const opd::Tensor& self, opd::DispatchKeySet ks, const opd::Tensor& other);

static_assert(opd::schema::check_kernel<my_add, decltype(add_kernel)>());

int main() {}
