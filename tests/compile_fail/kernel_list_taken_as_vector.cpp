// EXPECT: kernel_argument_mismatch<0, std::span<const opd::Tensor, 18446744073709551615[a-zA-Z]*>, const std::vector<opd::Tensor ?> ?&, 't', 'e', 'n', 's', 'o', 'r', 's'>
// A Tensor[] argument is a std::span<const Tensor>, not a const std::vector<Tensor>&.
#include <vector>

#include <dispatch/op.hpp>

struct my_cat : opd::op<"myops::cat(Tensor[] tensors, int dim=0) -> Tensor"> {};

opd::Tensor cat_kernel(const std::vector<opd::Tensor>& tensors, std::int64_t dim);

static_assert(opd::schema::check_kernel<my_cat, decltype(cat_kernel)>());

int main() {}
