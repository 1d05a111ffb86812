// add, sub, mul, div (true division) on CPU: each a `meta` (output sizes and
// dtype, all argument checks) and an `impl` (the math, into a given `out`),
// for the Tensor-Tensor and the Tensor-Scalar overloads.
//
//   add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1)  self + alpha * other
//   sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1)  self - alpha * other
//   mul.Tensor(Tensor self, Tensor other)
//   div.Tensor(Tensor self, Tensor other)                     true division
//   add.Scalar(Tensor self, Scalar other, Scalar alpha=1), sub.Scalar(...),
//   mul.Scalar(Tensor self, Scalar other), div.Scalar(Tensor self, Scalar other)
//
// Semantics are PyTorch 1.13's (TensorIterator + the CPU kernels): shapes
// broadcast, the common dtype is result_type (Scalars by category), div
// promotes an integral/Bool common dtype to Float, integers wrap, floats
// follow IEEE (x / 0 -> inf, 0 / 0 -> nan). Errors carry PyTorch's messages.
//
// impl(..., out): `out` has the broadcast shape (checked: "output with shape
// [3] doesn't match the broadcast shape [2, 3]"), any layout, and any dtype
// the common dtype can be cast to (checked: "result type Float can't be
// cast to the desired output type Long"); out may be one of the inputs
// (in-place). Results are computed in the common dtype and converted.
// impl(..., k::meta_checked) is the same for an out that already has meta's
// sizes and dtype (a structured operator's impl): no argument checks but
// the overlap ones (tensor_meta.hpp).
#pragma once

#include "dispatch/config.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/tensor_meta.hpp"

namespace opd::kernels {

// ------------------------------------------------------------- Tensor, Tensor ---

OPD_API TensorMeta add_meta(const Tensor& self, const Tensor& other, const Scalar& alpha);
OPD_API void add_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);
OPD_API void add_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out, meta_checked_t);

OPD_API TensorMeta sub_meta(const Tensor& self, const Tensor& other, const Scalar& alpha);
OPD_API void sub_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out);
OPD_API void sub_impl(const Tensor& self, const Tensor& other, const Scalar& alpha, Tensor& out, meta_checked_t);

OPD_API TensorMeta mul_meta(const Tensor& self, const Tensor& other);
OPD_API void mul_impl(const Tensor& self, const Tensor& other, Tensor& out);
OPD_API void mul_impl(const Tensor& self, const Tensor& other, Tensor& out, meta_checked_t);

OPD_API TensorMeta div_meta(const Tensor& self, const Tensor& other);
OPD_API void div_impl(const Tensor& self, const Tensor& other, Tensor& out);
OPD_API void div_impl(const Tensor& self, const Tensor& other, Tensor& out, meta_checked_t);

// ------------------------------------------------------------- Tensor, Scalar ---

OPD_API TensorMeta add_scalar_meta(const Tensor& self, const Scalar& other, const Scalar& alpha);
OPD_API void add_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out);
OPD_API void add_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out, meta_checked_t);

OPD_API TensorMeta sub_scalar_meta(const Tensor& self, const Scalar& other, const Scalar& alpha);
OPD_API void sub_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out);
OPD_API void sub_scalar_impl(const Tensor& self, const Scalar& other, const Scalar& alpha, Tensor& out, meta_checked_t);

OPD_API TensorMeta mul_scalar_meta(const Tensor& self, const Scalar& other);
OPD_API void mul_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out);
OPD_API void mul_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out, meta_checked_t);

OPD_API TensorMeta div_scalar_meta(const Tensor& self, const Scalar& other);
OPD_API void div_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out);
OPD_API void div_scalar_impl(const Tensor& self, const Scalar& other, Tensor& out, meta_checked_t);

// at::native::alpha_check, on the op's common dtype.
OPD_API void alpha_check(ScalarType dtype, const Scalar& alpha);

// at::native::sub_check, on the dtypes of self and other (a bool Scalar
// counts as Bool).
OPD_API void sub_check(ScalarType self, ScalarType other);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/binary_ops-inl.hpp"
#endif
