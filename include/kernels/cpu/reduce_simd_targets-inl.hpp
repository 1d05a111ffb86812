// The per-target bodies of reduce_simd-inl.hpp: Highway's foreach_target.h
// includes this file once per instruction set (so no #pragma once; the
// toggle below is Highway's per-target include guard).
#if defined(OPD_REDUCE_SIMD_TARGETS_TOGGLE) == defined(HWY_TARGET_TOGGLE)
#ifdef OPD_REDUCE_SIMD_TARGETS_TOGGLE
#undef OPD_REDUCE_SIMD_TARGETS_TOGGLE
#else
#define OPD_REDUCE_SIMD_TARGETS_TOGGLE
#endif

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

#include "dispatch/config.hpp"  // OPD_FUNC: inline when header-only (two files may include this)
#include "kernels/cpu/layer_norm_row-inl.hpp"

HWY_BEFORE_NAMESPACE();
namespace opd::kernels::simd::dispatch_detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Rows up to this long are summed across 4 vector accumulators; longer ones
// are halved recursively (pairwise), so the error grows as log2(n / kLeaf).
// 1024, not 512: a row of 1000 is then one leaf with one sum across lanes
// (sum over dim -1 of [1000, 1000]: 1.22x ATen's time with 512, 0.99x).
inline constexpr int64_t kLeaf = 1024;

template <class T>
HWY_INLINE T SumLeaf(const T* HWY_RESTRICT x, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  int64_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    a0 = hn::Add(a0, hn::LoadU(d, x + i));
    a1 = hn::Add(a1, hn::LoadU(d, x + i + N));
    a2 = hn::Add(a2, hn::LoadU(d, x + i + 2 * N));
    a3 = hn::Add(a3, hn::LoadU(d, x + i + 3 * N));
  }
  for (; i + N <= n; i += N) a0 = hn::Add(a0, hn::LoadU(d, x + i));
  T s = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  T tail = 0;
  for (; i < n; ++i) tail += x[i];
  return s + tail;
}

template <class T>
OPD_FUNC HWY_NOINLINE T SumPairwise(const T* HWY_RESTRICT x, int64_t n) {
  if (n <= kLeaf) return SumLeaf(x, n);
  const int64_t half = ((n / 2) + kLeaf - 1) / kLeaf * kLeaf;  // whole leaves on the left
  return SumPairwise(x, half) + SumPairwise(x + half, n - half);
}

// Max (Min when !kMax) of a row, NaN when a lane ever saw one.
template <bool kMax, class T>
HWY_INLINE T Extreme(const T* HWY_RESTRICT x, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  T best = x[0];
  bool nan = std::isnan(best);
  int64_t i = 0;
  if (n >= N) {
    auto acc = hn::LoadU(d, x);
    auto bad = hn::VecFromMask(d, hn::IsNaN(acc));
    for (i = N; i + N <= n; i += N) {
      const auto v = hn::LoadU(d, x + i);
      acc = kMax ? hn::Max(acc, v) : hn::Min(acc, v);
      bad = hn::Or(bad, hn::VecFromMask(d, hn::IsNaN(v)));
    }
    nan = nan || !hn::AllFalse(d, hn::MaskFromVec(bad));
    best = hn::GetLane(kMax ? hn::MaxOfLanes(d, acc) : hn::MinOfLanes(d, acc));
  }
  for (; i < n; ++i) {
    nan = nan || std::isnan(x[i]);
    best = kMax ? (x[i] > best ? x[i] : best) : (x[i] < best ? x[i] : best);
  }
  return nan ? std::numeric_limits<T>::quiet_NaN() : best;
}

// Largest of a row of unsigned 64-bit values, 0 for an empty row: two
// accumulators, so that AVX2's emulated 64-bit Max (a compare and a blend)
// overlaps with the next load.
HWY_INLINE uint64_t MaxUnsigned(const uint64_t* HWY_RESTRICT x, int64_t n) {
  const hn::ScalableTag<uint64_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  auto a = hn::Zero(d), b = hn::Zero(d);
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    a = hn::Max(a, hn::LoadU(d, x + i));
    b = hn::Max(b, hn::LoadU(d, x + i + N));
  }
  uint64_t best = hn::GetLane(hn::MaxOfLanes(d, hn::Max(a, b)));
  for (; i < n; ++i) best = x[i] > best ? x[i] : best;
  return best;
}

