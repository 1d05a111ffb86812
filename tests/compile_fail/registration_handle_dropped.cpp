// EXPECT: dropping a registration handle unregisters at once
// A dropped handle unregisters its kernel at once, so the later call finds no
// kernel: every function that returns a RegistrationHandle is [[nodiscard]]
// (the warning is an error under -Werror).
#include <dispatch/dispatcher.hpp>
#include <dispatch/op.hpp>

struct my_relu : opd::op<"cf::relu(Tensor self) -> Tensor"> {};
opd::Tensor relu_kernel(const opd::Tensor& self) { return self; }

int main() {
  opd::register_kernel<my_relu, &relu_kernel>(opd::DispatchKey::CPU);
  return 0;
}
