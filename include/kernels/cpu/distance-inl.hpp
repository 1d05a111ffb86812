#pragma once
// Out-of-line part of distance.hpp (compiled in src/kernels/distance.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "dispatch/core/error.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/distance.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/linalg.hpp"
#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/reduce_simd.hpp"
#include "kernels/cpu/unary_simd.hpp"

namespace opd::kernels {

namespace distance_detail {

inline void check_device(const char* op, const Tensor& t, const char* arg) {
  OPD_CHECK(t.defined(), op, ": argument '", arg, "' is an undefined tensor");
  OPD_CHECK(t.device().is_cpu() || t.device().is_meta(), op, ": the CPU kernel got argument '", arg, "' on device ",
            t.device());
}

// ATen's per-p distances (DistanceOpsKernel.cpp): map each |a - b|, reduce
// with red, finish the aggregate.
enum class Norm { Zero, One, Two, Inf, P };
inline Norm norm_of(double p) {
  if (p == 0) return Norm::Zero;
  if (p == 1) return Norm::One;
  if (p == 2) return Norm::Two;
  if (std::isinf(p)) return Norm::Inf;
  return Norm::P;
}

// The distance of rows a and b of m elements in T: the sums in kLanes
// partial sums (in this order on every run), so that they vectorize rather
// than form one chain of adds (ATen sums in its vector lanes too).
template <Norm N, class T>
[[gnu::always_inline]] inline T distance_of(T p, const T* a, const T* b, int64_t m) {
  constexpr int64_t kLanes = 16;
  const auto term = [&](T d) {  // (p is read by Norm::P only)
    if constexpr (N == Norm::Zero) return d == T(0) ? T(0) : T(1);  // ATen: min(ceil(d), 1)
    else if constexpr (N == Norm::One) return d;
    else if constexpr (N == Norm::Two) return d * d;
    else return std::pow(d, p);
  };
  T agg = 0;
  if constexpr (N == Norm::Inf) {
    for (int64_t k = 0; k < m; ++k) {
      const T d = std::abs(a[k] - b[k]);
      agg = std::isnan(d) || d > agg ? d : agg;  // ATen's max propagates NaN
    }
    return agg;
  } else {
    T lanes[kLanes] = {};
    int64_t k = 0;
    for (; k + kLanes <= m; k += kLanes)
      for (int64_t l = 0; l < kLanes; ++l) lanes[l] += term(std::abs(a[k + l] - b[k + l]));
    for (int64_t l = 0; l < kLanes; ++l) agg += lanes[l];
    for (; k < m; ++k) agg += term(std::abs(a[k] - b[k]));
    if constexpr (N == Norm::Two) return std::sqrt(agg);
    else if constexpr (N == Norm::P) return std::pow(agg, T(1) / p);
    else return agg;
  }
}
template <class T>
[[gnu::always_inline]] inline T distance(Norm n, T p, const T* a, const T* b, int64_t m) {
  switch (n) {
    case Norm::Zero: return distance_of<Norm::Zero>(p, a, b, m);
    case Norm::One: return distance_of<Norm::One>(p, a, b, m);
    case Norm::Two: return distance_of<Norm::Two>(p, a, b, m);
    case Norm::Inf: return distance_of<Norm::Inf>(p, a, b, m);
    case Norm::P: break;
  }
  return distance_of<Norm::P>(p, a, b, m);
}

// Rows [begin, end) of pdist: the pairs (i, j > i), which start at
// i * rows - i * (i + 1) / 2; compiled twice, the AVX2 clone picked at run
// time (without FMA: the same bits).
template <class T>
[[gnu::always_inline]] inline void pdist_rows_body(Norm n, T p, const T* x, int64_t rows, int64_t m, T* o,
                                                   int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    T* dst = o + i * rows - i * (i + 1) / 2;
    for (int64_t j = i + 1; j < rows; ++j) *dst++ = distance<T>(n, p, x + i * m, x + j * m, m);
  }
}
#if OPD_KERNEL_AVX2_ROWS
template <class T>
[[gnu::target("avx2"), gnu::noinline]] void pdist_rows_avx2(Norm n, T p, const T* x, int64_t rows, int64_t m, T* o,
                                                           int64_t begin, int64_t end) {
  pdist_rows_body(n, p, x, rows, m, o, begin, end);
}
#endif
template <class T>
void pdist_rows(Norm n, T p, const T* x, int64_t rows, int64_t m, T* o, int64_t begin, int64_t end) {
#if OPD_KERNEL_AVX2_ROWS
  if (detail::cpu_has_avx2()) return pdist_rows_avx2(n, p, x, rows, m, o, begin, end);
#endif
  pdist_rows_body(n, p, x, rows, m, o, begin, end);
}

inline Tensor contiguous_of(const Tensor& t) { return t.is_contiguous() ? t : contiguous_clone(t); }

// One pair's term of _pdist_backward at one coordinate (p = 2 and general p: for a pair at a
// distance other than 0; ATen's terms of a pair at distance 0 are 0 there): the derivative of the distance by diff = self[i] -
// self[j], times the pair's gradient; ATen's per-p formulas (DistanceOpsKernel.cpp; for p < 1, 0
// where diff is).
template <Norm N, class T>
[[gnu::always_inline]] inline T pdist_grad_term(T p, T diff, T grad, T dist) {
  const T sign = T((T(0) < diff) - (diff < T(0)));
  if constexpr (N == Norm::One) return grad * sign;
  else if constexpr (N == Norm::Two) return grad * diff / dist;
  else if constexpr (N == Norm::Inf) return grad * sign * (T(1) - std::min(T(1), std::ceil(std::abs(std::abs(diff) - dist))));
  else if (p < 2) return diff == T(0) && p < 1 ? T(0) : sign * std::pow(std::abs(diff), p - 1) * grad / std::pow(dist, p - 1);
  else return diff * std::pow(std::abs(diff), p - 2) * grad / std::pow(dist, p - 1);
}
// Columns [c0, c1) of _pdist_backward: pairs in pdist's order, each term added to row i and
// subtracted from row j, so that every element sums its terms in ATen's order. The norm is a
// template argument and the pair's values are read once, so the loop over columns vectorizes.
template <Norm N, class T>
[[gnu::always_inline]] inline void pdist_backward_columns_of(T p, const T* x, const T* g, const T* dist, int64_t rows,
                                                             int64_t m, T* r, int64_t c0, int64_t c1) {
  int64_t k = 0;
  for (int64_t i = 0; i < rows; ++i) {
    const T* xi = x + i * m;
    T* ri = r + i * m;
    for (int64_t j = i + 1; j < rows; ++j, ++k) {
      const T gk = g[k], dk = dist[k];
      if constexpr (N == Norm::Two || N == Norm::P)
        if (dk == T(0)) continue;  // every term 0 (ATen tests the distance for these two only: a NaN grad stays NaN for 1 and inf)
      const T* xj = x + j * m;
      T* rj = r + j * m;
      for (int64_t c = c0; c < c1; ++c) {
        const T t = pdist_grad_term<N, T>(p, xi[c] - xj[c], gk, dk);
        ri[c] += t;
        rj[c] -= t;
      }
    }
  }
}
template <class T>
[[gnu::always_inline]] inline void pdist_backward_body(Norm n, T p, const T* x, const T* g, const T* dist, int64_t rows,
                                                       int64_t m, T* r, int64_t c0, int64_t c1) {
  switch (n) {
    case Norm::Zero: return;  // (the result stays 0)
    case Norm::One: return pdist_backward_columns_of<Norm::One>(p, x, g, dist, rows, m, r, c0, c1);
    case Norm::Two: return pdist_backward_columns_of<Norm::Two>(p, x, g, dist, rows, m, r, c0, c1);
    case Norm::Inf: return pdist_backward_columns_of<Norm::Inf>(p, x, g, dist, rows, m, r, c0, c1);
    case Norm::P: break;
  }
  pdist_backward_columns_of<Norm::P>(p, x, g, dist, rows, m, r, c0, c1);
}
#if OPD_KERNEL_AVX2_ROWS
template <class T>
[[gnu::target("avx2"), gnu::noinline]] void pdist_backward_avx2(Norm n, T p, const T* x, const T* g, const T* dist,
                                                               int64_t rows, int64_t m, T* r, int64_t c0, int64_t c1) {
  pdist_backward_body(n, p, x, g, dist, rows, m, r, c0, c1);
}
#endif
template <class T>
void pdist_backward_columns(Norm n, T p, const T* x, const T* g, const T* dist, int64_t rows, int64_t m, T* r, int64_t c0,
                            int64_t c1) {
#if OPD_KERNEL_AVX2_ROWS
  if (detail::cpu_has_avx2()) return pdist_backward_avx2(n, p, x, g, dist, rows, m, r, c0, c1);
#endif
  pdist_backward_body(n, p, x, g, dist, rows, m, r, c0, c1);
}

}  // namespace distance_detail