HWY_INLINE float SqDevLeaf(const float* HWY_RESTRICT x, int64_t n, float mean) {
  const hn::ScalableTag<float> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vm = hn::Set(d, mean);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d);
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto d0 = hn::Sub(hn::LoadU(d, x + i), vm);
    const auto d1 = hn::Sub(hn::LoadU(d, x + i + N), vm);
    a0 = hn::MulAdd(d0, d0, a0);
    a1 = hn::MulAdd(d1, d1, a1);
  }
  for (; i + N <= n; i += N) {
    const auto d0 = hn::Sub(hn::LoadU(d, x + i), vm);
    a0 = hn::MulAdd(d0, d0, a0);
  }
  float s = hn::GetLane(hn::SumOfLanes(d, hn::Add(a0, a1)));
  for (; i < n; ++i) s += (x[i] - mean) * (x[i] - mean);
  return s;
}
OPD_FUNC HWY_NOINLINE float SumSqDevF32(const float* x, int64_t n, float mean) {
  if (n <= kLeaf) return SqDevLeaf(x, n, mean);
  const int64_t half = ((n / 2) + kLeaf - 1) / kLeaf * kLeaf;
  return SumSqDevF32(x, half, mean) + SumSqDevF32(x + half, n - half, mean);
}
OPD_FUNC HWY_NOINLINE void AffineF32(const float* x, float* y, int64_t n, float scale, float shift, const float* w,
                            const float* b) {
  const hn::ScalableTag<float> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vs = hn::Set(d, scale), vt = hn::Set(d, shift);
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    auto v = hn::MulAdd(hn::LoadU(d, x + i), vs, vt);
    if (w) v = hn::Mul(v, hn::LoadU(d, w + i));
    if (b) v = hn::Add(v, hn::LoadU(d, b + i));
    hn::StoreU(v, d, y + i);
  }
  for (; i < n; ++i) {
    float v = x[i] * scale + shift;
    if (w) v *= w[i];
    if (b) v += b[i];
    y[i] = v;
  }
}

// layer_norm_backward_row (reduce_simd.hpp): one pass for dgamma / dbeta's
// terms and dx's two sums (two accumulators each), one pass for dx; g * w is
// recomputed in the second pass rather than kept in a scratch row.
template <class T>
HWY_INLINE void LayerNormBackwardRow(const T* HWY_RESTRICT x, const T* HWY_RESTRICT dy, const T* HWY_RESTRICT w,
                                     int64_t n, T mean, T rstd, T* HWY_RESTRICT dx, T* HWY_RESTRICT dgamma,
                                     T* HWY_RESTRICT dbeta) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const auto vmu = hn::Set(d, mean), vrs = hn::Set(d, rstd);
  auto ds0 = hn::Zero(d), db0 = hn::Zero(d), ds1 = hn::Zero(d), db1 = hn::Zero(d);
  const auto step = [&](int64_t i, auto& ds, auto& db) HWY_ATTR {
    const auto g = hn::LoadU(d, dy + i), xv = hn::LoadU(d, x + i);
    if (dgamma) hn::StoreU(hn::MulAdd(hn::Mul(g, hn::Sub(xv, vmu)), vrs, hn::LoadU(d, dgamma + i)), d, dgamma + i);
    if (dbeta) hn::StoreU(hn::Add(hn::LoadU(d, dbeta + i), g), d, dbeta + i);
    if (dx) {
      const auto gw = w ? hn::Mul(g, hn::LoadU(d, w + i)) : g;
      ds = hn::MulAdd(gw, xv, ds);
      db = hn::Add(db, gw);
    }
  };
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    step(i, ds0, db0);
    step(i + N, ds1, db1);
  }
  for (; i + N <= n; i += N) step(i, ds0, db0);
  T ds = hn::GetLane(hn::SumOfLanes(d, hn::Add(ds0, ds1))), db = hn::GetLane(hn::SumOfLanes(d, hn::Add(db0, db1)));
  layer_norm_row::add_sums(x, dy, w, i, n, mean, rstd, dgamma, dbeta, ds, db);
  if (!dx) return;
  const layer_norm_row::DxCoefficients<T> k(n, mean, rstd, ds, db);
  const auto vb = hn::Set(d, k.b), vc = hn::Set(d, k.c);
  for (i = 0; i + N <= n; i += N) {
    const auto g = hn::LoadU(d, dy + i);
    const auto gw = w ? hn::Mul(g, hn::LoadU(d, w + i)) : g;
    hn::StoreU(hn::MulAdd(vrs, gw, hn::MulAdd(vb, hn::LoadU(d, x + i), vc)), d, dx + i);
  }
  layer_norm_row::write_dx(x, dy, w, i, n, rstd, k, dx);
}
OPD_FUNC HWY_NOINLINE void LayerNormBackwardF32(const float* x, const float* dy, const float* w, int64_t n, float mean,
                                                float rstd, float* dx, float* dgamma, float* dbeta) {
  LayerNormBackwardRow(x, dy, w, n, mean, rstd, dx, dgamma, dbeta);
}
OPD_FUNC HWY_NOINLINE void LayerNormBackwardF64(const double* x, const double* dy, const double* w, int64_t n,
                                                double mean, double rstd, double* dx, double* dgamma, double* dbeta) {
  LayerNormBackwardRow(x, dy, w, n, mean, rstd, dx, dgamma, dbeta);
}

