// EXPECT: register_structured: the family has no impl[(]opd::backend_tag<Key>, ...[)]
// No impl() at all: register_structured has nothing to register but Meta.
#include <structured/structured.hpp>

struct no_impl : opd::structured<"cf::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor&) { return {self.sizes().vec(), self.dtype()}; }
};

int main() {
  auto registrations = opd::register_structured<no_impl>();
  return 0;
}
