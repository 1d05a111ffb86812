#pragma once
// Out-of-line part of linalg.hpp (compiled in src/kernels/linalg.cpp): the
// checks of mm, bmm, addmm, baddbmm, dot, mv, outer, matmul and linear, and
// the one batched GEMM they all end in (batched_gemm below).
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/binary_ops.hpp"
#include "kernels/cpu/blas_threads.hpp"
#include "kernels/cpu/sgemm.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/linalg.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

namespace detail {

// How the BLAS can read a (rows x cols) matrix with these element strides:
// row-major with leading dimension ld, or transposed (column-major) with ld.
// Strides of a dimension of size 1 do not matter (ATen's rule).
struct BlasLayout {
  bool ok = false;
  bool trans = false;
  int64_t ld = 0;
};

inline BlasLayout blas_layout(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const int64_t r_rs = rows <= 1 ? std::max<int64_t>(cols, 1) : rs;
  const int64_t r_cs = cols <= 1 ? 1 : cs;
  if (r_cs == 1 && r_rs >= std::max<int64_t>(cols, 1)) return {true, false, r_rs};
  const int64_t t_rs = rows <= 1 ? 1 : rs;
  const int64_t t_cs = cols <= 1 ? std::max<int64_t>(rows, 1) : cs;
  if (t_rs == 1 && t_cs >= std::max<int64_t>(rows, 1)) return {true, true, t_cs};
  return {};
}

inline BlasLayout blas_layout_of(const Tensor& t3) {  // t3: (batch, rows, cols)
  return blas_layout(t3.size(1), t3.size(2), t3.stride(1), t3.stride(2));
}

inline bool scalar_is_zero(const Scalar& s) {
  if (s.is_boolean()) return !s.to_bool();
  if (s.is_integral(false)) return s.to_long() == 0;
  if (s.is_complex()) return s.to_complex_double() == std::complex<double>(0.0, 0.0);
  return s.to_double() == 0.0;
}

// A tensor of `dtype` with t's values, contiguous.
inline Tensor converted_contiguous(const Tensor& t, ScalarType dtype) {
  Tensor r = opd::empty(t.sizes(), dtype, Device::cpu());
  if (r.numel() > 0) copy_elements(OperandRef::of(r), OperandRef::of(t));
  return r;
}

// C (m x n, row-major, ldc) = alpha * op(A) @ op(B) + beta * C: float through
// sgemm.hpp, the others split across the library's threads (blas_threads.hpp):
// a block of rows reads A from its first row, a block of columns B from its
// first column.
template <class T>
void cblas_gemm(bool ta, bool tb, int m, int n, int k, T alpha, const T* a, int lda, const T* b, int ldb, T beta,
                T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>) {
    sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);  // oneDNN's where it is built in
    return;
  }
  const CBLAS_TRANSPOSE fa = ta ? CblasTrans : CblasNoTrans;
  const CBLAS_TRANSPOSE fb = tb ? CblasTrans : CblasNoTrans;
  split_gemm_blocks(ta, tb, m, n, k, a, lda, b, ldb, c, ldc, [&](const T* ab, const T* bb, T* cb, int bm, int bn) {
    if constexpr (std::is_same_v<T, double>) {
      cblas_dgemm(CblasRowMajor, fa, fb, bm, bn, k, alpha, ab, lda, bb, ldb, beta, cb, ldc);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {  // alpha, beta by address; std::complex's layout is the BLAS's
      cblas_cgemm(CblasRowMajor, fa, fb, bm, bn, k, &alpha, ab, lda, bb, ldb, &beta, cb, ldc);
    } else {
      cblas_zgemm(CblasRowMajor, fa, fb, bm, bn, k, &alpha, ab, lda, bb, ldb, &beta, cb, ldc);
    }
  });
}

// y = alpha * A @ x + beta * y, A (rows, cols) as blas_layout describes it;
// split across the library's threads by blocks of y.
template <class T>
void cblas_gemv(bool trans, int rows, int cols, T alpha, const T* a, int lda, const T* x, int incx, T beta, T* y) {
  // Stored transposed, A is a (cols, rows) row-major matrix read as its transpose.
  const CBLAS_TRANSPOSE fa = trans ? CblasTrans : CblasNoTrans;
  split_gemm(rows, 1, cols, [&](int64_t r0, int64_t r1, int64_t, int64_t) {
    const T* ab = a + (trans ? r0 : r0 * lda);
    const int br = static_cast<int>(r1 - r0);
    const int m = trans ? cols : br, n = trans ? br : cols;
    if constexpr (std::is_same_v<T, float>) {
      cblas_sgemv(CblasRowMajor, fa, m, n, alpha, ab, lda, x, incx, beta, y + r0, 1);
    } else if constexpr (std::is_same_v<T, double>) {
      cblas_dgemv(CblasRowMajor, fa, m, n, alpha, ab, lda, x, incx, beta, y + r0, 1);
    } else if constexpr (std::is_same_v<T, std::complex<float>>) {
      cblas_cgemv(CblasRowMajor, fa, m, n, &alpha, ab, lda, x, incx, &beta, y + r0, 1);
    } else {
      cblas_zgemv(CblasRowMajor, fa, m, n, &alpha, ab, lda, x, incx, &beta, y + r0, 1);
    }
  });
}

