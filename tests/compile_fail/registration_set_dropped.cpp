// EXPECT: dropping a registration set unregisters at once
// The same for the functions that return a RegistrationSet (here
// register_structured): dropping the set unregisters every kernel in it.
#include <structured/structured.hpp>

struct my_mul : opd::structured<"cf::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor&) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, const opd::Tensor&, opd::Tensor&) {}
};

int main() {
  opd::register_structured<my_mul>();
  return 0;
}
