#pragma once
// The pointwise operators beyond add/sub/mul/div (kernels/cpu/pointwise.hpp),
// with ATen 1.13's schemas verbatim: unary math, comparisons, logical ops,
// maximum/minimum, where, clamp, masked_fill. Where ATen has an out=
// variant and a matching in-place one, the operator is a structured family
// (functional, in-place, out=, Meta kernels from meta()), made by ONE
// template per family shape from the op id: unary_family<UnaryOp::Exp,
// "aten::exp.out(...)">. The others (relu, isnan/isinf/isfinite,
// softplus, maximum/minimum, masked_fill) are plain operators with CPU
// kernels; their missing variants are derived (structured/derive.hpp).
//
//   auto kernels = opd::kernels::register_cpu();   // calls register_pointwise()
//   opd::Tensor e = opd::call<opd::kernels::ops::exp::functional>(x);
#include <optional>
#include <string_view>

#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/pointwise.hpp"
#include "structured/structured.hpp"

namespace opd::kernels {

namespace ops {

// ------------------------------------------------------ family templates ---

template <UnaryOp K, fixed_string OutSchema>
struct unary_family : structured<OutSchema> {
  static TensorMeta meta(const Tensor& self) { return unary_meta(K, self); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, Tensor& out) {
    unary_impl(K, self, out, {}, meta_checked);
  }
};

template <PointwiseOp K, fixed_string OutSchema, fixed_string Overload = derive_overload_name>
struct binary_family : structured<OutSchema, Overload> {
  static TensorMeta meta(const Tensor& self, const Tensor& other) { return pointwise_meta(K, self, other); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, const Tensor& other, Tensor& out) {
    pointwise_impl(K, self, other, out, meta_checked);
  }
};

template <PointwiseOp K, fixed_string OutSchema, fixed_string Overload = derive_overload_name>
struct binary_scalar_family : structured<OutSchema, Overload> {
  static TensorMeta meta(const Tensor& self, const Scalar& other) { return pointwise_meta(K, self, other); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, const Scalar& other, Tensor& out) {
    pointwise_impl(K, self, other, out, meta_checked);
  }
};

// ---------------------------------------------------------------- unary ---

struct exp : unary_family<UnaryOp::Exp, "aten::exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct exp2 : unary_family<UnaryOp::Exp2, "aten::exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct expm1 : unary_family<UnaryOp::Expm1, "aten::expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct log : unary_family<UnaryOp::Log, "aten::log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct log2 : unary_family<UnaryOp::Log2, "aten::log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct log10 : unary_family<UnaryOp::Log10, "aten::log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct log1p : unary_family<UnaryOp::Log1p, "aten::log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct sqrt : unary_family<UnaryOp::Sqrt, "aten::sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct rsqrt : unary_family<UnaryOp::Rsqrt, "aten::rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct reciprocal : unary_family<UnaryOp::Reciprocal, "aten::reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct sin : unary_family<UnaryOp::Sin, "aten::sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct cos : unary_family<UnaryOp::Cos, "aten::cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct tan : unary_family<UnaryOp::Tan, "aten::tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct asin : unary_family<UnaryOp::Asin, "aten::asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct acos : unary_family<UnaryOp::Acos, "aten::acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct atan : unary_family<UnaryOp::Atan, "aten::atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct sinh : unary_family<UnaryOp::Sinh, "aten::sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct cosh : unary_family<UnaryOp::Cosh, "aten::cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct tanh : unary_family<UnaryOp::Tanh, "aten::tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct sigmoid : unary_family<UnaryOp::Sigmoid, "aten::sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct erf : unary_family<UnaryOp::Erf, "aten::erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct erfc : unary_family<UnaryOp::Erfc, "aten::erfc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct acosh : unary_family<UnaryOp::Acosh, "aten::acosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct asinh : unary_family<UnaryOp::Asinh, "aten::asinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct atanh : unary_family<UnaryOp::Atanh, "aten::atanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct neg : unary_family<UnaryOp::Neg, "aten::neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct abs : unary_family<UnaryOp::Abs, "aten::abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct sign : unary_family<UnaryOp::Sign, "aten::sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
// sign on real dtypes, z / |z| (0 at 0) on complex.
struct sgn : unary_family<UnaryOp::Sgn, "aten::sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct silu : unary_family<UnaryOp::Silu, "aten::silu.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct hardswish : unary_family<UnaryOp::Hardswish, "aten::hardswish.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct hardsigmoid : unary_family<UnaryOp::Hardsigmoid, "aten::hardsigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct floor : unary_family<UnaryOp::Floor, "aten::floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct ceil : unary_family<UnaryOp::Ceil, "aten::ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct round : unary_family<UnaryOp::Round, "aten::round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct trunc : unary_family<UnaryOp::Trunc, "aten::trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct frac : unary_family<UnaryOp::Frac, "aten::frac.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct bitwise_not : unary_family<UnaryOp::BitwiseNot, "aten::bitwise_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct logical_not : unary_family<UnaryOp::LogicalNot, "aten::logical_not.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};

// gelu(approximate='none' | 'tanh')
struct gelu : structured<"aten::gelu.out(Tensor self, *, str approximate='none', Tensor(a!) out) -> Tensor(a!)"> {
  OPD_API static UnaryOp op_of(std::string_view approximate);
  static TensorMeta meta(const Tensor& self, std::string_view approximate) { return unary_meta(op_of(approximate), self); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, std::string_view approximate, Tensor& out) {
    unary_impl(op_of(approximate), self, out, {}, meta_checked);
  }
};

struct nan_to_num : structured<"aten::nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& self, std::optional<double>, std::optional<double>, std::optional<double>) {
    return unary_meta(UnaryOp::NanToNum, self);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, std::optional<double> nan,
                   std::optional<double> posinf, std::optional<double> neginf, Tensor& out) {
    unary_impl(UnaryOp::NanToNum, self, out, UnaryParams{nan, posinf, neginf}, meta_checked);
  }
};

