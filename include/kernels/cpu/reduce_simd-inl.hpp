#pragma once
// Out-of-line part of reduce_simd.hpp (compiled in src/kernels/reduce_simd.cpp):
// Highway's dynamic dispatch over SSE4, AVX2 and AVX-512 (the per-target
// bodies are reduce_simd_targets-inl.hpp, compiled once per target).
#include <cmath>
#include <cstdint>

#include "kernels/cpu/reduce_simd.hpp"

#if defined(__CUDACC__)
// nvcc (a header-only .cu file) cannot compile Highway's dispatch tables
// (HWY_EXPORT): there the row kernels are plain loops, in the same order.
#include <algorithm>
#include <limits>

#include "kernels/cpu/layer_norm_row-inl.hpp"

namespace opd::kernels::simd {
namespace scalar_detail {
template <class T>
T sum(const T* x, int64_t n) {
  if (n <= 512) {
    T acc[8] = {};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      for (int j = 0; j < 8; ++j) acc[j] += x[i + j];
    for (; i < n; ++i) acc[0] += x[i];
    return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
  }
  const int64_t half = ((n / 2) + 511) / 512 * 512;
  return sum(x, half) + sum(x + half, n - half);
}
template <class T>
T prod(const T* x, int64_t n) {
  constexpr int kAcc = 32;
  T acc[kAcc];
  for (int j = 0; j < kAcc; ++j) acc[j] = T(1);
  int64_t i = 0;
  for (; i + kAcc <= n; i += kAcc)
    for (int j = 0; j < kAcc; ++j) acc[j] *= x[i + j];
  for (int width = kAcc / 2; width > 0; width /= 2)
    for (int j = 0; j < width; ++j) acc[j] *= acc[j + width];
  T p = acc[0];
  for (; i < n; ++i) p *= x[i];
  return p;
}
template <bool kMax, class T>
T extreme(const T* x, int64_t n) {
  T best = x[0];
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) return std::numeric_limits<T>::quiet_NaN();
    best = kMax ? std::max(best, x[i]) : std::min(best, x[i]);
  }
  return best;
}
}  // namespace scalar_detail
OPD_FUNC float sum_row(const float* x, int64_t n) { return scalar_detail::sum(x, n); }
OPD_FUNC double sum_row(const double* x, int64_t n) { return scalar_detail::sum(x, n); }
OPD_FUNC float prod_row(const float* x, int64_t n) { return scalar_detail::prod(x, n); }
OPD_FUNC double prod_row(const double* x, int64_t n) { return scalar_detail::prod(x, n); }
OPD_FUNC void prod_rows(const float* x, int64_t n, int64_t rows, float* out) {
  for (int64_t r = 0; r < rows; ++r) out[r] = scalar_detail::prod(x + r * n, n);
}
OPD_FUNC void prod_rows(const double* x, int64_t n, int64_t rows, double* out) {
  for (int64_t r = 0; r < rows; ++r) out[r] = scalar_detail::prod(x + r * n, n);
}
OPD_FUNC float max_row(const float* x, int64_t n) { return scalar_detail::extreme<true>(x, n); }
OPD_FUNC double max_row(const double* x, int64_t n) { return scalar_detail::extreme<true>(x, n); }
OPD_FUNC float min_row(const float* x, int64_t n) { return scalar_detail::extreme<false>(x, n); }
OPD_FUNC double min_row(const double* x, int64_t n) { return scalar_detail::extreme<false>(x, n); }
OPD_FUNC uint64_t max_row(const uint64_t* x, int64_t n) {
  uint64_t best = 0;
  for (int64_t i = 0; i < n; ++i) best = x[i] > best ? x[i] : best;
  return best;
}
OPD_FUNC float sum_sq_dev_row(const float* x, int64_t n, float mean) {
  float s = 0;
  for (int64_t i = 0; i < n; ++i) s += (x[i] - mean) * (x[i] - mean);
  return s;
}
OPD_FUNC void affine_row(const float* x, float* y, int64_t n, float scale, float shift, const float* w, const float* b) {
  for (int64_t i = 0; i < n; ++i) {
    float v = x[i] * scale + shift;
    if (w) v *= w[i];
    if (b) v += b[i];
    y[i] = v;
  }
}
namespace scalar_detail {
template <class T>
void layer_norm_backward(const T* x, const T* dy, const T* w, int64_t n, T mean, T rstd, T* dx, T* dgamma, T* dbeta) {
  T ds = 0, db = 0;
  layer_norm_row::add_sums(x, dy, w, 0, n, mean, rstd, dgamma, dbeta, ds, db);
  if (dx) layer_norm_row::write_dx(x, dy, w, 0, n, rstd, layer_norm_row::DxCoefficients<T>(n, mean, rstd, ds, db), dx);
}
template <class T>
void dot_sum(const T* g, const T* x, int64_t n, double* gx, double* gs) {
  double s = 0, t = 0;
  for (int64_t i = 0; i < n; ++i) {
    s += static_cast<double>(g[i]) * static_cast<double>(x[i]);
    t += static_cast<double>(g[i]);
  }
  *gx = s;
  *gs = t;
}
template <class T>
void axpbyc(const T* g, const T* x, T* y, int64_t n, double a, double b, double c) {
  for (int64_t i = 0; i < n; ++i) y[i] = static_cast<T>(a * static_cast<double>(g[i]) + b * static_cast<double>(x[i]) + c);
}
template <class T>
void euclidean(const T* a, const T* b, int64_t count, int64_t m, T* out) {
  for (int64_t j = 0; j < count; ++j) {
    T s = 0;
    for (int64_t k = 0; k < m; ++k) s += (a[k] - b[j * m + k]) * (a[k] - b[j * m + k]);
    out[j] = std::sqrt(s);
  }
}
}  // namespace scalar_detail
OPD_FUNC void euclidean_rows(const float* a, const float* b, int64_t count, int64_t m, float* out) {
  scalar_detail::euclidean(a, b, count, m, out);
}
OPD_FUNC void euclidean_rows(const double* a, const double* b, int64_t count, int64_t m, double* out) {
  scalar_detail::euclidean(a, b, count, m, out);
}
OPD_FUNC void layer_norm_backward_row(const float* x, const float* dy, const float* w, int64_t n, float mean,
                                      float rstd, float* dx, float* dgamma, float* dbeta) {
  scalar_detail::layer_norm_backward(x, dy, w, n, mean, rstd, dx, dgamma, dbeta);
}
OPD_FUNC void layer_norm_backward_row(const double* x, const double* dy, const double* w, int64_t n, double mean,
                                      double rstd, double* dx, double* dgamma, double* dbeta) {
  scalar_detail::layer_norm_backward(x, dy, w, n, mean, rstd, dx, dgamma, dbeta);
}
OPD_FUNC void dot_sum_row(const float* g, const float* x, int64_t n, double* gx, double* gs) {
  scalar_detail::dot_sum(g, x, n, gx, gs);
}
OPD_FUNC void dot_sum_row(const double* g, const double* x, int64_t n, double* gx, double* gs) {
  scalar_detail::dot_sum(g, x, n, gx, gs);
}
OPD_FUNC void axpbyc_row(const float* g, const float* x, float* y, int64_t n, double a, double b, double c) {
  scalar_detail::axpbyc(g, x, y, n, a, b, c);
}
OPD_FUNC void axpbyc_row(const double* g, const double* x, double* y, int64_t n, double a, double b, double c) {
  scalar_detail::axpbyc(g, x, y, n, a, b, c);
}
OPD_FUNC void softmax_row(const float* x, float* y, int64_t n, bool log) {
  const float m = scalar_detail::extreme<true>(x, n);
  float s = 0;
  for (int64_t i = 0; i < n; ++i) s += std::exp(x[i] - m);
  if (log) {
    const float log_s = std::log(s);
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - m) - log_s;
    return;
  }
  const float inv = 1.0f / s;
  for (int64_t i = 0; i < n; ++i) y[i] = std::exp(x[i] - m) * inv;
}
}  // namespace opd::kernels::simd