OPD_FUNC Tensor cdist_forward(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  using namespace distance_detail;
  check_device("_cdist_forward", x1, "x1");
  check_device("_cdist_forward", x2, "x2");
  OPD_CHECK(x1.dim() >= 2, "cdist only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  OPD_CHECK(x2.dim() >= 2, "cdist only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  const int64_t c1 = x1.size(-1), c2 = x2.size(-1);
  OPD_CHECK(c1 == c2, "X1 and X2 must have the same number of columns. X1: ", c1, " X2: ", c2);
  OPD_CHECK(is_floating_type(x1.dtype()), "cdist only supports floating-point dtypes, X1 got: ", x1.dtype());
  OPD_CHECK(is_floating_type(x2.dtype()), "cdist only supports floating-point dtypes, X2 got: ", x2.dtype());
  OPD_CHECK(p >= 0, "cdist only supports non-negative p values");
  OPD_CHECK(x1.device() == x2.device(), "X1 and X2 must have the same device type. X1: ", x1.device(), " X2: ",
            x2.device());
  const int64_t mode = compute_mode.value_or(0);
  OPD_CHECK(mode >= 0 && mode <= 2, "possible modes: 0, 1, 2, but was: ", mode);
  OPD_CHECK(x1.dtype() == x2.dtype(), "cdist: X1 and X2 must have the same dtype. X1: ", x1.dtype(), " X2: ",
            x2.dtype());
  const int64_t r1 = x1.size(-2), r2 = x2.size(-2);
  const std::vector<int64_t> batch = kernels::infer_size(IntArrayRef(x1.sizes().data(), static_cast<std::size_t>(x1.dim() - 2)),
                                                         IntArrayRef(x2.sizes().data(), static_cast<std::size_t>(x2.dim() - 2)));
  int64_t batches = 1;
  for (int64_t b : batch) batches *= b;
  std::vector<int64_t> out_sizes = batch;
  out_sizes.push_back(r1);
  out_sizes.push_back(r2);
  const ScalarType dt = x1.dtype();
  if (x1.is_meta() || x2.is_meta()) return opd::empty(out_sizes, dt, Device::meta());
  if (r1 == 0 || r2 == 0 || batches == 0) return opd::empty(out_sizes, dt, Device::cpu());
  if (c1 == 0) return kernels::zeros(out_sizes, dt, Device::cpu());
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("cdist", dt);
  // both sides expanded to the batch, contiguous (B, R, M)
  const auto expanded = [&](const Tensor& x, int64_t r) {
    std::vector<int64_t> sizes = batch, strides(batch.size(), 0);
    const int64_t lead = static_cast<int64_t>(batch.size()) - (x.dim() - 2);
    for (int64_t d = 0; d < x.dim() - 2; ++d) {
      const auto o = static_cast<std::size_t>(lead + d);
      strides[o] = x.size(d) == 1 ? 0 : x.stride(d);
    }
    sizes.push_back(r);
    sizes.push_back(c1);
    strides.push_back(x.stride(-2));
    strides.push_back(x.stride(-1));
    return contiguous_clone(x.as_strided(sizes, strides, x.storage_offset()));
  };
  const Tensor a = expanded(x1, r1), b = expanded(x2, r2);
  Tensor out = opd::empty(out_sizes, dt, Device::cpu());
  const bool euclid_mm = p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)));
  const Norm n = norm_of(p);
  const int64_t m = c1, per_batch = r1 * r2;
  const auto run = [&](auto* o, const auto* pa, const auto* pb) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(pa)>>;
    if (euclid_mm) {
      // ATen's _euclidean_dist: [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T as a
      // matrix product, clamped at 0, sqrt
      const int64_t w = m + 2;
      const auto augmented = [&](const T* rows, int64_t r, bool first) {
        Tensor t = opd::empty(std::vector<int64_t>{batches, r, w}, dt, Device::cpu());
        T* d = t.data_ptr<T>();
        for (int64_t i = 0; i < batches * r; ++i) {
          const T* src = rows + i * m;
          T* dst = d + i * w;
          T sq = 0;
          for (int64_t k = 0; k < m; ++k) sq += src[k] * src[k];
          for (int64_t k = 0; k < m; ++k) dst[k] = first ? T(-2) * src[k] : src[k];
          dst[m] = first ? sq : T(1);
          dst[m + 1] = first ? T(1) : sq;
        }
        return t;
      };
      const Tensor a_aug = augmented(pa, r1, true), b_aug = augmented(pb, r2, false);
      const int64_t bt_sizes[] = {batches, w, r2}, bt_strides[] = {r2 * w, 1, w};
      detail::batched_gemm("cdist", a_aug, b_aug.as_strided(bt_sizes, bt_strides, 0), Scalar(0), Scalar(1),
                           out.as_strided(std::vector<int64_t>{batches, r1, r2}, std::vector<int64_t>{r1 * r2, r2, 1}, 0));
      // clamped at 0 (NaN passes) and sqrt, by the vectorized rows where the CPU has them
      // (the scalar sqrt was half the time of [256, 64] to [256, 64])
      const int64_t total = batches * per_batch;
      if (simd::clamp_row(o, o, total, T(0), std::numeric_limits<T>::infinity()) &&
          simd::unary_row(UnaryOp::Sqrt, o, o, total))
        return;
      for (int64_t e = 0; e < total; ++e) o[e] = std::sqrt(std::isnan(o[e]) ? o[e] : std::max(o[e], T(0)));
      return;
    }
    const T pt = static_cast<T>(p);
    parallel_for(0, batches * per_batch, std::max<int64_t>(1, grain_size / (16 * m)), [&](int64_t begin, int64_t end) {
      for (int64_t e = begin; e < end; ++e) {
        const int64_t l = e / per_batch, i = (e % per_batch) / r2, j = e % r2;
        o[e] = distance<T>(n, pt, pa + (l * r1 + i) * m, pb + (l * r2 + j) * m, m);
      }
    });
  };
  if (dt == ScalarType::Float) run(out.data_ptr<float>(), a.data_ptr<float>(), b.data_ptr<float>());
  else run(out.data_ptr<double>(), a.data_ptr<double>(), b.data_ptr<double>());
  return out;
}

