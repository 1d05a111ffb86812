// EXPECT: kernel_return_mismatch<std::tuple<opd::Tensor, opd::Tensor ?>, opd::Tensor ?>
// The schema returns two tensors (a std::tuple); the kernel returns one.
#include <dispatch/op.hpp>

struct my_minmax : opd::op<"myops::minmax(Tensor self) -> (Tensor min, Tensor max)"> {};

constexpr auto minmax_kernel = [](const opd::Tensor& self) { return self; };

static_assert(opd::schema::check_kernel<my_minmax>(minmax_kernel));

int main() {}