#else  // Highway

#define OPD_SIMD_FAMILY_TARGETS "kernels/cpu/reduce_simd_targets-inl.hpp"
#include "kernels/cpu/simd_pass-inl.hpp"

namespace opd::kernels::simd {

namespace dispatch_detail {
HWY_EXPORT(SumF32);
HWY_EXPORT(SumF64);
HWY_EXPORT(ProdF32);
HWY_EXPORT(ProdF64);
HWY_EXPORT(ProdRowsF32);
HWY_EXPORT(ProdRowsF64);
HWY_EXPORT(MaxF32);
HWY_EXPORT(MaxF64);
HWY_EXPORT(MinF32);
HWY_EXPORT(MinF64);
HWY_EXPORT(MaxU64);
HWY_EXPORT(SoftmaxF32);
HWY_EXPORT(SumSqDevF32);
HWY_EXPORT(AffineF32);
HWY_EXPORT(LayerNormBackwardF32);
HWY_EXPORT(LayerNormBackwardF64);
HWY_EXPORT(DotSumF32);
HWY_EXPORT(DotSumF64);
HWY_EXPORT(AxpbycF32);
HWY_EXPORT(AxpbycF64);
HWY_EXPORT(EuclideanRowsF32);
HWY_EXPORT(EuclideanRowsF64);
}  // namespace dispatch_detail

OPD_FUNC float sum_row(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::SumF32)(x, n); }
OPD_FUNC double sum_row(const double* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::SumF64)(x, n); }
OPD_FUNC float prod_row(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::ProdF32)(x, n); }
OPD_FUNC double prod_row(const double* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::ProdF64)(x, n); }
OPD_FUNC void prod_rows(const float* x, int64_t n, int64_t rows, float* out) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::ProdRowsF32)(x, n, rows, out);
}
OPD_FUNC void prod_rows(const double* x, int64_t n, int64_t rows, double* out) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::ProdRowsF64)(x, n, rows, out);
}
OPD_FUNC float max_row(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::MaxF32)(x, n); }
OPD_FUNC double max_row(const double* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::MaxF64)(x, n); }
OPD_FUNC float min_row(const float* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::MinF32)(x, n); }
OPD_FUNC double min_row(const double* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::MinF64)(x, n); }
OPD_FUNC uint64_t max_row(const uint64_t* x, int64_t n) { return HWY_DYNAMIC_DISPATCH(dispatch_detail::MaxU64)(x, n); }
OPD_FUNC float sum_sq_dev_row(const float* x, int64_t n, float mean) {
  return HWY_DYNAMIC_DISPATCH(dispatch_detail::SumSqDevF32)(x, n, mean);
}
OPD_FUNC void affine_row(const float* x, float* y, int64_t n, float scale, float shift, const float* w, const float* b) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::AffineF32)(x, y, n, scale, shift, w, b);
}
OPD_FUNC void layer_norm_backward_row(const float* x, const float* dy, const float* w, int64_t n, float mean,
                                      float rstd, float* dx, float* dgamma, float* dbeta) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::LayerNormBackwardF32)(x, dy, w, n, mean, rstd, dx, dgamma, dbeta);
}
OPD_FUNC void layer_norm_backward_row(const double* x, const double* dy, const double* w, int64_t n, double mean,
                                      double rstd, double* dx, double* dgamma, double* dbeta) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::LayerNormBackwardF64)(x, dy, w, n, mean, rstd, dx, dgamma, dbeta);
}
OPD_FUNC void dot_sum_row(const float* g, const float* x, int64_t n, double* gx, double* gs) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::DotSumF32)(g, x, n, gx, gs);
}
OPD_FUNC void dot_sum_row(const double* g, const double* x, int64_t n, double* gx, double* gs) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::DotSumF64)(g, x, n, gx, gs);
}
OPD_FUNC void axpbyc_row(const float* g, const float* x, float* y, int64_t n, double a, double b, double c) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::AxpbycF32)(g, x, y, n, a, b, c);
}
OPD_FUNC void axpbyc_row(const double* g, const double* x, double* y, int64_t n, double a, double b, double c) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::AxpbycF64)(g, x, y, n, a, b, c);
}
OPD_FUNC void euclidean_rows(const float* a, const float* b, int64_t count, int64_t m, float* out) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::EuclideanRowsF32)(a, b, count, m, out);
}
OPD_FUNC void euclidean_rows(const double* a, const double* b, int64_t count, int64_t m, double* out) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::EuclideanRowsF64)(a, b, count, m, out);
}
OPD_FUNC void softmax_row(const float* x, float* y, int64_t n, bool log) {
  HWY_DYNAMIC_DISPATCH(dispatch_detail::SoftmaxF32)(x, y, n, log);
}

}  // namespace opd::kernels::simd

#endif  // __CUDACC__
