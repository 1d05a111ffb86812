#pragma once
// The plain (non-structured) pointwise operators' kernels and the specs their
// derived variants use: inline helpers shared by the sources that register
// the pointwise operators (ops_pointwise_<group>-inl.hpp).
#include <optional>
#include <string_view>

#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/tensor_meta.hpp"
#include "kernels/cpu/type_promotion.hpp"
#include "kernels/ops_pointwise.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

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

}  // namespace opd::kernels
