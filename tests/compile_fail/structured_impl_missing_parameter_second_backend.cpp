// EXPECT: structured_impl_signature_mismatch<bad_mul, opd::DispatchKey::CUDA, void ?[(]opd::backend_tag<opd::DispatchKey::CUDA>, const opd::Tensor ?&, const opd::Tensor ?&, opd::Tensor ?&[)], void ?[(]opd::backend_tag<opd::DispatchKey::CUDA>, const opd::Tensor ?&, opd::Tensor ?&[)]>
// The CPU impl() is right; the CUDA one forgets `other`. It used to be
// skipped silently (CUDA then had no kernel at run time); it is an error that
// names the family, the backend and the expected signature.
#include <structured/structured.hpp>

struct bad_mul : opd::structured<"cf::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor&) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, const opd::Tensor&, opd::Tensor&) {}
  static void impl(opd::backend_tag<opd::DispatchKey::CUDA>, const opd::Tensor&, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<bad_mul>();
  return 0;
}
