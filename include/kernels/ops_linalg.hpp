#pragma once
// The linear-algebra operators (kernels/cpu/linalg.hpp) with ATen 1.13's
// schemas: addmm and baddbmm as structured families (functional, in-place
// and out= variants, Meta kernels from meta()); mm and bmm as a functional
// CPU and Meta kernel each with out= derived (ATen has no mm_ / bmm_, which
// a structured family would declare); dot, mv, outer, matmul and linear as
// functional CPU kernels with out= derived (opd::derive_missing_variants:
// computed functionally, then copied into out).
//
//   auto kernels = opd::kernels::register_linalg();   // also part of register_cpu()
//   opd::Tensor c = opd::call<opd::kernels::ops::mm>(a, b);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/linalg.hpp"
#include "structured/structured.hpp"

namespace opd::kernels {

namespace ops {

struct mm : op<"aten::mm(Tensor self, Tensor mat2) -> Tensor"> {};
struct mm_out : op<"aten::mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct bmm : op<"aten::bmm(Tensor self, Tensor mat2) -> Tensor"> {};
struct bmm_out : op<"aten::bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct addmm : structured<"aten::addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& s, const Tensor& m1, const Tensor& m2, const Scalar& beta, const Scalar& alpha) {
    return addmm_meta(s, m1, m2, beta, alpha);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& m1, const Tensor& m2,
                   const Scalar& beta, const Scalar& alpha, Tensor& out) {
    addmm_impl(s, m1, m2, beta, alpha, out);
  }
};
struct baddbmm : structured<"aten::baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& s, const Tensor& b1, const Tensor& b2, const Scalar& beta, const Scalar& alpha) {
    return baddbmm_meta(s, b1, b2, beta, alpha);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& b1, const Tensor& b2,
                   const Scalar& beta, const Scalar& alpha, Tensor& out) {
    baddbmm_impl(s, b1, b2, beta, alpha, out);
  }
};

struct dot : op<"aten::dot(Tensor self, Tensor tensor) -> Tensor"> {};
struct dot_out : op<"aten::dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct mv : op<"aten::mv(Tensor self, Tensor vec) -> Tensor"> {};
struct mv_out : op<"aten::mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct outer : op<"aten::outer(Tensor self, Tensor vec2) -> Tensor"> {};
struct outer_out : op<"aten::outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct matmul : op<"aten::matmul(Tensor self, Tensor other) -> Tensor"> {};
struct matmul_out : op<"aten::matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct linear : op<"aten::linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"> {};
struct linear_out : op<"aten::linear.out(Tensor input, Tensor weight, Tensor? bias=None, *, Tensor(a!) out) -> Tensor(a!)"> {};

}  // namespace ops

// Registers the operators above for CPU (and Meta for mm, bmm, addmm,
// baddbmm). Compiled once, in libopdispatch (src/kernels/register_linalg.cpp).
OPD_API RegistrationSet register_linalg();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_linalg-inl.hpp"
#endif
