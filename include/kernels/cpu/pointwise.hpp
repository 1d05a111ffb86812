// The pointwise families on CPU beyond add/sub/mul/div: unary math,
// comparisons, logical ops, maximum/minimum, where, clamp, masked_fill.
// Each family is ONE meta and ONE impl keyed by an op id (UnaryOp,
// PointwiseOp) instead of a pair per operator: the checks, the type
// promotion and the output's shape are the same within a family, only the
// functor at the bottom of the loop differs (pointwise_functors-inl.hpp).
//
//   unary   UnaryOp: the dtype rule is the op's (unary_kind):
//             float   int/bool input -> the default dtype (exp, sin, ...)
//             keep    the input's dtype; some dtypes refused (neg: Bool, ...)
//             bool    a Bool result (isnan, logical_not, ...)
//   binary  PointwiseOp on (Tensor|Scalar, Tensor|Scalar): the common dtype
//           is result_type of both; comparisons and logical ops give Bool.
//           (pow, remainder, fmod, atan2, floor_divide, div's rounding modes,
//           bitwise and/or/xor/shifts too)
//   where(condition, self, other), clamp(self, min?, max?), lerp, addcmul,
//   addcdiv, masked_fill(self, mask, value): their own meta/impl.
//
// meta: every check PyTorch 1.13 makes, the broadcast shape, the result
// dtype and memory format (as binary_ops.hpp). impl(..., out): out of the
// broadcast shape, any layout, any dtype the result can be cast to (checked),
// possibly self (in-place). impl(..., meta_checked): out has meta's sizes and
// dtype (a structured operator's impl). A failing call writes nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "dispatch/config.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/pointwise_ops.hpp"
#include "kernels/cpu/tensor_meta.hpp"

namespace opd::kernels {

// ------------------------------------------------------------------- unary ---

// The op's ATen name ("exp", "gelu", ...), for errors.
OPD_API const char* unary_name(UnaryOp op) noexcept;

// The op's extra arguments: softplus (beta, threshold), nan_to_num
// (nan, posinf, neginf; unset: 0, the dtype's largest and lowest finite).
struct UnaryParams {
  std::optional<double> a, b, c;
};

OPD_API TensorMeta unary_meta(UnaryOp op, const Tensor& self);
OPD_API void unary_impl(UnaryOp op, const Tensor& self, Tensor& out, const UnaryParams& params = {});
OPD_API void unary_impl(UnaryOp op, const Tensor& self, Tensor& out, const UnaryParams& params, meta_checked_t);

// ------------------------------------------------------------------ binary ---

OPD_API const char* pointwise_name(PointwiseOp op) noexcept;

// A Tensor or a Scalar argument (exactly one set).
struct TensorOrScalar {
  const Tensor* tensor = nullptr;
  const Scalar* scalar = nullptr;
  TensorOrScalar(const Tensor& t) noexcept : tensor(&t) {}  // NOLINT: implicit by design
  TensorOrScalar(const Scalar& s) noexcept : scalar(&s) {}  // NOLINT
};

OPD_API TensorMeta pointwise_meta(PointwiseOp op, TensorOrScalar self, TensorOrScalar other);
OPD_API void pointwise_impl(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, Tensor& out);
OPD_API void pointwise_impl(PointwiseOp op, TensorOrScalar self, TensorOrScalar other, Tensor& out, meta_checked_t);

// div(self, other, *, rounding_mode): None is true division (div_meta's
// rules), "trunc" and "floor" keep the common dtype. Other modes throw
// opd::ValueError.
OPD_API TensorMeta div_mode_meta(TensorOrScalar self, TensorOrScalar other, std::optional<std::string_view> mode);
OPD_API void div_mode_impl(TensorOrScalar self, TensorOrScalar other, std::optional<std::string_view> mode,
                           Tensor& out);

// ----------------------------------------------------------------- ternary ---

// lerp(self, end, weight): self + weight * (end - self), floating dtypes;
// end (and a Tensor weight) must have self's dtype.
OPD_API TensorMeta lerp_meta(const Tensor& self, const Tensor& end, const Scalar& weight);
OPD_API void lerp_impl(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor& out);
OPD_API TensorMeta lerp_tensor_meta(const Tensor& self, const Tensor& end, const Tensor& weight);
OPD_API void lerp_tensor_impl(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor& out);

// addcmul: self + value * tensor1 * tensor2; addcdiv: self + value *
// tensor1 / tensor2 (integral tensor1 and tensor2 refused, as 1.13).
OPD_API TensorMeta addcmul_meta(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value);
OPD_API void addcmul_impl(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Tensor& out);
OPD_API TensorMeta addcdiv_meta(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value);
OPD_API void addcdiv_impl(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Tensor& out);

// where.self(Tensor condition, Tensor self, Tensor other): condition Bool
// (or Byte, as 1.13 still allows), result_type(self, other).
OPD_API TensorMeta where_meta(const Tensor& condition, const Tensor& self, const Tensor& other);
OPD_API void where_impl(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor& out);

// clamp(Tensor self, Scalar? min, Scalar? max): promotion only for a
// non-floating self (1.13's manual promotion); NaN passes through.
OPD_API TensorMeta clamp_meta(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max);
OPD_API void clamp_impl(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max,
                        Tensor& out);
// clamp.Tensor(Tensor self, Tensor? min, Tensor? max): result_type of all.
OPD_API TensorMeta clamp_tensor_meta(const Tensor& self, const std::optional<Tensor>& min,
                                     const std::optional<Tensor>& max);
OPD_API void clamp_tensor_impl(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
                               Tensor& out);

// masked_fill_(self, mask, value): in place, self's dtype; mask Bool and
// broadcastable to self; a Tensor value must be 0-dim.
OPD_API Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value);
OPD_API Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value);
// masked_fill: self and mask broadcast together, a new tensor.
OPD_API Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
OPD_API Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/pointwise-inl.hpp"
#endif
