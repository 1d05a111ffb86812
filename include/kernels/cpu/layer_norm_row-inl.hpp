#pragma once
// The scalar steps of one native_layer_norm_backward row, shared by the
// vector row (reduce_simd_targets-inl.hpp: its tail) and the plain row that
// stands in for it where Highway cannot compile (reduce_simd-inl.hpp under
// nvcc): both then round each element the same way. Plain C++, no Highway:
// included once per target inside Highway's per-target file, hence inline.
#include <cstdint>

namespace opd::kernels::simd::layer_norm_row {

// Elements [begin, end): dgamma[i] += dy (x - mean) rstd and dbeta[i] += dy
// where wanted, and dx's two sums, ds += dy w x and db += dy w (w: 1 when null).
template <class T>
inline void add_sums(const T* x, const T* dy, const T* w, int64_t begin, int64_t end, T mean, T rstd, T* dgamma,
                     T* dbeta, T& ds, T& db) {
  for (int64_t i = begin; i < end; ++i) {
    const T g = dy[i];
    if (dgamma) dgamma[i] += g * (x[i] - mean) * rstd;
    if (dbeta) dbeta[i] += g;
    const T gw = w ? g * w[i] : g;
    ds += gw * x[i];
    db += gw;
  }
}

// dx = rstd dy w + b x + c, b and c from the row's sums (ATen's formulas).
template <class T>
struct DxCoefficients {
  T b, c;
  DxCoefficients(int64_t n, T mean, T rstd, T ds, T db) {
    const T scale = T(1) / static_cast<T>(n);
    b = (db * mean - ds) * rstd * rstd * rstd * scale;
    c = -b * mean - db * rstd * scale;
  }
};

// dx over elements [begin, end).
template <class T>
inline void write_dx(const T* x, const T* dy, const T* w, int64_t begin, int64_t end, T rstd, DxCoefficients<T> k,
                     T* dx) {
  for (int64_t i = begin; i < end; ++i) dx[i] = rstd * (w ? dy[i] * w[i] : dy[i]) + k.b * x[i] + k.c;
}

}  // namespace opd::kernels::simd::layer_norm_row