// elu and leaky_relu: floating inputs only (integral ones refused, as ATen's).
struct elu : structured<"aten::elu.out(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& self, const Scalar&, const Scalar&, const Scalar&) {
    return unary_meta(UnaryOp::Elu, self);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, const Scalar& alpha, const Scalar& scale,
                   const Scalar& input_scale, Tensor& out) {
    unary_impl(UnaryOp::Elu, self, out, UnaryParams{alpha.to_double(), scale.to_double(), input_scale.to_double()},
               meta_checked);
  }
};
struct leaky_relu : structured<"aten::leaky_relu.out(Tensor self, Scalar negative_slope=0.01, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& self, const Scalar&) { return unary_meta(UnaryOp::LeakyRelu, self); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& self, const Scalar& negative_slope, Tensor& out) {
    unary_impl(UnaryOp::LeakyRelu, self, out, UnaryParams{negative_slope.to_double(), {}, {}}, meta_checked);
  }
};

// Plain operators (ATen has no out= or no in-place variant for them).
struct softplus : op<"aten::softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor"> {};
struct softplus_out : op<"aten::softplus.out(Tensor self, Scalar beta=1, Scalar threshold=20, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct relu : op<"aten::relu(Tensor self) -> Tensor"> {};
struct relu_ : op<"aten::relu_(Tensor(a!) self) -> Tensor(a!)"> {};
// hardtanh: clamp to [min_val, max_val] (integral inputs take the bounds as
// integers, so that they never promote; Bool refused), as ATen's, which
// computes it through clamp.out: the kernels call clamp's variants.
struct hardtanh : op<"aten::hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor"> {};
struct hardtanh_ : op<"aten::hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)"> {};
struct hardtanh_out : op<"aten::hardtanh.out(Tensor self, Scalar min_val=-1, Scalar max_val=1, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct isnan : op<"aten::isnan(Tensor self) -> Tensor"> {};
struct isinf : op<"aten::isinf(Tensor self) -> Tensor"> {};
struct isfinite : op<"aten::isfinite(Tensor self) -> Tensor"> {};

// ---------------------------------------------------- binary and ternary ---

