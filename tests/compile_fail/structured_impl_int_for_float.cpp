// EXPECT: structured_impl_signature_mismatch<scale, opd::DispatchKey::CPU, void ?[(]opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor ?&, double, opd::Tensor ?&[)], void ?[(]opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor ?&, long( int)?, opd::Tensor ?&[)]>
// The schema says `float factor` (a double): an impl() taking int64_t would
// silently truncate 1.5 to 1. It must be rejected, naming the family, the
// backend, the expected signature and the one found.
#include <structured/structured.hpp>

struct scale : opd::structured<"cf::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const opd::Tensor& self, double) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, int64_t, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<scale>();
  return 0;
}
