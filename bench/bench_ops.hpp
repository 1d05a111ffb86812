#pragma once
// The operator measured by the dispatch benchmarks, on both sides:
//
//   noop(Tensor self, int k, float? s=None) -> Tensor      kernel returns self
//
// opd:  bench_opd::noop (typed kernel at CPU), bench_opd::noop_boxed (boxed kernel at CPU)
// c10:  bench::noop (typed kernel at CPU), bench::noop_boxed (boxed kernel at CPU),
//       when OPD_BENCH_WITH_TORCH is defined.
//
// Everything is registered once by bench_setup(); the functions below are
// the bodies of one call of each path, shared by the Google Benchmark
// binary and the callgrind driver so both measure the same code.
#include <cstdint>
#include <optional>

#include "dispatch/core/tensor.hpp"
#include "dispatch/dispatcher.hpp"

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <torch/library.h>
#endif

namespace bench_opd {

struct noop : opd::op<"bench_opd::noop(Tensor self, int k, float? s=None) -> Tensor"> {};
struct noop_boxed : opd::op<"bench_opd::noop_boxed(Tensor self, int k, float? s=None) -> Tensor"> {};

static_assert(std::is_same_v<noop::signature, opd::Tensor(const opd::Tensor&, std::int64_t, std::optional<double>)>);

// The kernel. noinline: every path (direct included) pays one real call of it.
[[gnu::noinline]] inline opd::Tensor noop_kernel(const opd::Tensor& self, std::int64_t, std::optional<double>) {
  return self;
}

// A boxed kernel with the same behaviour: drop the 3 arguments, push self.
inline void noop_boxed_kernel(const opd::OperatorEntry&, opd::DispatchKeySet, opd::Stack* stack) {
  opd::IValue self = std::move((*stack)[stack->size() - 3]);
  stack->resize(stack->size() - 3);
  stack->push_back(std::move(self));
}

inline void register_all() {
  static opd::RegistrationHandle h1 = opd::register_kernel<noop, &noop_kernel>(opd::DispatchKey::CPU);
  static opd::RegistrationHandle h2 = opd::register_boxed_kernel<noop_boxed>(opd::DispatchKey::CPU, &noop_boxed_kernel);
}

using direct_fn = opd::Tensor (*)(const opd::Tensor&, std::int64_t, std::optional<double>);

}  // namespace bench_opd

#if defined(OPD_BENCH_WITH_TORCH)
namespace bench_c10 {

[[gnu::noinline]] inline at::Tensor noop_kernel(const at::Tensor& self, int64_t, c10::optional<double>) { return self; }

inline void noop_boxed_kernel(const c10::OperatorHandle&, torch::jit::Stack* stack) {
  c10::IValue self = std::move((*stack)[stack->size() - 3]);
  torch::jit::drop(*stack, 3);
  torch::jit::push(*stack, std::move(self));
}

using typed_handle = c10::TypedOperatorHandle<at::Tensor(const at::Tensor&, int64_t, c10::optional<double>)>;

inline typed_handle typed_op() {
  return c10::Dispatcher::singleton().findSchemaOrThrow("bench::noop", "").typed<at::Tensor(const at::Tensor&, int64_t, c10::optional<double>)>();
}
inline typed_handle typed_boxed_op() {
  return c10::Dispatcher::singleton()
      .findSchemaOrThrow("bench::noop_boxed", "")
      .typed<at::Tensor(const at::Tensor&, int64_t, c10::optional<double>)>();
}
inline c10::OperatorHandle op() { return c10::Dispatcher::singleton().findSchemaOrThrow("bench::noop", ""); }

using direct_fn = at::Tensor (*)(const at::Tensor&, int64_t, c10::optional<double>);

}  // namespace bench_c10
#endif