struct eq : binary_family<PointwiseOp::Eq, "aten::eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct eq_scalar : binary_scalar_family<PointwiseOp::Eq, "aten::eq.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct ne : binary_family<PointwiseOp::Ne, "aten::ne.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct ne_scalar : binary_scalar_family<PointwiseOp::Ne, "aten::ne.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct lt : binary_family<PointwiseOp::Lt, "aten::lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct lt_scalar : binary_scalar_family<PointwiseOp::Lt, "aten::lt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct le : binary_family<PointwiseOp::Le, "aten::le.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct le_scalar : binary_scalar_family<PointwiseOp::Le, "aten::le.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct gt : binary_family<PointwiseOp::Gt, "aten::gt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct gt_scalar : binary_scalar_family<PointwiseOp::Gt, "aten::gt.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct ge : binary_family<PointwiseOp::Ge, "aten::ge.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct ge_scalar : binary_scalar_family<PointwiseOp::Ge, "aten::ge.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct logical_and : binary_family<PointwiseOp::LogicalAnd, "aten::logical_and.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct logical_or : binary_family<PointwiseOp::LogicalOr, "aten::logical_or.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct logical_xor : binary_family<PointwiseOp::LogicalXor, "aten::logical_xor.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct remainder : binary_family<PointwiseOp::Remainder, "aten::remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct remainder_scalar : binary_scalar_family<PointwiseOp::Remainder, "aten::remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct fmod : binary_family<PointwiseOp::Fmod, "aten::fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct fmod_scalar : binary_scalar_family<PointwiseOp::Fmod, "aten::fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct bitwise_and : binary_family<PointwiseOp::BitwiseAnd, "aten::bitwise_and.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct bitwise_and_scalar : binary_scalar_family<PointwiseOp::BitwiseAnd, "aten::bitwise_and.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct bitwise_or : binary_family<PointwiseOp::BitwiseOr, "aten::bitwise_or.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct bitwise_or_scalar : binary_scalar_family<PointwiseOp::BitwiseOr, "aten::bitwise_or.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct bitwise_xor : binary_family<PointwiseOp::BitwiseXor, "aten::bitwise_xor.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct bitwise_xor_scalar : binary_scalar_family<PointwiseOp::BitwiseXor, "aten::bitwise_xor.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {};
struct bitwise_left_shift : binary_family<PointwiseOp::LeftShift, "aten::bitwise_left_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct bitwise_left_shift_scalar : binary_scalar_family<PointwiseOp::LeftShift, "aten::bitwise_left_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor_Scalar"> {};
struct bitwise_right_shift : binary_family<PointwiseOp::RightShift, "aten::bitwise_right_shift.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
struct bitwise_right_shift_scalar : binary_scalar_family<PointwiseOp::RightShift, "aten::bitwise_right_shift.Tensor_Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor_Scalar"> {};
struct atan2 : binary_family<PointwiseOp::Atan2, "aten::atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct pow_scalar_self : structured<"aten::pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Scalar& s, const Tensor& e) { return pointwise_meta(PointwiseOp::Pow, s, e); }
  static void impl(backend_tag<DispatchKey::CPU>, const Scalar& s, const Tensor& e, Tensor& out) {
    pointwise_impl(PointwiseOp::Pow, s, e, out, meta_checked);
  }
};

struct div_mode : structured<"aten::div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)", "Tensor_mode"> {
  static TensorMeta meta(const Tensor& s, const Tensor& o, std::optional<std::string_view> mode) {
    return div_mode_meta(s, o, mode);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& o,
                   std::optional<std::string_view> mode, Tensor& out) {
    div_mode_impl(s, o, mode, out);
  }
};

struct lerp_scalar : structured<"aten::lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)", "Scalar"> {
  static TensorMeta meta(const Tensor& s, const Tensor& e, const Scalar& w) { return lerp_meta(s, e, w); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& e, const Scalar& w, Tensor& out) {
    lerp_impl(s, e, w, out);
  }
};
struct lerp_tensor : structured<"aten::lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const Tensor& e, const Tensor& w) { return lerp_tensor_meta(s, e, w); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& e, const Tensor& w, Tensor& out) {
    lerp_tensor_impl(s, e, w, out);
  }
};
struct addcmul : structured<"aten::addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& s, const Tensor& a, const Tensor& b, const Scalar& v) { return addcmul_meta(s, a, b, v); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& a, const Tensor& b, const Scalar& v,
                   Tensor& out) {
    addcmul_impl(s, a, b, v, out);
  }
};
struct addcdiv : structured<"aten::addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& s, const Tensor& a, const Tensor& b, const Scalar& v) { return addcdiv_meta(s, a, b, v); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const Tensor& a, const Tensor& b, const Scalar& v,
                   Tensor& out) {
    addcdiv_impl(s, a, b, v, out);
  }
};