// A float or double row read as double vectors (float promoted), and written
// back rounded once.
template <class DD, class T>
HWY_INLINE hn::Vec<DD> LoadAsDouble(DD dd, const T* HWY_RESTRICT p) {
  if constexpr (std::is_same_v<T, double>) {
    return hn::LoadU(dd, p);
  } else {
    const hn::Rebind<float, DD> df;
    return hn::PromoteTo(dd, hn::LoadU(df, p));
  }
}
template <class DD, class T>
HWY_INLINE void StoreFromDouble(DD dd, hn::Vec<DD> v, T* HWY_RESTRICT p) {
  if constexpr (std::is_same_v<T, double>) {
    hn::StoreU(v, dd, p);
  } else {
    const hn::Rebind<float, DD> df;
    hn::StoreU(hn::DemoteTo(df, v), df, p);
  }
}

// dot_sum_row (reduce_simd.hpp): sum g * x and sum g in double, two
// accumulators each.
template <class T>
HWY_INLINE void DotSum(const T* HWY_RESTRICT g, const T* HWY_RESTRICT x, int64_t n, double* gx, double* gs) {
  const hn::ScalableTag<double> dd;
  const int64_t N = static_cast<int64_t>(hn::Lanes(dd));
  auto s0 = hn::Zero(dd), s1 = hn::Zero(dd), t0 = hn::Zero(dd), t1 = hn::Zero(dd);
  int64_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto g0 = LoadAsDouble(dd, g + i), g1 = LoadAsDouble(dd, g + i + N);
    s0 = hn::MulAdd(g0, LoadAsDouble(dd, x + i), s0);
    s1 = hn::MulAdd(g1, LoadAsDouble(dd, x + i + N), s1);
    t0 = hn::Add(t0, g0);
    t1 = hn::Add(t1, g1);
  }
  double s = hn::GetLane(hn::SumOfLanes(dd, hn::Add(s0, s1))), t = hn::GetLane(hn::SumOfLanes(dd, hn::Add(t0, t1)));
  for (; i < n; ++i) {
    s += static_cast<double>(g[i]) * static_cast<double>(x[i]);
    t += static_cast<double>(g[i]);
  }
  *gx = s;
  *gs = t;
}
OPD_FUNC HWY_NOINLINE void DotSumF32(const float* g, const float* x, int64_t n, double* gx, double* gs) {
  DotSum(g, x, n, gx, gs);
}
OPD_FUNC HWY_NOINLINE void DotSumF64(const double* g, const double* x, int64_t n, double* gx, double* gs) {
  DotSum(g, x, n, gx, gs);
}

