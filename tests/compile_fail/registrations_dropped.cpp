// EXPECT: a registration statement whose result is dropped unregisters at its end
// The same for a registration statement (opd::registrations()): each step of
// the chain is [[nodiscard]], since a dropped result unregisters everything
// at the end of the statement.
#include <dispatch/dispatcher.hpp>

struct my_op : opd::op<"cf::regs(Tensor x) -> Tensor"> {};
opd::Tensor kernel(const opd::Tensor& x) { return x; }

int main() {
  opd::registrations().kernel<my_op, &kernel>(opd::DispatchKey::CPU);
  return 0;
}