OPD_FUNC Tensor pdist_forward(const Tensor& self, double p) {
  using namespace distance_detail;
  check_device("_pdist_forward", self, "self");
  OPD_CHECK(self.is_contiguous(), "_pdist_forward requires contiguous input");
  OPD_CHECK(self.dim() == 2, "_pdist_forward: expected a 2-D input (N, M), got ", self.sizes());
  const int64_t rows = self.size(0), m = self.size(1);
  const int64_t count = rows <= 1 ? 0 : rows * (rows - 1) / 2;
  const ScalarType dt = self.dtype();
  const int64_t sizes[1] = {count};
  if (self.is_meta()) return opd::empty(IntArrayRef(sizes, 1), dt, Device::meta());
  if (count == 0) return opd::empty(IntArrayRef(sizes, 1), dt, Device::cpu());
  if (m == 0) return kernels::zeros(IntArrayRef(sizes, 1), dt, Device::cpu());
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("pdist", dt);
  Tensor out = opd::empty(IntArrayRef(sizes, 1), dt, Device::cpu());
  const Norm n = norm_of(p);
  const auto run = [&](auto* o, const auto* x) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    const T pt = static_cast<T>(p);
    parallel_for(0, rows, std::max<int64_t>(1, grain_size / (16 * m * rows)), [&](int64_t begin, int64_t end) {
      if (n == Norm::Two) {  // the vectorized rows (reduce_simd.hpp): row i against rows i + 1, ...
        for (int64_t i = begin; i < end; ++i)
          simd::euclidean_rows(x + i * m, x + (i + 1) * m, rows - i - 1, m, o + i * rows - i * (i + 1) / 2);
        return;
      }
      pdist_rows<T>(n, pt, x, rows, m, o, begin, end);
    });
  };
  if (dt == ScalarType::Float) run(out.data_ptr<float>(), self.data_ptr<float>());
  else run(out.data_ptr<double>(), self.data_ptr<double>());
  return out;
}