// axpbyc_row (reduce_simd.hpp): y = a g + b x + c in double, rounded once.
template <class T>
HWY_INLINE void Axpbyc(const T* HWY_RESTRICT g, const T* HWY_RESTRICT x, T* HWY_RESTRICT y, int64_t n, double a,
                       double b, double c) {
  const hn::ScalableTag<double> dd;
  const int64_t N = static_cast<int64_t>(hn::Lanes(dd));
  const auto va = hn::Set(dd, a), vb = hn::Set(dd, b), vc = hn::Set(dd, c);
  int64_t i = 0;
  for (; i + N <= n; i += N)
    StoreFromDouble(dd, hn::MulAdd(va, LoadAsDouble(dd, g + i), hn::MulAdd(vb, LoadAsDouble(dd, x + i), vc)), y + i);
  for (; i < n; ++i) y[i] = static_cast<T>(a * static_cast<double>(g[i]) + b * static_cast<double>(x[i]) + c);
}
OPD_FUNC HWY_NOINLINE void AxpbycF32(const float* g, const float* x, float* y, int64_t n, double a, double b,
                                     double c) {
  Axpbyc(g, x, y, n, a, b, c);
}
OPD_FUNC HWY_NOINLINE void AxpbycF64(const double* g, const double* x, double* y, int64_t n, double a, double b,
                                     double c) {
  Axpbyc(g, x, y, n, a, b, c);
}

// euclidean_rows (reduce_simd.hpp): each row's squares of differences in two
// accumulators, then the square roots a vector at a time.
template <class T>
HWY_INLINE void EuclideanRows(const T* HWY_RESTRICT a, const T* HWY_RESTRICT b, int64_t count, int64_t m,
                              T* HWY_RESTRICT out) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t j = 0; j < count; ++j) {
    const T* HWY_RESTRICT r = b + j * m;
    auto s0 = hn::Zero(d), s1 = hn::Zero(d);
    int64_t k = 0;
    for (; k + 2 * N <= m; k += 2 * N) {
      const auto d0 = hn::Sub(hn::LoadU(d, a + k), hn::LoadU(d, r + k));
      const auto d1 = hn::Sub(hn::LoadU(d, a + k + N), hn::LoadU(d, r + k + N));
      s0 = hn::MulAdd(d0, d0, s0);
      s1 = hn::MulAdd(d1, d1, s1);
    }
    for (; k + N <= m; k += N) {
      const auto d0 = hn::Sub(hn::LoadU(d, a + k), hn::LoadU(d, r + k));
      s0 = hn::MulAdd(d0, d0, s0);
    }
    T s = hn::GetLane(hn::SumOfLanes(d, hn::Add(s0, s1)));
    for (; k < m; ++k) s += (a[k] - r[k]) * (a[k] - r[k]);
    out[j] = s;
  }
  int64_t j = 0;
  for (; j + N <= count; j += N) hn::StoreU(hn::Sqrt(hn::LoadU(d, out + j)), d, out + j);
  for (; j < count; ++j) out[j] = std::sqrt(out[j]);
}
OPD_FUNC HWY_NOINLINE void EuclideanRowsF32(const float* a, const float* b, int64_t count, int64_t m, float* out) {
  EuclideanRows(a, b, count, m, out);
}
OPD_FUNC HWY_NOINLINE void EuclideanRowsF64(const double* a, const double* b, int64_t count, int64_t m, double* out) {
  EuclideanRows(a, b, count, m, out);
}

