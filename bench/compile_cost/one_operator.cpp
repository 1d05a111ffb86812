// compile_cost: one operator declared, its kernel registered, and one call.
#include <dispatch/dispatcher.hpp>

struct scale : opd::op<"myops::scale(Tensor self, *, float factor=2.0) -> Tensor"> {};
opd::Tensor scale_cpu(const opd::Tensor& self, double) { return self; }

int main() {
  auto registration = opd::register_kernel<scale, &scale_cpu>(opd::DispatchKey::CPU);
  opd::Tensor x = opd::from_vector<float>({1.f, 2.f});
  opd::Tensor y = opd::call<scale>(x, opd::arg<"factor"> = 3.0);
  return y.defined() ? 0 : 1;
}
