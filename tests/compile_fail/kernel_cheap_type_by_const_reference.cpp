// EXPECT: kernel_argument_mismatch<1, long( int)?, const long( int)? ?&, 'd', 'i', 'm'>
// Strict: an int argument is std::int64_t by value; const std::int64_t& is rejected too.
#include <cstdint>

#include <dispatch/op.hpp>

struct my_sum : opd::op<"myops::sum(Tensor self, int dim) -> Tensor"> {};

struct sum_kernel {
  opd::Tensor operator()(const opd::Tensor& self, const std::int64_t& dim) const;
};

static_assert(opd::schema::check_kernel<my_sum, sum_kernel>());

int main() {}
