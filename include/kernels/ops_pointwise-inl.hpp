#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise.cpp): the registration of the pointwise
// operators, which instantiates every structured family's derived kernels.
#include <optional>
#include <string_view>

#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/tensor_meta.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/type_promotion.hpp"
#include "kernels/ops_pointwise.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

OPD_FUNC UnaryOp ops::gelu::op_of(std::string_view approximate) {
  if (approximate == "none") return UnaryOp::Gelu;
  if (approximate == "tanh") return UnaryOp::GeluTanh;
  throw ValueError(opd::detail::str_cat("gelu: approximate argument must be either none or tanh, got '",
                                        approximate, "'"));
}

namespace detail {

// The plain operators' kernels: meta, allocate, impl.
inline Tensor unary_functional(UnaryOp op, const Tensor& self, const UnaryParams& p = {}) {
  Tensor out = empty_from_meta(unary_meta(op, self));
  unary_impl(op, self, out, p, meta_checked);
  return out;
}
inline Tensor relu_kernel(const Tensor& self) { return unary_functional(UnaryOp::Relu, self); }
inline Tensor& relu_inplace_kernel(Tensor& self) {
  unary_impl(UnaryOp::Relu, self, self);  // keeps self's dtype: every check is impl's
  return self;
}
inline Tensor isnan_kernel(const Tensor& self) { return unary_functional(UnaryOp::IsNan, self); }
inline Tensor isinf_kernel(const Tensor& self) { return unary_functional(UnaryOp::IsInf, self); }
inline Tensor isfinite_kernel(const Tensor& self) { return unary_functional(UnaryOp::IsFinite, self); }

inline UnaryParams softplus_params(const Scalar& beta, const Scalar& threshold) {
  return UnaryParams{beta.to_double(), threshold.to_double(), std::nullopt};
}
inline Tensor softplus_kernel(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  return unary_functional(UnaryOp::Softplus, self, softplus_params(beta, threshold));
}
struct softplus_spec {
  TensorMeta operator()(const Tensor& self, const Scalar&, const Scalar&) const {
    return unary_meta(UnaryOp::Softplus, self);
  }
};

template <PointwiseOp K>
Tensor pointwise_kernel(const Tensor& self, const Tensor& other) {
  Tensor out = empty_from_meta(pointwise_meta(K, self, other));
  pointwise_impl(K, self, other, out, meta_checked);
  return out;
}
template <PointwiseOp K>
struct pointwise_spec {
  TensorMeta operator()(const Tensor& self, const Tensor& other) const { return pointwise_meta(K, self, other); }
};

// In place: the result (Tensor/Scalar other) computed straight into self;
// impl checks that it has self's shape and casts to self's dtype.
template <PointwiseOp K>
Tensor& pointwise_inplace(Tensor& self, const Tensor& other) {
  pointwise_impl(K, self, other, self);
  return self;
}
template <PointwiseOp K>
Tensor pointwise_scalar_kernel(const Tensor& self, const Scalar& other) {
  Tensor out = empty_from_meta(pointwise_meta(K, self, other));
  pointwise_impl(K, self, other, out, meta_checked);
  return out;
}
template <PointwiseOp K>
Tensor& pointwise_scalar_inplace(Tensor& self, const Scalar& other) {
  pointwise_impl(K, self, other, self);
  return self;
}
template <PointwiseOp K>
struct pointwise_scalar_spec {
  TensorMeta operator()(const Tensor& self, const Scalar& other) const { return pointwise_meta(K, self, other); }
};
template <PointwiseOp K>
Tensor scalar_tensor_kernel(const Scalar& self, const Tensor& other) {
  Tensor out = empty_from_meta(pointwise_meta(K, self, other));
  pointwise_impl(K, self, other, out, meta_checked);
  return out;
}
inline Tensor div_scalar_mode_kernel(const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  Tensor out = empty_from_meta(div_mode_meta(self, other, mode));
  div_mode_impl(self, other, mode, out);
  return out;
}
inline Tensor& div_scalar_mode_inplace(Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  div_mode_impl(self, other, mode, self);
  return self;
}

inline Tensor masked_fill_scalar_kernel(const Tensor& s, const Tensor& m, const Scalar& v) { return masked_fill(s, m, v); }
inline Tensor& masked_fill_scalar_inplace(Tensor& s, const Tensor& m, const Scalar& v) { return masked_fill_(s, m, v); }
inline Tensor masked_fill_tensor_kernel(const Tensor& s, const Tensor& m, const Tensor& v) { return masked_fill(s, m, v); }
inline Tensor& masked_fill_tensor_inplace(Tensor& s, const Tensor& m, const Tensor& v) { return masked_fill_(s, m, v); }

// ---- Meta kernels: the CPU kernels' meta functions, a Meta output ----
template <PointwiseOp K>
Tensor pointwise_meta_kernel(const Tensor& self, const Tensor& other) {
  return empty_from_meta(pointwise_meta(K, self, other), Device::meta());
}
template <PointwiseOp K>
Tensor pointwise_scalar_meta_kernel(const Tensor& self, const Scalar& other) {
  return empty_from_meta(pointwise_meta(K, self, other), Device::meta());
}
template <PointwiseOp K>
Tensor scalar_tensor_meta_kernel(const Scalar& self, const Tensor& other) {
  return empty_from_meta(pointwise_meta(K, self, other), Device::meta());
}
// In place on Meta: what impl checks of out = self, without the loop.
inline Tensor& inplace_meta(Tensor& self, const TensorMeta& m) {
  assert_no_internal_overlap(self);
  OPD_CHECK(self.sizes() == IntArrayRef(m.sizes), "output with shape ", self.sizes(),
            " doesn't match the broadcast shape ", IntArrayRef(m.sizes));
  check_can_cast_to_output(m.dtype, self.dtype());
  return self;
}
template <PointwiseOp K>
Tensor& pointwise_inplace_meta(Tensor& self, const Tensor& other) {
  return inplace_meta(self, pointwise_meta(K, self, other));
}
template <PointwiseOp K>
Tensor& pointwise_scalar_inplace_meta(Tensor& self, const Scalar& other) {
  return inplace_meta(self, pointwise_meta(K, self, other));
}
template <UnaryOp K>
Tensor unary_meta_kernel(const Tensor& self) {
  return empty_from_meta(unary_meta(K, self), Device::meta());
}
inline Tensor& relu_inplace_meta(Tensor& self) { return inplace_meta(self, unary_meta(UnaryOp::Relu, self)); }
inline Tensor softplus_meta_kernel(const Tensor& self, const Scalar&, const Scalar&) {
  return empty_from_meta(unary_meta(UnaryOp::Softplus, self), Device::meta());
}
inline Tensor div_scalar_mode_meta(const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  return empty_from_meta(div_mode_meta(self, other, mode), Device::meta());
}
inline Tensor& div_scalar_mode_inplace_meta(Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  return inplace_meta(self, div_mode_meta(self, other, mode));
}

}  // namespace detail