// The last steps of prod_row's tree on one vector: lane j times lane
// j + lanes / 2, halving until one lane is left (in registers: the stores
// and 31 scalar loads and multiplies of the array tree were a quarter of the
// time of a 1000-float row).
template <class D>
HWY_INLINE hn::TFromD<D> ProductTree(D d, hn::Vec<D> v) {
#if HWY_TARGET == HWY_SCALAR  // one lane, and no UpperHalf
  (void)d;
  return hn::GetLane(v);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    return hn::GetLane(v);
  } else {
    const hn::Half<D> dh;
    return ProductTree(dh, hn::Mul(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
  }
  (void)d;
#endif
}

// prod_row's order (reduce_simd.hpp): the 32 partial products as 32 / N
// vectors of N lanes (at least two: independent chains of multiplies).
template <class T>
HWY_INLINE T Prod(const T* HWY_RESTRICT x, int64_t n) {
  constexpr int kAcc = 32;
  const hn::CappedTag<T, kAcc / 2> d;
  const int N = static_cast<int>(hn::Lanes(d));
  int64_t i = 0;
  T p = T(1);
  if (4 * N < kAcc) {  // narrow vectors (SSE4, double on AVX2, the scalar targets): the same order, lane by lane
    T acc[kAcc];
    for (int j = 0; j < kAcc; ++j) acc[j] = T(1);
    for (; i + kAcc <= n; i += kAcc)
      for (int j = 0; j < kAcc; ++j) acc[j] *= x[i + j];
    for (int width = kAcc / 2; width > 0; width /= 2)
      for (int j = 0; j < width; ++j) acc[j] *= acc[j + width];
    p = acc[0];
  } else if (n >= kAcc) {
    auto a0 = hn::Set(d, T(1)), a1 = a0, a2 = a0, a3 = a0;  // 2 or 4 vectors
    for (; i + kAcc <= n; i += kAcc) {
      a0 = hn::Mul(a0, hn::LoadU(d, x + i));
      a1 = hn::Mul(a1, hn::LoadU(d, x + i + N));
      if (2 * N < kAcc) {
        a2 = hn::Mul(a2, hn::LoadU(d, x + i + 2 * N));
        a3 = hn::Mul(a3, hn::LoadU(d, x + i + 3 * N));
      }
    }
    // The tree's first steps across vectors (partial j times j + 16, then
    // j + 8 where the vectors are 8 lanes), the rest within one vector.
    p = 2 * N < kAcc ? ProductTree(d, hn::Mul(hn::Mul(a0, a2), hn::Mul(a1, a3))) : ProductTree(d, hn::Mul(a0, a1));
  }
  for (; i < n; ++i) p *= x[i];
  return p;
}

// Prod of two rows at once, each in Prod's order (the same bits): the two
// rows' multiplies are independent chains, so one runs while the other
// waits on its latency.
template <class T>
HWY_INLINE void Prod2(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, int64_t n, T* out) {
  constexpr int kAcc = 32;
  const hn::CappedTag<T, kAcc / 2> d;
  const int N = static_cast<int>(hn::Lanes(d));
  if (4 * N < kAcc || n < kAcc) {
    out[0] = Prod(x, n);
    out[1] = Prod(y, n);
    return;
  }
  auto a0 = hn::Set(d, T(1)), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
  int64_t i = 0;
  for (; i + kAcc <= n; i += kAcc) {
    a0 = hn::Mul(a0, hn::LoadU(d, x + i));
    b0 = hn::Mul(b0, hn::LoadU(d, y + i));
    a1 = hn::Mul(a1, hn::LoadU(d, x + i + N));
    b1 = hn::Mul(b1, hn::LoadU(d, y + i + N));
    if (2 * N < kAcc) {
      a2 = hn::Mul(a2, hn::LoadU(d, x + i + 2 * N));
      b2 = hn::Mul(b2, hn::LoadU(d, y + i + 2 * N));
      a3 = hn::Mul(a3, hn::LoadU(d, x + i + 3 * N));
      b3 = hn::Mul(b3, hn::LoadU(d, y + i + 3 * N));
    }
  }
  T p = 2 * N < kAcc ? ProductTree(d, hn::Mul(hn::Mul(a0, a2), hn::Mul(a1, a3))) : ProductTree(d, hn::Mul(a0, a1));
  T q = 2 * N < kAcc ? ProductTree(d, hn::Mul(hn::Mul(b0, b2), hn::Mul(b1, b3))) : ProductTree(d, hn::Mul(b0, b1));
  for (int64_t j = i; j < n; ++j) {
    p *= x[j];
    q *= y[j];
  }
  out[0] = p;
  out[1] = q;
}
template <class T>
HWY_INLINE void ProdRows(const T* x, int64_t n, int64_t rows, T* out) {
  int64_t r = 0;
  for (; r + 2 <= rows; r += 2) Prod2(x + r * n, x + (r + 1) * n, n, out + r);
  for (; r < rows; ++r) out[r] = Prod(x + r * n, n);
}

OPD_FUNC HWY_NOINLINE void ProdRowsF32(const float* x, int64_t n, int64_t rows, float* out) {
  ProdRows(x, n, rows, out);
}
OPD_FUNC HWY_NOINLINE void ProdRowsF64(const double* x, int64_t n, int64_t rows, double* out) {
  ProdRows(x, n, rows, out);
}
OPD_FUNC HWY_NOINLINE float SumF32(const float* x, int64_t n) { return SumPairwise(x, n); }
OPD_FUNC HWY_NOINLINE float ProdF32(const float* x, int64_t n) { return Prod(x, n); }
OPD_FUNC HWY_NOINLINE double ProdF64(const double* x, int64_t n) { return Prod(x, n); }
OPD_FUNC HWY_NOINLINE double SumF64(const double* x, int64_t n) { return SumPairwise(x, n); }
OPD_FUNC HWY_NOINLINE float MaxF32(const float* x, int64_t n) { return Extreme<true>(x, n); }
OPD_FUNC HWY_NOINLINE double MaxF64(const double* x, int64_t n) { return Extreme<true>(x, n); }
OPD_FUNC HWY_NOINLINE float MinF32(const float* x, int64_t n) { return Extreme<false>(x, n); }
OPD_FUNC HWY_NOINLINE double MinF64(const double* x, int64_t n) { return Extreme<false>(x, n); }
OPD_FUNC HWY_NOINLINE uint64_t MaxU64(const uint64_t* x, int64_t n) { return MaxUnsigned(x, n); }

// softmax: y = exp(x - max) * (1 / sum); log_softmax: y = (x - max) - log(sum).
// A NaN anywhere makes the sum, hence every output, NaN (as ATen).
OPD_FUNC HWY_NOINLINE void SoftmaxF32(const float* x, float* y, int64_t n, bool log) {
  const hn::ScalableTag<float> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const float m = Extreme<true>(x, n);
  const auto vm = hn::Set(d, m);
  auto acc = hn::Zero(d);
  float tail = 0;
  int64_t i = 0;
  if (log) {
    for (; i + N <= n; i += N) acc = hn::Add(acc, hn::Exp(d, hn::Sub(hn::LoadU(d, x + i), vm)));
    for (; i < n; ++i) tail += std::exp(x[i] - m);
    const float log_s = std::log(hn::GetLane(hn::SumOfLanes(d, acc)) + tail);
    const auto vl = hn::Set(d, log_s);
    // (x - max) - log(sum), ATen's order (x - (max + log(sum)) loses digits of small results).
    for (i = 0; i + N <= n; i += N) hn::StoreU(hn::Sub(hn::Sub(hn::LoadU(d, x + i), vm), vl), d, y + i);
    for (; i < n; ++i) y[i] = (x[i] - m) - log_s;
    return;
  }
  for (; i + N <= n; i += N) {
    const auto e = hn::Exp(d, hn::Sub(hn::LoadU(d, x + i), vm));
    hn::StoreU(e, d, y + i);
    acc = hn::Add(acc, e);
  }
  for (; i < n; ++i) {
    y[i] = std::exp(x[i] - m);
    tail += y[i];
  }
  const float inv = 1.0f / (hn::GetLane(hn::SumOfLanes(d, acc)) + tail);
  const auto vinv = hn::Set(d, inv);
  for (i = 0; i + N <= n; i += N) hn::StoreU(hn::Mul(hn::LoadU(d, y + i), vinv), d, y + i);
  for (; i < n; ++i) y[i] *= inv;
}

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::dispatch_detail
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
