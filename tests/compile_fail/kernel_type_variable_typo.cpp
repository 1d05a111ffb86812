// EXPECT: is_read_as_a_type_variable<'t', 'e', 'n', 's', 'o', 'r'>::did_you_mean<'T', 'e', 'n', 's', 'o', 'r'>
// `tensor` is no type but a type variable in PyTorch's grammar (any value,
// const opd::IValue&): the mismatch says what was probably meant.
#include <dispatch/op.hpp>

struct my_relu : opd::op<"myops::relu(tensor self) -> Tensor"> {};

opd::Tensor relu_kernel(const opd::Tensor& self);

static_assert(opd::schema::check_kernel<my_relu, decltype(&relu_kernel)>());

int main() {}
