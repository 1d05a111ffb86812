// Downstream consumer: sees opdispatch only through its CMake targets
// (opdispatch::opdispatch, or opdispatch::header_only when
// OPD_CONSUMER_HEADER_ONLY is set). Declares an operator, registers a kernel
// and calls it, typed and boxed.
#include <dispatch/dispatcher.hpp>

// Boost is a usage requirement of opdispatch (find_dependency(Boost)).
#include <boost/mp11/algorithm.hpp>

#include <cstdio>

static_assert(__cplusplus >= 202002L, "opdispatch's targets must require C++20");
static_assert(boost::mp11::mp_size<boost::mp11::mp_list<int, float, double>>::value == 3);

struct twice : opd::op<"consumer::twice(Tensor self) -> Tensor"> {};
opd::Tensor twice_cpu(const opd::Tensor& self) {
  std::vector<float> v = opd::to_vector<float>(self);
  for (float& x : v) x *= 2;
  return opd::from_vector<float>(v, self.sizes());
}

int main() {
  auto registration = opd::register_kernel<twice, &twice_cpu>(opd::DispatchKey::CPU);
  const float typed = opd::to_vector<float>(opd::call<twice>(opd::from_vector<float>({1.5f}))).at(0);
  opd::Stack stack{opd::from_vector<float>({4.f})};
  opd::call_boxed("consumer::twice", stack);
  const float boxed = opd::to_vector<float>(stack.at(0).to_tensor()).at(0);
  if (typed != 3.f || boxed != 8.f) {
    std::printf("opd_consumer FAILED: %g %g\n", typed, boxed);
    return 1;
  }
#ifdef OPD_HEADER_ONLY
  std::printf("opd_consumer OK (header-only)\n");
#else
  std::printf("opd_consumer OK (compiled)\n");
#endif
  return 0;
}