// out[i] = beta * out[i] + alpha * a[i] @ b[i] for every batch i, through the
// BLAS; a (B,n,m) and b (B,m,p) readable by the BLAS (blas_layout), out
// (B,n,p) contiguous; k == 0 or beta == 0 handled by the BLAS's rules
// (beta == 0: out is not read).
template <class T>
void blas_batched_gemm(const Tensor& a, const Tensor& b, T beta, T alpha, const Tensor& out) {
  const int64_t batch = out.size(0), n = out.size(1), p = out.size(2), m = a.size(2);
  const BlasLayout la = blas_layout_of(a), lb = blas_layout_of(b);
  const T* pa = a.data_ptr<T>();
  const T* pb = b.data_ptr<T>();
  T* pc = out.data_ptr<T>();
  for (int64_t i = 0; i < batch; ++i) {
    T* c = pc + i * n * p;
    if (m == 0) {  // an empty product: out = beta * out
      for (int64_t j = 0; j < n * p; ++j) c[j] = beta == T(0) ? T(0) : beta * c[j];
      continue;
    }
    if (p == 1 && b.stride(1) != 0 && b.stride(1) < INT_MAX) {
      // A matrix-vector product (mv, matmul with a vector): GEMV, several
      // times faster than a GEMM with one column. y is cleared first when
      // beta is 0: out may be uninitialised, and a BLAS's scaling by 0 need
      // not clear a NaN.
      if (beta == T(0)) std::fill(c, c + n, T(0));
      cblas_gemv<T>(la.trans, static_cast<int>(n), static_cast<int>(m), alpha, pa + i * a.stride(0),
                    static_cast<int>(la.ld), pb + i * b.stride(0), static_cast<int>(b.stride(1)), beta, c);
      continue;
    }
    cblas_gemm<T>(la.trans, lb.trans, static_cast<int>(n), static_cast<int>(p), static_cast<int>(m), alpha,
                  pa + i * a.stride(0), static_cast<int>(la.ld), pb + i * b.stride(0), static_cast<int>(lb.ld), beta,
                  c, static_cast<int>(std::max<int64_t>(p, 1)));
  }
}

// The integer product: a plain loop, in modular (unsigned 64-bit) arithmetic
// so that overflow wraps as the element type's arithmetic would.
template <class T>
void integer_batched_gemm(const Tensor& a, const Tensor& b, T beta, T alpha, const Tensor& out) {
  const int64_t batch = out.size(0), n = out.size(1), p = out.size(2), m = a.size(2);
  const T* pa = a.data_ptr<T>();
  const T* pb = b.data_ptr<T>();
  T* pc = out.data_ptr<T>();
  const int64_t as0 = a.stride(0), as1 = a.stride(1), as2 = a.stride(2);
  const int64_t bs0 = b.stride(0), bs1 = b.stride(1), bs2 = b.stride(2);
  const auto u = [](T v) { return static_cast<uint64_t>(static_cast<int64_t>(v)); };
  for (int64_t i = 0; i < batch; ++i) {
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t c = 0; c < p; ++c) {
        uint64_t acc = 0;
        for (int64_t j = 0; j < m; ++j) acc += u(pa[i * as0 + r * as1 + j * as2]) * u(pb[i * bs0 + j * bs1 + c * bs2]);
        T* dst = pc + (i * n + r) * p + c;
        const uint64_t prior = beta == T(0) ? 0 : u(beta) * u(*dst);
        *dst = static_cast<T>(prior + u(alpha) * acc);
      }
    }
  }
}

