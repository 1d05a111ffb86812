// EXPECT: structured_meta_signature_mismatch<scale, opd::TensorMeta ?[(]const opd::Tensor ?&, double[)], opd::TensorMeta ?[(]const opd::Tensor ?&, long( int)?[)]>
// meta() takes int64_t where the schema says `float factor`: rejected like a
// kernel with a converting parameter.
#include <structured/structured.hpp>

struct scale : opd::structured<"cf::scale.out(Tensor self, float factor, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const opd::Tensor& self, int64_t) { return {self.sizes().vec(), self.dtype()}; }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, double, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<scale>();
  return 0;
}
