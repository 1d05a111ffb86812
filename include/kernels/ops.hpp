#pragma once
// The library's own operators, backed by the CPU kernels of kernels/cpu/:
// add, sub, mul, div (Tensor and Scalar overloads) as structured families
// (functional, in-place and out= variants, Meta kernels from meta()), and
// copy_, fill_, empty, zeros, ones as plain operators. The impl()s skip the
// checks meta() made (k::meta_checked): the structured machinery hands them
// an output of meta()'s sizes and dtype.
//
//   auto kernels = opd::kernels::register_cpu();   // a RegistrationSet
//   opd::Tensor c = opd::call<opd::kernels::ops::add::functional>(a, b);
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/kernels.hpp"
#include "structured/structured.hpp"

namespace opd::kernels {

namespace ops {

struct add : structured<"opd::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o, const Scalar& alpha) { return add_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, const Scalar& alpha, Tensor& out) {
    add_impl(s, o, alpha, out, meta_checked);
  }
};
struct add_scalar : structured<"opd::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o, const Scalar& alpha) { return add_scalar_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, const Scalar& alpha, Tensor& out) {
    add_scalar_impl(s, o, alpha, out, meta_checked);
  }
};
struct sub : structured<"opd::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o, const Scalar& alpha) { return sub_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, const Scalar& alpha, Tensor& out) {
    sub_impl(s, o, alpha, out, meta_checked);
  }
};
struct sub_scalar : structured<"opd::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o, const Scalar& alpha) { return sub_scalar_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, const Scalar& alpha, Tensor& out) {
    sub_scalar_impl(s, o, alpha, out, meta_checked);
  }
};
struct mul : structured<"opd::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o) { return mul_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, Tensor& out) { mul_impl(s, o, out, meta_checked); }
};
struct mul_scalar : structured<"opd::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o) { return mul_scalar_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, Tensor& out) { mul_scalar_impl(s, o, out, meta_checked); }
};
struct div : structured<"opd::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o) { return div_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, Tensor& out) { div_impl(s, o, out, meta_checked); }
};
struct div_scalar : structured<"opd::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o) { return div_scalar_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, Tensor& out) { div_scalar_impl(s, o, out, meta_checked); }
};

struct copy_ : op<"opd::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"> {};
struct fill_ : op<"opd::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)"> {};
struct empty : op<"opd::empty(int[] size, *, ScalarType? dtype=None, Device? device=None) -> Tensor"> {};
struct zeros : op<"opd::zeros(int[] size, *, ScalarType? dtype=None, Device? device=None) -> Tensor"> {};
struct ones : op<"opd::ones(int[] size, *, ScalarType? dtype=None, Device? device=None) -> Tensor"> {};

}  // namespace ops

// Registers every operator above for CPU (and the structured ones' Meta
// kernels). Compiled once, in libopdispatch (src/kernels/register_cpu.cpp).
OPD_API RegistrationSet register_cpu();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops-inl.hpp"
#endif