// out = beta * out + alpha * a @ b for 3-D a (B,n,m), b (B,m,p) of out's
// dtype (batch strides may be 0: broadcast), out (B,n,p) contiguous. out
// is read only when beta != 0. `name` is ATen's kernel name in errors.
OPD_FUNC void batched_gemm(const char* name, Tensor a, Tensor b, const Scalar& beta, const Scalar& alpha,
                         const Tensor& out) {
  const ScalarType dtype = out.dtype();
  if (out.numel() == 0) return;
  OPD_CHECK(a.size(1) < INT_MAX && a.size(2) < INT_MAX && b.size(2) < INT_MAX, name,
            ": matrix dimensions must be below 2^31 for the BLAS, got ", a.sizes(), " and ", b.sizes());
  const bool beta_zero = scalar_is_zero(beta);
  switch (dtype) {
    case ScalarType::Float:
    case ScalarType::Double:
      if (!blas_layout_of(a).ok) a = contiguous_clone(a);
      if (!blas_layout_of(b).ok) b = contiguous_clone(b);
      if (dtype == ScalarType::Float) {
        blas_batched_gemm<float>(a, b, beta_zero ? 0.f : checked_scalar_to<float>(beta), checked_scalar_to<float>(alpha),
                                 out);
      } else {
        blas_batched_gemm<double>(a, b, beta_zero ? 0.0 : checked_scalar_to<double>(beta),
                                  checked_scalar_to<double>(alpha), out);
      }
      return;
    case ScalarType::ComplexFloat:
    case ScalarType::ComplexDouble:  // cgemm / zgemm
      if (!blas_layout_of(a).ok) a = contiguous_clone(a);
      if (!blas_layout_of(b).ok) b = contiguous_clone(b);
      dispatch_complex_dtype(dtype, name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        blas_batched_gemm<T>(a, b, beta_zero ? T(0) : checked_scalar_to<T>(beta), checked_scalar_to<T>(alpha), out);
      });
      return;
    case ScalarType::Half:
    case ScalarType::BFloat16: {
      // Converted to float, multiplied by sgemm, rounded back once.
      const Tensor fa = converted_contiguous(a, ScalarType::Float);
      const Tensor fb = converted_contiguous(b, ScalarType::Float);
      Tensor fc = beta_zero ? opd::empty(out.sizes(), ScalarType::Float, Device::cpu())
                            : converted_contiguous(out, ScalarType::Float);
      blas_batched_gemm<float>(fa, fb, beta_zero ? 0.f : checked_scalar_to<float>(beta), checked_scalar_to<float>(alpha),
                               fc);
      copy_elements(OperandRef::of(out), OperandRef::of(fc));
      return;
    }
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long:
      dispatch_dtype(dtype, name, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          integer_batched_gemm<T>(a, b, beta_zero ? T(0) : checked_scalar_to<T>(beta), checked_scalar_to<T>(alpha),
                                  out);
        }
      });
      return;
    default: throw_not_implemented_for(name, dtype);
  }
}

inline Tensor as_batch_of_one(const Tensor& m) {  // (r,c) -> (1,r,c), a view
  const int64_t sizes[] = {1, m.size(0), m.size(1)};
  const int64_t strides[] = {0, m.stride(0), m.stride(1)};
  return m.as_strided(sizes, strides, m.storage_offset());
}

inline void check_defined_arg(const char* op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
}

inline void check_cpu_tensor(const char* op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu(), op, ": the CPU kernel got argument '", arg, "' on device ", t.device());
}

inline void check_cpu_args(const char* op, std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors) {
    OPD_CHECK(t->device().is_cpu(), op, ": the CPU kernel got a tensor on device ", t->device());
  }
}

inline void check_out(const char* op, const Tensor& out, const TensorMeta& meta) {
  OPD_CHECK(out.defined(), op, ": argument 'out' is an undefined tensor");
  OPD_CHECK(out.sizes() == IntArrayRef(meta.sizes) && out.dtype() == meta.dtype, op,
            ": impl needs an out of meta's sizes ", IntArrayRef(meta.sizes), " and dtype ", meta.dtype, ", got ",
            out.sizes(), " and ", out.dtype());
}

// The output's storage to compute into: out itself when it is contiguous and
// shares no memory with an input, else a fresh tensor copied into out later.
inline Tensor gemm_target(const Tensor& out, std::initializer_list<const Tensor*> inputs) {
  bool fresh = !out.is_contiguous();
  for (const Tensor* t : inputs) fresh = fresh || may_share_memory(out, *t);
  return fresh ? opd::empty(out.sizes(), out.dtype(), Device::cpu()) : out;
}

inline void finish_gemm_target(const Tensor& target, const Tensor& out) {
  if (!target.is_same(out) && out.numel() > 0) copy_elements(OperandRef::of(out), OperandRef::of(target));
}

// out = beta * self (broadcast to out) + alpha * a @ b, a and b 3-D; `self`
// may be out itself (in-place). self is not read when beta == 0.
inline void add_batched_product(const char* name, const Tensor& self, const Tensor& a, const Tensor& b,
                                const Scalar& beta, const Scalar& alpha, const Tensor& out) {
  const bool self_is_out = self.is_same(out);
  Tensor target = gemm_target(out, {&a, &b});
  if (target.is_same(out) && !self_is_out && may_share_memory(out, self)) {
    target = opd::empty(out.sizes(), out.dtype(), Device::cpu());
  }
  const bool self_in_target = self_is_out && target.is_same(out);
  if (!scalar_is_zero(beta) && !self_in_target && target.numel() > 0) {
    copy_elements(OperandRef::of(target), OperandRef::of(self));
  }
  batched_gemm(name, a, b, beta, alpha, target.dim() == 2 ? as_batch_of_one(target) : target);
  finish_gemm_target(target, out);
}

[[gnu::cold, gnu::noinline]] inline void throw_expand_error(IntArrayRef target, IntArrayRef sizes) {
  // at::expand's message, for self of addmm / baddbmm.
  const int64_t nd = static_cast<int64_t>(target.size()), ns = static_cast<int64_t>(sizes.size());
  for (int64_t i = nd - 1, j = ns - 1; j >= 0; --i, --j) {
    if (i < 0) break;
    if (sizes[j] != 1 && sizes[j] != target[i]) {
      throw Error(opd::detail::str_cat("The expanded size of the tensor (", target[i],
                                       ") must match the existing size (", sizes[j], ") at non-singleton dimension ",
                                       i, ".  Target sizes: ", target, ".  Tensor sizes: ", sizes));
    }
  }
  throw Error(opd::detail::str_cat("expand: the number of sizes provided (", nd,
                                   ") must be greater or equal to the number of dimensions in the tensor (", ns, ")"));
}

