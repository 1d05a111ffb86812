#pragma once
// The library's arithmetic operators, backed by the CPU kernels of kernels/cpu/:
// add, sub, mul, div (Tensor and Scalar overloads) as structured families
// (functional, in-place and out= variants, Meta kernels from meta()), and
// copy_, fill_, empty, zeros, ones as plain operators. The impl()s skip the
// checks meta() made (k::meta_checked): the structured machinery hands them
// an output of meta()'s sizes and dtype.
//
// Declared in namespace aten with ATen 1.13's schemas verbatim
// (tests/data/native_functions_1.13.jsonl), so programs written against
// ATen's names run unchanged. One exception: the Scalar_out overloads
// (add.Scalar_out, ...) that root the Scalar families are ATen 2.x's; 1.13
// has their functional and in-place variants only (which match).
//
//   auto kernels = opd::kernels::register_arithmetic();   // a RegistrationSet
//   opd::Tensor c = opd::call<opd::kernels::ops::add::functional>(a, b);
//
// kernels/ops.hpp gathers every family of the library and register_cpu();
// a header-only user who needs only these includes this header, and pays
// for compiling these kernels only.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher.hpp"
#include "dispatch/schema/variants.hpp"
// Only this family's kernels (kernels/cpu/kernels.hpp has every family's:
// header-only, each brings its loops).
#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/tensor_meta.hpp"
#include "structured/structured.hpp"

namespace opd::kernels {

namespace ops {

struct add : structured<"aten::add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o, const Scalar& alpha) { return add_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, const Scalar& alpha, Tensor& out) {
    add_impl(s, o, alpha, out, meta_checked);
  }
};
struct add_scalar : structured<"aten::add.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o, const Scalar& alpha) { return add_scalar_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, const Scalar& alpha, Tensor& out) {
    add_scalar_impl(s, o, alpha, out, meta_checked);
  }
};
struct sub : structured<"aten::sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o, const Scalar& alpha) { return sub_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, const Scalar& alpha, Tensor& out) {
    sub_impl(s, o, alpha, out, meta_checked);
  }
};
struct sub_scalar : structured<"aten::sub.Scalar_out(Tensor self, Scalar other, Scalar alpha=1, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o, const Scalar& alpha) { return sub_scalar_meta(s, o, alpha); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, const Scalar& alpha, Tensor& out) {
    sub_scalar_impl(s, o, alpha, out, meta_checked);
  }
};
struct mul : structured<"aten::mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o) { return mul_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, Tensor& out) { mul_impl(s, o, out, meta_checked); }
};
struct mul_scalar : structured<"aten::mul.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o) { return mul_scalar_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, Tensor& out) { mul_scalar_impl(s, o, out, meta_checked); }
};
struct div : structured<"aten::div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o) { return div_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o, Tensor& out) { div_impl(s, o, out, meta_checked); }
};
struct div_scalar : structured<"aten::div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Scalar& o) { return div_scalar_meta(s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Scalar& o, Tensor& out) { div_scalar_impl(s, o, out, meta_checked); }
};

struct copy_ : op<"aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)"> {};
struct fill_ : op<"aten::fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)"> {};
struct zero_ : op<"aten::zero_(Tensor(a!) self) -> Tensor(a!)"> {};
// The functional variants of copy_, fill_ and zero_, which a functionalization
// layer calls instead of them: a fresh tensor like self holding what the
// in-place operator would have written. ATen 1.13 declares copy and
// fill.Scalar; it generates zero (torchgen's autogen), whose schema is the one
// derived here from zero_'s.
struct copy : op<"aten::copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor"> {};
struct fill : op<"aten::fill.Scalar(Tensor self, Scalar value) -> Tensor"> {};
struct zero : op<schema::functional_variant_of<zero_>::text> {};
struct empty : op<"aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"> {};
struct zeros : op<"aten::zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
struct ones : op<"aten::ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"> {};
// A tensor like self (sizes; strides under preserve_format; self's dtype and
// device unless given) filled with fill_value: empty_like, then fill_.
struct full_like : op<"aten::full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"> {};

}  // namespace ops

namespace detail {
// ATen's factory options: only the strided layout and unpinned memory exist
// here; memory_format=preserve_format has nothing to preserve in a factory.
// Throws opd::ValueError naming `op`.
OPD_API void check_factory_options(std::string_view op, std::optional<Layout> layout, std::optional<bool> pin_memory,
                                   std::optional<MemoryFormat> memory_format);
}  // namespace detail

// Registers every operator above for CPU (and the structured ones' Meta
// kernels; copy_, fill_ and empty for Meta too; zero_, copy, fill and zero at
// CompositeExplicitAutograd; full_like there too). Compiled once, in libopdispatch
// (src/kernels/register_arithmetic.cpp).
OPD_API RegistrationSet register_arithmetic();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_arithmetic-inl.hpp"
#endif
