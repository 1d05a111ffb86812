// The README's quick start: one operator in one struct, a CPU kernel, and the
// three ways to call it (typed with defaults, typed with a keyword, boxed).
#include <dispatch/dispatcher.hpp>

#include <cstdio>

// The schema is parsed and checked at compile time.
struct scale : opd::op<"myops::scale(Tensor self, *, float factor=2.0) -> Tensor"> {};

// Its signature is checked against the schema when it is registered.
opd::Tensor scale_cpu(const opd::Tensor& self, double factor) {
  std::vector<float> v = opd::to_vector<float>(self);
  for (float& x : v) x = static_cast<float>(x * factor);
  return opd::from_vector<float>(v, self.sizes());
}

int main() {
  auto registration = opd::register_kernel<scale, &scale_cpu>(opd::DispatchKey::CPU);

  const opd::Tensor x = opd::from_vector<float>({1.f, 2.f, 3.f});
  const opd::Tensor y = opd::call<scale>(x);                          // factor=2.0, from the schema
  const opd::Tensor z = opd::call<scale>(x, opd::arg<"factor"> = 10.0);
  opd::Stack stack{x, 0.5};                                           // boxed: arguments on a stack
  opd::call_boxed<scale>(stack);

  std::printf("%s\n%g %g %g\n", opd::schema::to_string(scale::schema).c_str(), opd::to_vector<float>(y)[2],
              opd::to_vector<float>(z)[2], opd::to_vector<float>(stack[0].to_tensor())[2]);
  const bool ok = opd::to_vector<float>(y)[2] == 6.f && opd::to_vector<float>(z)[2] == 30.f &&
                  opd::to_vector<float>(stack[0].to_tensor())[2] == 1.5f;
  return ok ? 0 : 1;
}