inline void check_expandable(const Tensor& self, IntArrayRef target) {
  if (!is_expandable_to(self.sizes(), target)) throw_expand_error(target, self.sizes());
}

inline Tensor transpose_last2(const Tensor& t) {  // t(): swaps the last two dimensions (a view)
  std::vector<int64_t> sizes = t.sizes().vec(), strides = t.strides().vec();
  const std::size_t d = sizes.size();
  if (d >= 2) {
    std::swap(sizes[d - 1], sizes[d - 2]);
    std::swap(strides[d - 1], strides[d - 2]);
  }
  return t.as_strided(sizes, strides, t.storage_offset());
}

inline Tensor view_as(const Tensor& t, std::vector<int64_t> sizes, std::vector<int64_t> strides) {
  return t.as_strided(sizes, strides, t.storage_offset());
}

// t reshaped to `sizes`: a view when t is contiguous, else a contiguous copy's view.
inline Tensor reshaped(const Tensor& t, const std::vector<int64_t>& sizes) {
  const Tensor c = t.is_contiguous() ? t : contiguous_clone(t);
  std::vector<int64_t> strides(sizes.size());
  int64_t s = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= std::max<int64_t>(sizes[i], 1);
  }
  return c.as_strided(sizes, strides, c.storage_offset());
}

}  // namespace detail

// ---------------------------------------------------------------------- mm ---

OPD_FUNC TensorMeta mm_meta(const Tensor& self, const Tensor& mat2) {
  detail::check_defined_arg("mm", self, "self");
  detail::check_defined_arg("mm", mat2, "mat2");
  OPD_CHECK(self.dim() == 2, "self must be a matrix");
  OPD_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  OPD_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", self.size(0), "x",
            self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  OPD_CHECK(self.dtype() == mat2.dtype(), "expected scalar type ", self.dtype(), " but found ", mat2.dtype());
  return make_tensor_meta({self.size(0), mat2.size(1)}, self.dtype());
}

OPD_FUNC void mm_impl(const Tensor& self, const Tensor& mat2, Tensor& out) {
  detail::check_out("mm", out, mm_meta(self, mat2));
  detail::check_cpu_args("mm", {&self, &mat2, &out});
  const Tensor target = detail::gemm_target(out, {&self, &mat2});
  detail::batched_gemm("addmm_impl_cpu_", detail::as_batch_of_one(self), detail::as_batch_of_one(mat2), Scalar(0),
                       Scalar(1), detail::as_batch_of_one(target));
  detail::finish_gemm_target(target, out);
}

// --------------------------------------------------------------------- bmm ---

namespace detail {
inline void check_bmm_args(const char* op, const Tensor& b1, const Tensor& b2) {
  check_defined_arg(op, b1, "batch1");
  check_defined_arg(op, b2, "batch2");
  OPD_CHECK(b1.dim() == 3, "batch1 must be a 3D tensor");
  OPD_CHECK(b2.dim() == 3, "batch2 must be a 3D tensor");
  OPD_CHECK(b2.size(0) == b1.size(0) && b2.size(1) == b1.size(2),
            "Expected size for first two dimensions of batch2 tensor to be: [", b1.size(0), ", ", b1.size(2),
            "] but got: [", b2.size(0), ", ", b2.size(1), "].");
}
}  // namespace detail

OPD_FUNC TensorMeta bmm_meta(const Tensor& self, const Tensor& mat2) {
  detail::check_bmm_args("bmm", self, mat2);
  OPD_CHECK(self.dtype() == mat2.dtype(), "expected scalar type ", self.dtype(), " but found ", mat2.dtype());
  return make_tensor_meta({self.size(0), self.size(1), mat2.size(2)}, self.dtype());
}

OPD_FUNC void bmm_impl(const Tensor& self, const Tensor& mat2, Tensor& out) {
  detail::check_out("bmm", out, bmm_meta(self, mat2));
  detail::check_cpu_args("bmm", {&self, &mat2, &out});
  const Tensor target = detail::gemm_target(out, {&self, &mat2});
  detail::batched_gemm("bmm", self, mat2, Scalar(0), Scalar(1), target);
  detail::finish_gemm_target(target, out);
}

// ------------------------------------------------------------------- addmm ---

