// EXPECT: structured: this impl[(][)] overload does not take the functional schema.s arguments
// The CPU impl() takes `double other` where the schema says Tensor.
#include <structured/structured.hpp>

struct bad_mul : opd::structured<"cf::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor&) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, double, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<bad_mul>();
  return 0;
}
