// The c10 side's registrations (static initialisers, as PyTorch extensions do).
#include "bench_ops.hpp"

#if defined(OPD_BENCH_WITH_TORCH)
TORCH_LIBRARY(bench, m) {
  m.def("noop(Tensor self, int k, float? s=None) -> Tensor");
  m.def("noop_boxed(Tensor self, int k, float? s=None) -> Tensor");
}
TORCH_LIBRARY_IMPL(bench, CPU, m) {
  m.impl("noop", TORCH_FN(bench_c10::noop_kernel));  // known at compile time, like opd::register_kernel<Op, &fn>
  m.impl("noop_boxed", torch::CppFunction::makeFromBoxedFunction<&bench_c10::noop_boxed_kernel>());
}
#endif