OPD_FUNC RegistrationSet register_pointwise() {
  RegistrationSet set;
  set.add(register_structured<ops::exp>());
  set.add(register_structured<ops::exp2>());
  set.add(register_structured<ops::expm1>());
  set.add(register_structured<ops::log>());
  set.add(register_structured<ops::log2>());
  set.add(register_structured<ops::log10>());
  set.add(register_structured<ops::log1p>());
  set.add(register_structured<ops::sqrt>());
  set.add(register_structured<ops::rsqrt>());
  set.add(register_structured<ops::reciprocal>());
  set.add(register_structured<ops::sin>());
  set.add(register_structured<ops::cos>());
  set.add(register_structured<ops::tan>());
  set.add(register_structured<ops::asin>());
  set.add(register_structured<ops::acos>());
  set.add(register_structured<ops::atan>());
  set.add(register_structured<ops::sinh>());
  set.add(register_structured<ops::cosh>());
  set.add(register_structured<ops::tanh>());
  set.add(register_structured<ops::sigmoid>());
  set.add(register_structured<ops::erf>());
  set.add(register_structured<ops::erfc>());
  set.add(register_structured<ops::neg>());
  set.add(register_structured<ops::abs>());
  set.add(register_structured<ops::sign>());
  set.add(register_structured<ops::silu>());
  set.add(register_structured<ops::hardswish>());
  set.add(register_structured<ops::floor>());
  set.add(register_structured<ops::ceil>());
  set.add(register_structured<ops::round>());
  set.add(register_structured<ops::trunc>());
  set.add(register_structured<ops::frac>());
  set.add(register_structured<ops::bitwise_not>());
  set.add(register_structured<ops::logical_not>());
  set.add(register_structured<ops::gelu>());
  set.add(register_structured<ops::nan_to_num>());
  set.add(register_structured<ops::eq>());
  set.add(register_structured<ops::eq_scalar>());
  set.add(register_structured<ops::ne>());
  set.add(register_structured<ops::ne_scalar>());
  set.add(register_structured<ops::lt>());
  set.add(register_structured<ops::lt_scalar>());
  set.add(register_structured<ops::le>());
  set.add(register_structured<ops::le_scalar>());
  set.add(register_structured<ops::gt>());
  set.add(register_structured<ops::gt_scalar>());
  set.add(register_structured<ops::ge>());
  set.add(register_structured<ops::ge_scalar>());
  set.add(register_structured<ops::logical_and>());
  set.add(register_structured<ops::logical_or>());
  set.add(register_structured<ops::logical_xor>());
  set.add(register_structured<ops::where>());
  set.add(register_structured<ops::clamp>());
  set.add(register_structured<ops::clamp_tensor>());
  set.add(register_structured<ops::remainder>());
  set.add(register_structured<ops::remainder_scalar>());
  set.add(register_structured<ops::fmod>());
  set.add(register_structured<ops::fmod_scalar>());
  set.add(register_structured<ops::bitwise_and>());
  set.add(register_structured<ops::bitwise_and_scalar>());
  set.add(register_structured<ops::bitwise_or>());
  set.add(register_structured<ops::bitwise_or_scalar>());
  set.add(register_structured<ops::bitwise_xor>());
  set.add(register_structured<ops::bitwise_xor_scalar>());
  set.add(register_structured<ops::bitwise_left_shift>());
  set.add(register_structured<ops::bitwise_left_shift_scalar>());
  set.add(register_structured<ops::bitwise_right_shift>());
  set.add(register_structured<ops::bitwise_right_shift_scalar>());
  set.add(register_structured<ops::atan2>());
  set.add(register_structured<ops::pow_scalar_self>());
  set.add(register_structured<ops::div_mode>());
  set.add(register_structured<ops::lerp_scalar>());
  set.add(register_structured<ops::lerp_tensor>());
  set.add(register_structured<ops::addcmul>());
  set.add(register_structured<ops::addcdiv>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  set.add(register_kernel<ops::relu, &detail::relu_kernel>(cpu));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_kernel>(cpu));
  set.add(register_kernel<ops::isnan, &detail::isnan_kernel>(cpu));
  set.add(register_kernel<ops::isinf, &detail::isinf_kernel>(cpu));
  set.add(register_kernel<ops::isfinite, &detail::isfinite_kernel>(cpu));
  set.add(register_kernel<ops::softplus, &detail::softplus_kernel>(cpu));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(cpu, detail::softplus_spec{}));
  set.add(register_kernel<ops::maximum, &detail::pointwise_kernel<PointwiseOp::Maximum>>(cpu));
  set.add(derive_missing_variants<ops::maximum, void, ops::maximum_out>(cpu, detail::pointwise_spec<PointwiseOp::Maximum>{}));
  set.add(register_kernel<ops::minimum, &detail::pointwise_kernel<PointwiseOp::Minimum>>(cpu));
  set.add(derive_missing_variants<ops::minimum, void, ops::minimum_out>(cpu, detail::pointwise_spec<PointwiseOp::Minimum>{}));
  using P = PointwiseOp;
  set.add(register_kernel<ops::pow_tensor, &detail::pointwise_kernel<P::Pow>>(cpu));
  set.add(register_kernel<ops::pow_tensor_, &detail::pointwise_inplace<P::Pow>>(cpu));
  set.add(derive_missing_variants<ops::pow_tensor, ops::pow_tensor_, ops::pow_tensor_out>(cpu, detail::pointwise_spec<P::Pow>{}));
  set.add(register_kernel<ops::pow_scalar, &detail::pointwise_scalar_kernel<P::Pow>>(cpu));
  set.add(register_kernel<ops::pow_scalar_, &detail::pointwise_scalar_inplace<P::Pow>>(cpu));
  set.add(derive_missing_variants<ops::pow_scalar, ops::pow_scalar_, ops::pow_scalar_out>(cpu, detail::pointwise_scalar_spec<P::Pow>{}));
  set.add(register_kernel<ops::floor_divide, &detail::pointwise_kernel<P::FloorDivide>>(cpu));
  set.add(register_kernel<ops::floor_divide_, &detail::pointwise_inplace<P::FloorDivide>>(cpu));
  set.add(derive_missing_variants<ops::floor_divide, ops::floor_divide_, ops::floor_divide_out>(cpu, detail::pointwise_spec<P::FloorDivide>{}));
  set.add(register_kernel<ops::floor_divide_scalar, &detail::pointwise_scalar_kernel<P::FloorDivide>>(cpu));
  set.add(register_kernel<ops::floor_divide_scalar_, &detail::pointwise_scalar_inplace<P::FloorDivide>>(cpu));
  set.add(register_kernel<ops::div_scalar_mode, &detail::div_scalar_mode_kernel>(cpu));
  set.add(register_kernel<ops::div_scalar_mode_, &detail::div_scalar_mode_inplace>(cpu));
  set.add(register_kernel<ops::remainder_scalar_tensor, &detail::scalar_tensor_kernel<P::Remainder>>(cpu));
  set.add(register_kernel<ops::bitwise_and_scalar_tensor, &detail::scalar_tensor_kernel<P::BitwiseAnd>>(cpu));
  set.add(register_kernel<ops::bitwise_or_scalar_tensor, &detail::scalar_tensor_kernel<P::BitwiseOr>>(cpu));
  set.add(register_kernel<ops::bitwise_xor_scalar_tensor, &detail::scalar_tensor_kernel<P::BitwiseXor>>(cpu));
  set.add(register_kernel<ops::bitwise_left_shift_scalar_tensor, &detail::scalar_tensor_kernel<P::LeftShift>>(cpu));
  set.add(register_kernel<ops::bitwise_right_shift_scalar_tensor, &detail::scalar_tensor_kernel<P::RightShift>>(cpu));
  set.add(register_kernel<ops::masked_fill_scalar, &detail::masked_fill_scalar_kernel>(cpu));
  set.add(register_kernel<ops::masked_fill_scalar_, &detail::masked_fill_scalar_inplace>(cpu));
  set.add(register_kernel<ops::masked_fill_tensor, &detail::masked_fill_tensor_kernel>(cpu));
  set.add(register_kernel<ops::masked_fill_tensor_, &detail::masked_fill_tensor_inplace>(cpu));

  // Meta: the same meta functions (masked_fill: the same function, which
  // stops before reading data on Meta tensors); out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::relu, &detail::unary_meta_kernel<UnaryOp::Relu>>(meta));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_meta>(meta));
  set.add(register_kernel<ops::isnan, &detail::unary_meta_kernel<UnaryOp::IsNan>>(meta));
  set.add(register_kernel<ops::isinf, &detail::unary_meta_kernel<UnaryOp::IsInf>>(meta));
  set.add(register_kernel<ops::isfinite, &detail::unary_meta_kernel<UnaryOp::IsFinite>>(meta));
  set.add(register_kernel<ops::softplus, &detail::softplus_meta_kernel>(meta));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(meta, detail::softplus_spec{}));
  set.add(register_kernel<ops::maximum, &detail::pointwise_meta_kernel<P::Maximum>>(meta));
  set.add(derive_missing_variants<ops::maximum, void, ops::maximum_out>(meta, detail::pointwise_spec<P::Maximum>{}));
  set.add(register_kernel<ops::minimum, &detail::pointwise_meta_kernel<P::Minimum>>(meta));
  set.add(derive_missing_variants<ops::minimum, void, ops::minimum_out>(meta, detail::pointwise_spec<P::Minimum>{}));
  set.add(register_kernel<ops::pow_tensor, &detail::pointwise_meta_kernel<P::Pow>>(meta));
  set.add(register_kernel<ops::pow_tensor_, &detail::pointwise_inplace_meta<P::Pow>>(meta));
  set.add(derive_missing_variants<ops::pow_tensor, ops::pow_tensor_, ops::pow_tensor_out>(meta, detail::pointwise_spec<P::Pow>{}));
  set.add(register_kernel<ops::pow_scalar, &detail::pointwise_scalar_meta_kernel<P::Pow>>(meta));
  set.add(register_kernel<ops::pow_scalar_, &detail::pointwise_scalar_inplace_meta<P::Pow>>(meta));
  set.add(derive_missing_variants<ops::pow_scalar, ops::pow_scalar_, ops::pow_scalar_out>(meta, detail::pointwise_scalar_spec<P::Pow>{}));
  set.add(register_kernel<ops::floor_divide, &detail::pointwise_meta_kernel<P::FloorDivide>>(meta));
  set.add(register_kernel<ops::floor_divide_, &detail::pointwise_inplace_meta<P::FloorDivide>>(meta));
  set.add(derive_missing_variants<ops::floor_divide, ops::floor_divide_, ops::floor_divide_out>(meta, detail::pointwise_spec<P::FloorDivide>{}));
  set.add(register_kernel<ops::floor_divide_scalar, &detail::pointwise_scalar_meta_kernel<P::FloorDivide>>(meta));
  set.add(register_kernel<ops::floor_divide_scalar_, &detail::pointwise_scalar_inplace_meta<P::FloorDivide>>(meta));
  set.add(register_kernel<ops::div_scalar_mode, &detail::div_scalar_mode_meta>(meta));
  set.add(register_kernel<ops::div_scalar_mode_, &detail::div_scalar_mode_inplace_meta>(meta));
  set.add(register_kernel<ops::remainder_scalar_tensor, &detail::scalar_tensor_meta_kernel<P::Remainder>>(meta));
  set.add(register_kernel<ops::bitwise_and_scalar_tensor, &detail::scalar_tensor_meta_kernel<P::BitwiseAnd>>(meta));
  set.add(register_kernel<ops::bitwise_or_scalar_tensor, &detail::scalar_tensor_meta_kernel<P::BitwiseOr>>(meta));
  set.add(register_kernel<ops::bitwise_xor_scalar_tensor, &detail::scalar_tensor_meta_kernel<P::BitwiseXor>>(meta));
  set.add(register_kernel<ops::bitwise_left_shift_scalar_tensor, &detail::scalar_tensor_meta_kernel<P::LeftShift>>(meta));
  set.add(register_kernel<ops::bitwise_right_shift_scalar_tensor, &detail::scalar_tensor_meta_kernel<P::RightShift>>(meta));
  set.add(register_kernel<ops::masked_fill_scalar, &detail::masked_fill_scalar_kernel>(meta));
  set.add(register_kernel<ops::masked_fill_scalar_, &detail::masked_fill_scalar_inplace>(meta));
  set.add(register_kernel<ops::masked_fill_tensor, &detail::masked_fill_tensor_kernel>(meta));
  set.add(register_kernel<ops::masked_fill_tensor_, &detail::masked_fill_tensor_inplace>(meta));
  return set;
}

}  // namespace opd::kernels
