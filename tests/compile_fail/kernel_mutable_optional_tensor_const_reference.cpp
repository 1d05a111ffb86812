// EXPECT: mutable_tensor_taken_by_const_reference<1, 'o', 'u', 't'>
// Tensor(a!)? is std::optional<Tensor>& (as in PyTorch), not const std::optional<Tensor>&.
#include <optional>

#include <dispatch/op.hpp>

struct my_op : opd::op<"myops::maybe_out(Tensor self, Tensor(a!)? out) -> ()"> {};

void kernel(const opd::Tensor& self, const std::optional<opd::Tensor>& out);

static_assert(opd::schema::check_kernel<my_op, decltype(&kernel)>());

int main() {}
