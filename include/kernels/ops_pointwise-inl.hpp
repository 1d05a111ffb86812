#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise.cpp): the registration of the pointwise
// operators, which instantiates every structured family's derived kernels.
#include <optional>
#include <string_view>

#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/tensor_meta.hpp"
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

inline Tensor masked_fill_scalar_kernel(const Tensor& s, const Tensor& m, const Scalar& v) { return masked_fill(s, m, v); }
inline Tensor& masked_fill_scalar_inplace(Tensor& s, const Tensor& m, const Scalar& v) { return masked_fill_(s, m, v); }
inline Tensor masked_fill_tensor_kernel(const Tensor& s, const Tensor& m, const Tensor& v) { return masked_fill(s, m, v); }
inline Tensor& masked_fill_tensor_inplace(Tensor& s, const Tensor& m, const Tensor& v) { return masked_fill_(s, m, v); }

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
  set.add(register_kernel<ops::masked_fill_scalar, &detail::masked_fill_scalar_kernel>(cpu));
  set.add(register_kernel<ops::masked_fill_scalar_, &detail::masked_fill_scalar_inplace>(cpu));
  set.add(register_kernel<ops::masked_fill_tensor, &detail::masked_fill_tensor_kernel>(cpu));
  set.add(register_kernel<ops::masked_fill_tensor_, &detail::masked_fill_tensor_inplace>(cpu));
  return set;
}

}  // namespace opd::kernels
