// Exact meta()/impl() signatures compile: one overload per backend, a
// template impl() for another backend, and a noexcept impl().
#include <structured/structured.hpp>

struct scale : opd::structured<"cf::scale.out(Tensor self, float factor, int[] dims, *, Tensor(a!) out) -> Tensor(a!)"> {
  static opd::TensorMeta meta(const opd::Tensor& self, double, std::span<const int64_t>) {
    return {self.sizes().vec(), self.dtype()};
  }
  static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor&, double, std::span<const int64_t>,
                   opd::Tensor&) noexcept {}
  template <opd::DispatchKey K>
    requires(K == opd::DispatchKey::PrivateUse1)
  static void impl(opd::backend_tag<K>, const opd::Tensor&, double, std::span<const int64_t>, opd::Tensor&) {}
};

int main() {
  auto registrations = opd::register_structured<scale>();
  return 0;
}