OPD_FUNC Tensor pdist_backward(const Tensor& grad, const Tensor& self, double p, const Tensor& pdist) {
  using namespace distance_detail;
  check_device("_pdist_backward", grad, "grad");
  check_device("_pdist_backward", self, "self");
  check_device("_pdist_backward", pdist, "pdist");
  OPD_CHECK(self.is_contiguous(), "_pdist_backward requires self to be contiguous");
  OPD_CHECK(pdist.is_contiguous(), "_pdist_backward requires pdist to be contiguous");
  OPD_CHECK(self.dim() == 2, "_pdist_backward: expected a 2-D self (N, M), got ", self.sizes());
  const ScalarType dt = self.dtype();
  if (dt != ScalarType::Float && dt != ScalarType::Double) throw_not_implemented_for("pdist_backward", dt);
  const int64_t rows = self.size(0), m = self.size(1);
  const int64_t count = rows <= 1 ? 0 : rows * (rows - 1) / 2;
  // ATen reads grad and pdist unchecked (out of bounds when they are short): checked here
  for (const Tensor* t : {&grad, &pdist}) {
    OPD_CHECK(t->dtype() == dt, "expected scalar type ", dt, " but found ", t->dtype());
    OPD_CHECK(t->dim() == 1 && t->numel() == count, "_pdist_backward: expected ", t == &grad ? "grad" : "pdist",
              " of ", count, " elements (the pairs of ", rows, " rows) as a 1-D tensor, got ", t->sizes());
  }
  if (self.is_meta() || grad.is_meta() || pdist.is_meta()) return opd::empty(self.sizes(), dt, Device::meta());
  Tensor result = kernels::zeros(self.sizes(), dt, Device::cpu());
  if (count == 0 || m == 0 || norm_of(p) == Norm::Zero) return result;
  const Tensor g = contiguous_of(grad);
  const Norm n = norm_of(p);
  const auto run = [&](auto* r, const auto* x, const auto* gp, const auto* d) {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(x)>>;
    const T pt = static_cast<T>(p);
    parallel_for(0, m, std::max<int64_t>(1, grain_size / (16 * rows * rows)),
                 [&](int64_t c0, int64_t c1) { pdist_backward_columns<T>(n, pt, x, gp, d, rows, m, r, c0, c1); });
  };
  if (dt == ScalarType::Float) run(result.data_ptr<float>(), self.data_ptr<float>(), g.data_ptr<float>(), pdist.data_ptr<float>());
  else run(result.data_ptr<double>(), self.data_ptr<double>(), g.data_ptr<double>(), pdist.data_ptr<double>());
  return result;
}

}  // namespace opd::kernels
