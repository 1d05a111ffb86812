// EXPECT: cannot deduce the kernel's parameter types: a kernel must be a function
// A generic lambda has no parameter types to check.
#include <dispatch/op.hpp>

struct my_add : opd::op<"myops::add(Tensor self, Tensor other) -> Tensor"> {};

constexpr auto add_kernel = [](const auto& self, const auto&) { return self; };

static_assert(opd::schema::check_kernel<my_add>(add_kernel));

int main() {}
