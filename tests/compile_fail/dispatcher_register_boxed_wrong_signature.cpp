// EXPECT: a boxed kernel is callable as void
// register_boxed_kernel wants void(const OperatorEntry&, DispatchKeySet, Stack*).
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf_dispatcher::boxed(Tensor self) -> Tensor"> {};

int main() {
  auto h = opd::register_boxed_kernel<my_op>(opd::DispatchKey::CPU, [](opd::Stack*) {});
}
