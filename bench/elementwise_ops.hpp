#pragma once
// What the elementwise benchmarks measure, shared by the Google Benchmark
// program (elementwise.cpp) and the callgrind driver (elementwise_callgrind.cpp):
// one call of add(a, b) per side and variant, on contiguous float tensors.
//
//   side opd              the library's structured add (opd::kernels::ops::add):
//                         functional, in-place and out= derived from one meta/impl pair
//   side opd_handwritten  a second family with the same schemas (bench_hw::add*) whose
//                         three CPU kernels are written by hand on the same kernels
//   side aten             at::add, Tensor::add_, at::add_out (when OPD_BENCH_WITH_TORCH)
#include <cstdint>
#include <vector>

#include <benchmark/benchmark.h>  // DoNotOptimize, ClobberMemory

#include "dispatch/dispatcher.hpp"
#include "kernels/ops.hpp"

#if defined(OPD_BENCH_WITH_TORCH)
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#endif

namespace bench_hw {

namespace k = opd::kernels;

// Same schemas as aten::add.Tensor / add_.Tensor / add.out, another namespace.
// Each kernel is what one writes without opd::structured: PyTorch's checks
// and semantics, on the kernels' own functions, nothing done twice.
struct add : opd::op<"bench_hw::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};
struct add_ : opd::op<"bench_hw::add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"> {};
struct add_out
    : opd::op<"bench_hw::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"> {};

// meta's checks, a fresh output, the math (a fresh output needs no more checks).
inline opd::Tensor add_kernel(const opd::Tensor& self, const opd::Tensor& other, const opd::Scalar& alpha) {
  opd::Tensor out = k::empty_from_meta(k::add_meta(self, other, alpha));
  k::add_impl(self, other, alpha, out, k::meta_checked);
  return out;
}

// add_impl checks that self has the broadcast shape and can hold the result.
inline opd::Tensor& add__kernel(opd::Tensor& self, const opd::Tensor& other, const opd::Scalar& alpha) {
  k::add_impl(self, other, alpha, self);
  return self;
}

// out= resizes an out of another shape; add_impl checks everything else.
inline opd::Tensor& add_out_kernel(const opd::Tensor& self, const opd::Tensor& other, const opd::Scalar& alpha,
                                   opd::Tensor& out) {
  if (!(out.sizes() == self.sizes() && out.sizes() == other.sizes())) {
    const k::TensorMeta m = k::add_meta(self, other, alpha);
    if (!(out.sizes() == opd::IntArrayRef(m.sizes))) out.resize_(m.sizes, m.memory_format);
  }
  k::add_impl(self, other, alpha, out);
  return out;
}

inline void register_all() {
  static opd::RegistrationHandle h1 = opd::register_kernel<add, &add_kernel>(opd::DispatchKey::CPU);
  static opd::RegistrationHandle h2 = opd::register_kernel<add_, &add__kernel>(opd::DispatchKey::CPU);
  static opd::RegistrationHandle h3 = opd::register_kernel<add_out, &add_out_kernel>(opd::DispatchKey::CPU);
}

}  // namespace bench_hw

namespace bench_elem {

enum class Variant { functional, inplace, out };

// Registers opd's CPU kernels and the hand-written family; one thread for ATen.
inline opd::RegistrationSet setup() {
  opd::RegistrationSet set = opd::kernels::register_cpu();
  bench_hw::register_all();
#if defined(OPD_BENCH_WITH_TORCH)
  at::set_num_threads(1);  // intra-op
  at::set_num_interop_threads(1);
#endif
  return set;
}

// n floats: start, start + 1, ... (mod 17).
inline opd::Tensor opd_input(int64_t n, float start) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = start + static_cast<float>(i % 17);
  return opd::from_vector<float>(v, std::vector<int64_t>{n});
}

// One call. Fam: opd::kernels::ops::add (derived variants) or bench_hw (by hand).
template <Variant V, class Functional, class Inplace, class Out>
inline void opd_call(opd::Tensor& a, const opd::Tensor& b, opd::Tensor& out) {
  if constexpr (V == Variant::functional) {
    opd::Tensor c = opd::call<Functional>(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  } else if constexpr (V == Variant::inplace) {
    opd::call<Inplace>(a, b);  // b is zeros and ones: a's values stay bounded
    benchmark::ClobberMemory();
  } else {
    opd::call<Out>(a, b, opd::Scalar(1), out);
    benchmark::ClobberMemory();
  }
}
template <Variant V>
inline void opd_derived(opd::Tensor& a, const opd::Tensor& b, opd::Tensor& out) {
  using add = opd::kernels::ops::add;
  opd_call<V, add::functional, add::inplace, add::out>(a, b, out);
}
template <Variant V>
inline void opd_handwritten(opd::Tensor& a, const opd::Tensor& b, opd::Tensor& out) {
  opd_call<V, bench_hw::add, bench_hw::add_, bench_hw::add_out>(a, b, out);
}

#if defined(OPD_BENCH_WITH_TORCH)
inline at::Tensor aten_input(int64_t n, float start) {
  at::Tensor t = at::empty({n}, at::kFloat);
  float* p = t.data_ptr<float>();
  for (int64_t i = 0; i < n; ++i) p[i] = start + static_cast<float>(i % 17);
  return t;
}

template <Variant V>
inline void aten(at::Tensor& a, const at::Tensor& b, at::Tensor& out) {
  if constexpr (V == Variant::functional) {
    at::Tensor c = at::add(a, b);
    benchmark::DoNotOptimize(c.data_ptr());
  } else if constexpr (V == Variant::inplace) {
    a.add_(b);
    benchmark::ClobberMemory();
  } else {
    at::add_out(out, a, b);
    benchmark::ClobberMemory();
  }
}
#endif

}  // namespace bench_elem
