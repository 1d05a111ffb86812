// EXPECT: kernel_argument_mismatch<0, const opd::Tensor ?&, opd::Tensor, 's', 'e', 'l', 'f'>
// Kernels take a Tensor argument as const Tensor& (no by-value variant, unlike
// PyTorch's "TensorInputByValue" kernels): the dispatcher calls kernels
// through a function pointer of exactly the schema's signature.
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::byvalue(Tensor self) -> Tensor"> {};

int main() {
  auto h = opd::register_kernel<my_op>(opd::DispatchKey::CPU, [](opd::Tensor self) { return self; });
}