// Plain operators: ATen's in-place overload names do not follow from the
// out= ones (pow_.Tensor goes with pow.Tensor_Tensor_out), or there is no out=.
struct pow_tensor : op<"aten::pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor"> {};
struct pow_tensor_ : op<"aten::pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)"> {};
struct pow_tensor_out : op<"aten::pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct pow_scalar : op<"aten::pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor"> {};
struct pow_scalar_ : op<"aten::pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)"> {};
struct pow_scalar_out : op<"aten::pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct floor_divide : op<"aten::floor_divide(Tensor self, Tensor other) -> Tensor"> {};
struct floor_divide_ : op<"aten::floor_divide_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)"> {};
struct floor_divide_out : op<"aten::floor_divide.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct floor_divide_scalar : op<"aten::floor_divide.Scalar(Tensor self, Scalar other) -> Tensor"> {};
struct floor_divide_scalar_ : op<"aten::floor_divide_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)"> {};
struct div_scalar_mode : op<"aten::div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor"> {};
struct div_scalar_mode_ : op<"aten::div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)"> {};
struct remainder_scalar_tensor : op<"aten::remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"> {};
struct bitwise_and_scalar_tensor : op<"aten::bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"> {};
struct bitwise_or_scalar_tensor : op<"aten::bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"> {};
struct bitwise_xor_scalar_tensor : op<"aten::bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"> {};
struct bitwise_left_shift_scalar_tensor : op<"aten::bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"> {};
struct bitwise_right_shift_scalar_tensor : op<"aten::bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"> {};

struct maximum : op<"aten::maximum(Tensor self, Tensor other) -> Tensor"> {};
struct maximum_out : op<"aten::maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct minimum : op<"aten::minimum(Tensor self, Tensor other) -> Tensor"> {};
struct minimum_out : op<"aten::minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};

struct where : structured<"aten::where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& c, const Tensor& s, const Tensor& o) { return where_meta(c, s, o); }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& c, const Tensor& s, const Tensor& o, Tensor& out) {
    where_impl(c, s, o, out);
  }
};

// ATen 1.13's composites over where.self (CompositeImplicitAutograd): each
// Scalar takes part in type promotion as a number does: where(c, 1.5, 2) is
// Float, where(c, float64_tensor, 1j) complex128, where(c, int32_tensor, 1j)
// complex64.
struct where_scalar_self : op<"aten::where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor"> {};
struct where_scalar_other : op<"aten::where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor"> {};
struct where_scalar : op<"aten::where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor"> {};

struct clamp : structured<"aten::clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)"> {
  static TensorMeta meta(const Tensor& s, const std::optional<Scalar>& lo, const std::optional<Scalar>& hi) {
    return clamp_meta(s, lo, hi);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const std::optional<Scalar>& lo,
                   const std::optional<Scalar>& hi, Tensor& out) {
    clamp_impl(s, lo, hi, out);
  }
};
struct clamp_tensor : structured<"aten::clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
  static TensorMeta meta(const Tensor& s, const std::optional<Tensor>& lo, const std::optional<Tensor>& hi) {
    return clamp_tensor_meta(s, lo, hi);
  }
  static void impl(backend_tag<DispatchKey::CPU>, const Tensor& s, const std::optional<Tensor>& lo,
                   const std::optional<Tensor>& hi, Tensor& out) {
    clamp_tensor_impl(s, lo, hi, out);
  }
};

struct masked_fill_scalar : op<"aten::masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor"> {};
struct masked_fill_scalar_ : op<"aten::masked_fill_.Scalar(Tensor(a!) self, Tensor mask, Scalar value) -> Tensor(a!)"> {};
struct masked_fill_tensor : op<"aten::masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor"> {};
struct masked_fill_tensor_ : op<"aten::masked_fill_.Tensor(Tensor(a!) self, Tensor mask, Tensor value) -> Tensor(a!)"> {};

}  // namespace ops

// Registers every operator above for CPU (and the structured ones' Meta
// kernels). Compiled once, in libopdispatch (src/kernels/register_pointwise.cpp);
// register_cpu() calls it.
OPD_API RegistrationSet register_pointwise();

namespace detail {
// register_pointwise()'s groups, each compiled in its own source
// (src/kernels/register_pointwise_<group>.cpp).
OPD_API RegistrationSet register_pointwise_unary_float();
OPD_API RegistrationSet register_pointwise_unary_other();
OPD_API RegistrationSet register_pointwise_compare();
OPD_API RegistrationSet register_pointwise_arith();
OPD_API RegistrationSet register_pointwise_unary_trig();
OPD_API RegistrationSet register_pointwise_unary_activation();
OPD_API RegistrationSet register_pointwise_select();
OPD_API RegistrationSet register_pointwise_pow_div();
}  // namespace detail

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_pointwise-inl.hpp"
#include "kernels/ops_pointwise_unary_float-inl.hpp"
#include "kernels/ops_pointwise_unary_other-inl.hpp"
#include "kernels/ops_pointwise_compare-inl.hpp"
#include "kernels/ops_pointwise_arith-inl.hpp"
#include "kernels/ops_pointwise_unary_trig-inl.hpp"
#include "kernels/ops_pointwise_unary_activation-inl.hpp"
#include "kernels/ops_pointwise_select-inl.hpp"
#include "kernels/ops_pointwise_pow_div-inl.hpp"
#endif
