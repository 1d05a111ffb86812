// EXPECT: structured_impl_signature_mismatch<bad_mul, opd::DispatchKey::CUDA, void ?[(]opd::backend_tag<opd::DispatchKey::CUDA>, const opd::Tensor ?&, const opd::Tensor ?&, opd::Tensor ?&[)], opd::structured_detail::not_deducible>
// A template impl() (its signature cannot be deduced) for CUDA with a
// parameter missing is found by probing and rejected all the same.
#include <structured/structured.hpp>

struct bad_mul : opd::structured<"cf::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor&) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, const opd::Tensor&, opd::Tensor&) {}
  template <class T>
  static void impl(opd::backend_tag<opd::DispatchKey::CUDA>, const T&, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<bad_mul>();
  return 0;
}
