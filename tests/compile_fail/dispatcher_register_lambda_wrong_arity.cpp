// EXPECT: kernel_arity_mismatch<2, 1>
// register_kernel checks a lambda kernel against the schema: the schema has
// two arguments, the lambda takes one (PyTorch: a runtime error when
// registering a kernel whose signature does not match the schema).
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::arity(Tensor self, int n) -> Tensor"> {};

int main() {
  auto h = opd::register_kernel<my_op>(opd::DispatchKey::CPU, [](const opd::Tensor& t) { return t; });
}
