// Matrix products on CPU, through the BLAS (OpenBLAS's CBLAS) for float and
// double; Half and BFloat16 are converted to float, multiplied with sgemm
// and rounded back; integer dtypes use a plain loop (ATen computes them on
// CPU too); Bool is refused as ATen refuses it.
//
//   mm(Tensor self, Tensor mat2)                                   (n,m) @ (m,p)
//   bmm(Tensor self, Tensor mat2)                                  (b,n,m) @ (b,m,p)
//   addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1)
//                                                                  beta*self + alpha*(mat1 @ mat2), self broadcast
//   baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1)
//   dot, mv, outer, matmul (ATen's 1-D/2-D/batched rules with batch
//   broadcasting), linear (input @ weight^T + bias)
//
// The structured four have a meta (checks, output sizes and dtype) and an
// impl (the math into a given out of meta's sizes and dtype, any strides;
// impl checks that). beta == 0 ignores self (NaN and inf in it do not
// propagate), as the BLAS and ATen do. Non-contiguous operands whose
// strides the BLAS can express (a transposed matrix, a row stride larger
// than the row) are passed with the transpose flags and leading dimension;
// any other layout is copied to a contiguous one first. Errors carry ATen's
// messages ("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)").
#pragma once

#include <optional>

#include "dispatch/config.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/tensor_meta.hpp"

namespace opd::kernels {

OPD_API TensorMeta mm_meta(const Tensor& self, const Tensor& mat2);
OPD_API void mm_impl(const Tensor& self, const Tensor& mat2, Tensor& out);

OPD_API TensorMeta bmm_meta(const Tensor& self, const Tensor& mat2);
OPD_API void bmm_impl(const Tensor& self, const Tensor& mat2, Tensor& out);

OPD_API TensorMeta addmm_meta(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                              const Scalar& alpha);
OPD_API void addmm_impl(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                        const Scalar& alpha, Tensor& out);

OPD_API TensorMeta baddbmm_meta(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                                const Scalar& alpha);
OPD_API void baddbmm_impl(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                          const Scalar& alpha, Tensor& out);

// Functional forms (ATen's CPU kernels for these are not structured).
// Each has a meta (every check, the result's sizes and dtype, nothing read)
// that the functional form calls first and the Meta kernel calls alone, so
// both devices raise the same errors.
OPD_API TensorMeta dot_meta(const Tensor& self, const Tensor& tensor);
OPD_API TensorMeta mv_meta(const Tensor& self, const Tensor& vec);
OPD_API TensorMeta outer_meta(const Tensor& self, const Tensor& vec2);
OPD_API TensorMeta matmul_meta(const Tensor& self, const Tensor& other);
OPD_API TensorMeta linear_meta(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias);
OPD_API Tensor dot(const Tensor& self, const Tensor& tensor);
OPD_API Tensor mv(const Tensor& self, const Tensor& vec);
OPD_API Tensor outer(const Tensor& self, const Tensor& vec2);
OPD_API Tensor matmul(const Tensor& self, const Tensor& other);
OPD_API Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias);

namespace detail {
// The one GEMM of the kernels: out[i] = beta * out[i] + alpha * a[i] @ b[i]
// for 3-D a (B,n,m), b (B,m,p) and out (B,n,p) of one dtype; a and b any
// strides (a batch stride of 0 broadcasts), out contiguous, read only when
// beta != 0. BLAS for float/double/complex64/complex128, sgemm for Half/BFloat16, a loop for
// integers; other dtypes throw "\"<name>\" not implemented for '<dtype>'".
OPD_API void batched_gemm(const char* name, Tensor a, Tensor b, const Scalar& beta, const Scalar& alpha,
                          const Tensor& out);
}  // namespace detail

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/linalg-inl.hpp"
#endif