OPD_FUNC TensorMeta addmm_meta(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                               const Scalar& alpha) {
  (void)beta;
  (void)alpha;
  detail::check_defined_arg("addmm", self, "self");
  detail::check_defined_arg("addmm", mat1, "mat1");
  detail::check_defined_arg("addmm", mat2, "mat2");
  OPD_CHECK(mat1.dim() == 2, "mat1 must be a matrix, got ", mat1.dim(), "-D tensor");
  OPD_CHECK(mat2.dim() == 2, "mat2 must be a matrix, got ", mat2.dim(), "-D tensor");
  OPD_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (", mat1.size(0), "x",
            mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  const int64_t sizes[] = {mat1.size(0), mat2.size(1)};
  detail::check_expandable(self, sizes);
  OPD_CHECK(self.dtype() == mat2.dtype(), "self and mat2 must have the same dtype");
  OPD_CHECK(mat1.dtype() == mat2.dtype(), "expected scalar type ", mat1.dtype(), " but found ", mat2.dtype());
  return make_tensor_meta({mat1.size(0), mat2.size(1)}, mat1.dtype());
}

OPD_FUNC void addmm_impl(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                         const Scalar& alpha, Tensor& out) {
  detail::check_out("addmm", out, addmm_meta(self, mat1, mat2, beta, alpha));
  detail::check_cpu_args("addmm", {&self, &mat1, &mat2, &out});
  detail::add_batched_product("addmm_impl_cpu_", self, detail::as_batch_of_one(mat1), detail::as_batch_of_one(mat2),
                              beta, alpha, out);
}

// ----------------------------------------------------------------- baddbmm ---

OPD_FUNC TensorMeta baddbmm_meta(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                                 const Scalar& alpha) {
  (void)beta;
  (void)alpha;
  detail::check_defined_arg("baddbmm", self, "self");
  detail::check_bmm_args("baddbmm", batch1, batch2);
  const int64_t sizes[] = {batch1.size(0), batch1.size(1), batch2.size(2)};
  detail::check_expandable(self, sizes);
  OPD_CHECK(self.dtype() == batch2.dtype(), "self and batch2 must have the same dtype");
  OPD_CHECK(batch1.dtype() == batch2.dtype(), "expected scalar type ", batch1.dtype(), " but found ",
            batch2.dtype());
  return make_tensor_meta({batch1.size(0), batch1.size(1), batch2.size(2)}, batch1.dtype());
}

OPD_FUNC void baddbmm_impl(const Tensor& self, const Tensor& batch1, const Tensor& batch2, const Scalar& beta,
                           const Scalar& alpha, Tensor& out) {
  detail::check_out("baddbmm", out, baddbmm_meta(self, batch1, batch2, beta, alpha));
  detail::check_cpu_args("baddbmm", {&self, &batch1, &batch2, &out});
  detail::add_batched_product("baddbmm", self, batch1, batch2, beta, alpha, out);
}

// --------------------------------------------------------- dot, mv, outer ---

OPD_FUNC TensorMeta dot_meta(const Tensor& self, const Tensor& tensor) {
  detail::check_defined_arg("dot", self, "self");
  detail::check_defined_arg("dot", tensor, "tensor");
  OPD_CHECK(self.dim() == 1 && tensor.dim() == 1, "1D tensors expected, but got ", self.dim(), "D and ",
            tensor.dim(), "D tensors");
  OPD_CHECK(self.dtype() == tensor.dtype(), "dot : expected both vectors to have same dtype, but found ",
            self.dtype(), " and ", tensor.dtype());
  OPD_CHECK(self.numel() == tensor.numel(), "inconsistent tensor size, expected tensor [", self.numel(),
            "] and src [", tensor.numel(), "] to have the same number of elements, but got ", self.numel(), " and ",
            tensor.numel(), " elements respectively");
  if (self.dtype() == ScalarType::Bool) throw_not_implemented_for("dot", self.dtype());
  return make_tensor_meta({}, self.dtype());
}

OPD_FUNC Tensor dot(const Tensor& self, const Tensor& tensor) {
  const TensorMeta meta = dot_meta(self, tensor);
  detail::check_cpu_tensor("dot", self, "self");
  detail::check_cpu_tensor("dot", tensor, "tensor");
  Tensor out = empty_from_meta(meta);
  const int64_t n = self.numel();
  const ScalarType dtype = self.dtype();
  if (dtype == ScalarType::Float || dtype == ScalarType::Double) {
    const Tensor a = self.stride(0) > 0 || n <= 1 ? self : contiguous_clone(self);
    const Tensor b = tensor.stride(0) > 0 || n <= 1 ? tensor : contiguous_clone(tensor);
    OPD_CHECK(n < INT_MAX, "dot: vectors must have fewer than 2^31 elements for the BLAS, got ", n);
    const int ia = static_cast<int>(std::max<int64_t>(a.stride(0), 1)), ib = static_cast<int>(std::max<int64_t>(b.stride(0), 1));
    if (dtype == ScalarType::Float) {
      *out.data_ptr<float>() = cblas_sdot(static_cast<int>(n), a.data_ptr<float>(), ia, b.data_ptr<float>(), ib);
    } else {
      *out.data_ptr<double>() = cblas_ddot(static_cast<int>(n), a.data_ptr<double>(), ia, b.data_ptr<double>(), ib);
    }
    return out;
  }
  // Integers (wrapping) and Half/BFloat16 (accumulated in float): the
  // product of a (1,n) and an (n,1) matrix.
  const int64_t s1[] = {1, 1, n}, st1[] = {0, 0, self.stride(0)};
  const int64_t s2[] = {1, n, 1}, st2[] = {0, tensor.stride(0), 0};
  const int64_t so[] = {1, 1, 1}, sto[] = {1, 1, 1};
  detail::batched_gemm("dot", self.as_strided(s1, st1, self.storage_offset()),
                       tensor.as_strided(s2, st2, tensor.storage_offset()), Scalar(0), Scalar(1),
                       out.as_strided(so, sto, 0));
  return out;
}

OPD_FUNC TensorMeta mv_meta(const Tensor& self, const Tensor& vec) {
  detail::check_defined_arg("mv", self, "self");
  detail::check_defined_arg("mv", vec, "vec");
  OPD_CHECK(self.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got 1, ", self.dim(), ", ",
            vec.dim());
  OPD_CHECK(self.size(1) == vec.size(0), "size mismatch, got ", self.size(0), ", ", self.size(0), "x", self.size(1),
            ",", vec.size(0));
  OPD_CHECK(self.dtype() == vec.dtype(), "expected scalar type ", self.dtype(), " but found ", vec.dtype());
  return make_tensor_meta({self.size(0)}, self.dtype());
}

namespace detail {
// mv of float or double as one GEMV on the operands as they are, without the
// three views batched_gemm takes (for a small matrix they cost more than the
// product); false when the layout needs batched_gemm's general path.
template <class T>
bool direct_gemv(const Tensor& self, const Tensor& vec, const Tensor& out) {
  const int64_t n = self.size(0), m = self.size(1), inc = vec.stride(0);
  const BlasLayout la = blas_layout(n, m, self.stride(0), self.stride(1));
  if (!la.ok || n == 0 || m == 0 || inc <= 0 || inc >= INT_MAX || n >= INT_MAX || m >= INT_MAX || la.ld >= INT_MAX)
    return false;
  T* y = out.data_ptr<T>();
  std::fill(y, y + n, T(0));  // out is fresh memory, and a BLAS's beta = 0 need not clear a NaN
  cblas_gemv<T>(la.trans, static_cast<int>(n), static_cast<int>(m), T(1), self.data_ptr<T>(), static_cast<int>(la.ld),
                vec.data_ptr<T>(), static_cast<int>(inc), T(0), y);
  return true;
}
}  // namespace detail

OPD_FUNC Tensor mv(const Tensor& self, const Tensor& vec) {
  Tensor out = empty_from_meta(mv_meta(self, vec));
  detail::check_cpu_tensor("mv", self, "self");
  detail::check_cpu_tensor("mv", vec, "vec");
  if (self.dtype() == ScalarType::Float && detail::direct_gemv<float>(self, vec, out)) return out;
  if (self.dtype() == ScalarType::Double && detail::direct_gemv<double>(self, vec, out)) return out;
  const int64_t sv[] = {1, vec.size(0), 1}, stv[] = {0, vec.stride(0), 1};
  const int64_t so[] = {1, self.size(0), 1}, sto[] = {0, 1, 1};
  detail::batched_gemm("addmv_impl_cpu", detail::as_batch_of_one(self), vec.as_strided(sv, stv, vec.storage_offset()),
                       Scalar(0), Scalar(1), out.as_strided(so, sto, 0));
  return out;
}

namespace detail {
// ATen's outer is self.reshape({n, 1}) * vec2: an elementwise product with type promotion.
inline Tensor outer_column(const Tensor& self, const Tensor& vec2) {
  check_defined_arg("outer", self, "self");
  check_defined_arg("outer", vec2, "vec2");
  OPD_CHECK(self.dim() == 1, "outer: Expected 1-D argument self, but got ", self.dim(), "-D");
  OPD_CHECK(vec2.dim() == 1, "outer: Expected 1-D argument vec2, but got ", vec2.dim(), "-D");
  return view_as(self, {self.size(0), 1}, {self.stride(0), 1});
}
// A Meta stand-in of the given sizes and dtype, for the metas of composites
// (matmul's reshapes would copy a CPU tensor; shapes are all meta needs).
inline Tensor meta_proxy(IntArrayRef sizes, ScalarType dtype) { return opd::empty(sizes, dtype, Device::meta()); }
}  // namespace detail

OPD_FUNC TensorMeta outer_meta(const Tensor& self, const Tensor& vec2) {
  return mul_meta(detail::outer_column(self, vec2), vec2);
}

OPD_FUNC Tensor outer(const Tensor& self, const Tensor& vec2) {
  const Tensor column = detail::outer_column(self, vec2);
  detail::check_cpu_tensor("outer", self, "self");
  detail::check_cpu_tensor("outer", vec2, "vec2");
  Tensor out = empty_from_meta(mul_meta(column, vec2));
  mul_impl(column, vec2, out);
  return out;
}

// ------------------------------------------------------------------ matmul ---

// The sizes of matmul's cases, checked by the same metas (mm, bmm, dot, mv)
// in the order the kernel below calls them.
OPD_FUNC TensorMeta matmul_meta(const Tensor& self, const Tensor& other) {
  detail::check_defined_arg("matmul", self, "self");
  detail::check_defined_arg("matmul", other, "other");
  const int64_t d1 = self.dim(), d2 = other.dim();
  OPD_CHECK(d1 != 0 && d2 != 0, "both arguments to matmul need to be at least 1D, but they are ", d1, "D and ", d2,
            "D");
  using detail::meta_proxy;
  if (d1 == 1 && d2 == 1) return dot_meta(self, other);
  if (d1 == 2 && d2 == 1) return mv_meta(self, other);
  if (d1 == 1 && d2 == 2) {
    TensorMeta m = mm_meta(meta_proxy({1, self.size(0)}, self.dtype()), other);
    m.sizes = {m.sizes[1]};
    return m;
  }
  if (d1 == 2 && d2 == 2) return mm_meta(self, other);
  if (d1 >= 3 && (d2 == 1 || d2 == 2)) {
    std::vector<int64_t> out_sizes = self.sizes().vec();
    const int64_t k = self.size(d1 - 1);
    int64_t rows = 1;
    for (int64_t i = 0; i + 1 < d1; ++i) rows *= self.size(i);
    const Tensor rhs = d2 == 1 ? meta_proxy({other.size(0), 1}, other.dtype()) : other;
    TensorMeta m = mm_meta(meta_proxy({rows, k}, self.dtype()), rhs);
    if (d2 == 1) {
      out_sizes.pop_back();
    } else {
      out_sizes.back() = other.size(1);
    }
    m.sizes = std::move(out_sizes);
    return m;
  }
  const std::vector<int64_t> sa = d1 == 1 ? std::vector<int64_t>{1, self.size(0)} : self.sizes().vec();
  const std::vector<int64_t> sb = d2 == 1 ? std::vector<int64_t>{other.size(0), 1} : other.sizes().vec();
  const int64_t n = sa[sa.size() - 2], m1 = sa.back(), m2 = sb[sb.size() - 2], p = sb.back();
  const IntArrayRef shapes[] = {IntArrayRef(sa).slice(0, sa.size() - 2), IntArrayRef(sb).slice(0, sb.size() - 2)};
  const std::vector<int64_t> batch = broadcast_shapes(std::span<const IntArrayRef>(shapes));
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  OPD_CHECK(m1 == m2, "Expected size for first two dimensions of batch2 tensor to be: [", nb, ", ", m1,
            "] but got: [", nb, ", ", m2, "].");
  TensorMeta m = bmm_meta(meta_proxy({nb, n, m1}, self.dtype()), meta_proxy({nb, m2, p}, other.dtype()));
  std::vector<int64_t> out_sizes = batch;
  if (d1 > 1) out_sizes.push_back(n);
  if (d2 > 1) out_sizes.push_back(p);
  m.sizes = std::move(out_sizes);
  return m;
}

OPD_FUNC Tensor matmul(const Tensor& self, const Tensor& other) {
  (void)matmul_meta(self, other);  // every check first, as on Meta
  detail::check_cpu_tensor("matmul", self, "self");
  detail::check_cpu_tensor("matmul", other, "other");
  const int64_t d1 = self.dim(), d2 = other.dim();
  OPD_CHECK(d1 != 0 && d2 != 0, "both arguments to matmul need to be at least 1D, but they are ", d1, "D and ", d2,
            "D");
  const auto mm_of = [](const Tensor& a, const Tensor& b) {
    Tensor out = empty_from_meta(mm_meta(a, b));
    mm_impl(a, b, out);
    return out;
  };
  if (d1 == 1 && d2 == 1) return dot(self, other);
  if (d1 == 2 && d2 == 1) return mv(self, other);
  if (d1 == 1 && d2 == 2) {
    const Tensor row = detail::view_as(self, {1, self.size(0)}, {1, self.stride(0)});
    const Tensor r = mm_of(row, other);
    return detail::view_as(r, {r.size(1)}, {r.stride(1)});
  }
  if (d1 == 2 && d2 == 2) return mm_of(self, other);
  if (d1 >= 3 && (d2 == 1 || d2 == 2)) {
    // Fold self's batch dimensions into its rows: one mm.
    std::vector<int64_t> out_sizes = self.sizes().vec();
    const int64_t k = self.size(d1 - 1);
    int64_t rows = 1;
    for (int64_t i = 0; i + 1 < d1; ++i) rows *= self.size(i);
    const Tensor folded = detail::reshaped(self, {rows, k});
    const Tensor rhs = d2 == 1 ? detail::view_as(other, {other.size(0), 1}, {other.stride(0), 1}) : other;
    const Tensor r = mm_of(folded, rhs);
    if (d2 == 1) {
      out_sizes.pop_back();
    } else {
      out_sizes.back() = other.size(1);
    }
    return detail::reshaped(r, out_sizes);
  }
  // Batched, with the batch dimensions broadcast (self's and other's
  // dimensions before the last two; a 1-D operand becomes a matrix first).
  const Tensor a = d1 == 1 ? detail::view_as(self, {1, self.size(0)}, {1, self.stride(0)}) : self;
  const Tensor b = d2 == 1 ? detail::view_as(other, {other.size(0), 1}, {other.stride(0), 1}) : other;
  const int64_t n = a.size(a.dim() - 2), m1 = a.size(a.dim() - 1);
  const int64_t m2 = b.size(b.dim() - 2), p = b.size(b.dim() - 1);
  const IntArrayRef batch_a = a.sizes().slice(0, static_cast<std::size_t>(a.dim() - 2));
  const IntArrayRef batch_b = b.sizes().slice(0, static_cast<std::size_t>(b.dim() - 2));
  const IntArrayRef shapes[] = {batch_a, batch_b};
  const std::vector<int64_t> batch = broadcast_shapes(std::span<const IntArrayRef>(shapes));
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  const auto expanded3 = [&](const Tensor& t, int64_t r, int64_t c) {
    std::vector<int64_t> sizes = batch;
    sizes.push_back(r);
    sizes.push_back(c);
    // expand t to batch + (r, c): stride 0 on broadcast dimensions.
    std::vector<int64_t> strides(sizes.size(), 0);
    const int64_t td = t.dim(), sd = static_cast<int64_t>(sizes.size());
    for (int64_t i = 0; i < td; ++i) {
      const int64_t j = sd - td + i;
      strides[static_cast<std::size_t>(j)] = t.size(i) == 1 && sizes[static_cast<std::size_t>(j)] != 1 ? 0 : t.stride(i);
    }
    const Tensor e = t.as_strided(sizes, strides, t.storage_offset());
    // (batch..., r, c) -> (nb, r, c): a view when the batch dimensions
    // collapse to one stride, else a contiguous copy.
    bool collapses = true;
    int64_t bstride = 0, expect = -1;
    for (std::size_t i = sizes.size() - 2; i-- > 0;) {
      if (sizes[i] == 1) continue;
      if (expect != -1 && strides[i] != expect) {
        collapses = false;
        break;
      }
      if (expect == -1) bstride = strides[i];
      expect = strides[i] * sizes[i];
    }
    const int64_t s3[] = {nb, r, c};
    if (collapses) {
      const int64_t st3[] = {bstride, strides[sizes.size() - 2], strides[sizes.size() - 1]};
      return t.as_strided(s3, st3, t.storage_offset());
    }
    const Tensor c2 = contiguous_clone(e);
    const int64_t st3[] = {r * c, c, 1};
    return c2.as_strided(s3, st3, c2.storage_offset());
  };
  OPD_CHECK(m1 == m2, "Expected size for first two dimensions of batch2 tensor to be: [", nb, ", ", m1,
            "] but got: [", nb, ", ", m2, "].");
  const Tensor a3 = expanded3(a, n, m1);
  const Tensor b3 = expanded3(b, m2, p);
  Tensor out3 = empty_from_meta(bmm_meta(a3, b3));
  bmm_impl(a3, b3, out3);
  std::vector<int64_t> out_sizes = batch;
  if (d1 > 1) out_sizes.push_back(n);
  if (d2 > 1) out_sizes.push_back(p);
  return detail::reshaped(out3, out_sizes);
}

// ------------------------------------------------------------------ linear ---

OPD_FUNC TensorMeta linear_meta(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  detail::check_defined_arg("linear", input, "input");
  detail::check_defined_arg("linear", weight, "weight");
  OPD_CHECK(weight.dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self is ", weight.dim(), "D");
  const Tensor wt = detail::transpose_last2(weight);
  const bool has_bias = bias.has_value() && bias->defined();
  if (input.dim() == 2 && has_bias) return addmm_meta(*bias, input, wt, Scalar(1), Scalar(1));
  TensorMeta m = matmul_meta(input, wt);
  if (has_bias) {  // output.add_(bias): the bias broadcasts to the output, its dtype casts to it
    const Tensor out = detail::meta_proxy(IntArrayRef(m.sizes), m.dtype);
    const TensorMeta sum = add_meta(out, *bias, Scalar(1));
    OPD_CHECK(out.sizes() == IntArrayRef(sum.sizes), "output with shape ", out.sizes(),
              " doesn't match the broadcast shape ", IntArrayRef(sum.sizes));
    check_can_cast_to_output(sum.dtype, m.dtype);
  }
  return m;
}

OPD_FUNC Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  (void)linear_meta(input, weight, bias);  // every check first, as on Meta
  detail::check_cpu_tensor("linear", input, "input");
  detail::check_cpu_tensor("linear", weight, "weight");
  const Tensor wt = detail::transpose_last2(weight);
  const bool has_bias = bias.has_value() && bias->defined();
  if (input.dim() == 2 && has_bias) {
    Tensor out = empty_from_meta(addmm_meta(*bias, input, wt, Scalar(1), Scalar(1)));
    addmm_impl(*bias, input, wt, Scalar(1), Scalar(1), out);
    return out;
  }
  Tensor out = matmul(input, wt);
  // output.add_(bias): add_impl checks that the bias broadcasts to the output.
  if (has_bias) add_impl(out, *bias, Scalar(1), out);
  return out;
}

}  // namespace opd::kernels
