// EXPECT: mutable_tensor_taken_by_const_reference<0, 's', 'e', 'l', 'f'>
// The schema writes to `self` (Tensor(a!)): the kernel must take Tensor&.
#include <dispatch/op.hpp>

struct my_add_ : opd::op<"myops::add_(Tensor(a!) self, Tensor other) -> Tensor(a!)"> {};

opd::Tensor& add_kernel(const opd::Tensor& self, const opd::Tensor& other);

static_assert(opd::schema::check_kernel<my_add_, decltype(add_kernel)>());

int main() {}
