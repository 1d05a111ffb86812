// EXPECT: structured: meta[(][)] cannot be called with the functional schema's arguments
// meta() forgets `other`: the functional schema is mul.Tensor(Tensor self, Tensor other).
#include <structured/structured.hpp>

struct bad_mul : opd::structured<"cf::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, const opd::Tensor&, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<bad_mul>();
  return 0;
}
