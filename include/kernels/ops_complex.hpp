#pragma once
// The complex-number operators of ATen 1.13 beyond the pointwise families,
// with its schemas verbatim: the views that change the dtype (view_as_real,
// view_as_complex, real, imag: declared in ops_complex_views.hpp;
// view_as_real_copy and view_as_complex_copy are in ops_view_copies.hpp with
// the other *_copy operators), the conjugates
// (conj, conj_physical, resolve_conj, resolve_neg), angle and the dtype
// queries is_complex / is_conj.
//
//   auto kernels = opd::kernels::register_complex();   // also part of register_cpu()
//   opd::Tensor r = opd::call<opd::kernels::ops::view_as_real>(z);   // [..., 2] Float view of a ComplexFloat z
//
// The library has no conjugate bit: conj of a complex tensor is a physical
// conjugate (a fresh tensor, as conj_physical), is_conj is always false and
// resolve_conj / resolve_neg return their input.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error

#include "dispatch/dispatcher.hpp"
#include "kernels/ops_complex_views.hpp"

namespace opd::kernels {

namespace ops {

struct conj : op<"aten::conj(Tensor(a) self) -> Tensor(a)"> {};
struct conj_physical : op<"aten::conj_physical(Tensor self) -> Tensor"> {};
struct conj_physical_ : op<"aten::conj_physical_(Tensor(a!) self) -> Tensor(a!)"> {};
struct conj_physical_out : op<"aten::conj_physical.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct resolve_conj : op<"aten::resolve_conj(Tensor(a) self) -> Tensor(a)"> {};
struct resolve_neg : op<"aten::resolve_neg(Tensor(a) self) -> Tensor(a)"> {};
struct is_conj : op<"aten::is_conj(Tensor self) -> bool"> {};
struct is_complex : op<"aten::is_complex(Tensor self) -> bool"> {};

// The argument of a complex number (a Float/Double result); on reals pi for
// negatives, 0 otherwise, NaN kept (integers and Bool in the default dtype).
struct angle : op<"aten::angle(Tensor self) -> Tensor"> {};
struct angle_out : op<"aten::angle.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};

}  // namespace ops

// Registers every operator above and the views of ops_complex_views.hpp: conj, resolve_*, is_* at
// CompositeExplicitAutograd / CompositeImplicitAutograd as ATen does,
// conj_physical and angle for CPU and Meta (out= derived). register_cpu()
// calls it. Compiled once, in libopdispatch (src/kernels/complex.cpp).
OPD_API RegistrationSet register_complex();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_complex-inl.hpp"
#endif
