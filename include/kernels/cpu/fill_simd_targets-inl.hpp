// The per-target body of fill_simd-inl.hpp: Highway's foreach_target.h
// includes this file once per instruction set (so no #pragma once; the
// toggle below is Highway's per-target include guard).
#if defined(OPD_FILL_SIMD_TARGETS_TOGGLE) == defined(HWY_TARGET_TOGGLE)
#ifdef OPD_FILL_SIMD_TARGETS_TOGGLE
#undef OPD_FILL_SIMD_TARGETS_TOGGLE
#else
#define OPD_FILL_SIMD_TARGETS_TOGGLE
#endif

#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "dispatch/config.hpp"  // OPD_FUNC: inline when header-only (two files may include this)

HWY_BEFORE_NAMESPACE();
namespace opd::kernels::simd::fill_detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Whole vectors of the pattern, then the tail element by element.
template <class U>
HWY_INLINE void FillRow(U* out, U bits, int64_t n) {
  const hn::ScalableTag<U> d;
  const auto v = hn::Set(d, bits);
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(v, d, out + i);
  for (; i < n; ++i) out[i] = bits;
}

template <class U>
HWY_INLINE void FillAs(void* out, const void* value, int64_t n) {
  U bits;
  std::memcpy(&bits, value, sizeof(U));
  FillRow(static_cast<U*>(out), bits, n);
}

OPD_FUNC HWY_NOINLINE bool FillBits(void* out, const void* value, int64_t elem_bytes, int64_t n) {
  switch (elem_bytes) {
    case 1: FillAs<uint8_t>(out, value, n); return true;
    case 2: FillAs<uint16_t>(out, value, n); return true;
    case 4: FillAs<uint32_t>(out, value, n); return true;
    case 8: FillAs<uint64_t>(out, value, n); return true;
    default: return false;
  }
}

// copy_bytes (fill_simd.hpp): four vectors per step, then one, then bytes.
OPD_FUNC HWY_NOINLINE bool CopyBytes(void* dst, const void* src, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  auto* HWY_RESTRICT o = static_cast<uint8_t*>(dst);
  const auto* HWY_RESTRICT s = static_cast<const uint8_t*>(src);
  int64_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    const auto a = hn::LoadU(d, s + i), b = hn::LoadU(d, s + i + N), c = hn::LoadU(d, s + i + 2 * N),
               e = hn::LoadU(d, s + i + 3 * N);
    hn::StoreU(a, d, o + i);
    hn::StoreU(b, d, o + i + N);
    hn::StoreU(c, d, o + i + 2 * N);
    hn::StoreU(e, d, o + i + 3 * N);
  }
  for (; i + N <= n; i += N) hn::StoreU(hn::LoadU(d, s + i), d, o + i);
  if (i < n) std::memcpy(o + i, s + i, static_cast<std::size_t>(n - i));
  return true;
}

// arange_range (fill_simd.hpp): double arithmetic, rounded to T per element.
template <class T>
HWY_INLINE void ArangeAs(T* out, int64_t b, int64_t e, double start, double step) {
  const hn::CappedTag<double, 4> d;  // a block of `lanes` is 1, 2 or 4 of these
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  constexpr int64_t lanes = 32 / static_cast<int64_t>(sizeof(T));
  const hn::CappedTag<double, 1> d1;
  const auto vstep = hn::Set(d, step);
  // value(i) = fma(step, i, start), one lane (i < 2^53: exact in double)
  const auto value = [&](int64_t i) {
    return hn::GetLane(hn::MulAdd(hn::Set(d1, step), hn::Set(d1, static_cast<double>(i)), hn::Set(d1, start)));
  };
  // ATen's loop takes pairs of vectors, then single elements
  const int64_t paired_end = b + (e - b) / (2 * lanes) * (2 * lanes);
  int64_t i = b;
  for (; i < paired_end; i += lanes) {
    const auto base = hn::Set(d, static_cast<double>(static_cast<T>(value(i))));
    for (int64_t c = 0; c < lanes; c += N) {
      const auto v = hn::MulAdd(hn::Iota(d, static_cast<double>(c)), vstep, base);
      if constexpr (sizeof(T) == 8) {
        hn::StoreU(v, d, out + i + c);
      } else {
        const hn::Rebind<float, decltype(d)> df;
        hn::StoreU(hn::DemoteTo(df, v), df, out + i + c);
      }
    }
  }
  for (; i < e; ++i) out[i] = static_cast<T>(value(i));
}

OPD_FUNC HWY_NOINLINE bool ArangeRange(void* out, bool is_double, int64_t b, int64_t e, double start, double step) {
#if HWY_NATIVE_FMA
  if (is_double) ArangeAs(static_cast<double*>(out), b, e, start, step);
  else ArangeAs(static_cast<float*>(out), b, e, start, step);
  return true;
#else
  (void)out, (void)is_double, (void)b, (void)e, (void)start, (void)step;
  return false;
#endif
}

// linspace_range (fill_simd.hpp): T's own arithmetic.
template <class T>
HWY_INLINE void LinspaceAs(T* out, int64_t b, int64_t e, int64_t steps, T start, T end) {
  constexpr int64_t lanes = 32 / static_cast<int64_t>(sizeof(T));
  const hn::CappedTag<T, lanes> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  const hn::CappedTag<T, 1> d1;
  const T step = (end - start) / static_cast<T>(steps - 1);
  const int64_t halfway = steps / 2;
  const auto value = [&](int64_t i) {
    return i < halfway
               ? hn::GetLane(hn::MulAdd(hn::Set(d1, step), hn::Set(d1, static_cast<T>(i)), hn::Set(d1, start)))
               : hn::GetLane(hn::MulAdd(hn::Set(d1, -step), hn::Set(d1, static_cast<T>(steps - i - 1)), hn::Set(d1, end)));
  };
  const auto vstep = hn::Set(d, step);
  const int64_t paired_end = b + (e - b) / (2 * lanes) * (2 * lanes);
  int64_t i = b;
  for (; i < paired_end; i += lanes) {
    const auto base = hn::Set(d, value(i));
    for (int64_t c = 0; c < lanes; c += N)
      hn::StoreU(hn::Add(base, hn::Mul(hn::Iota(d, static_cast<T>(c)), vstep)), d, out + i + c);  // two roundings, as ATen
  }
  for (; i < e; ++i) out[i] = value(i);
}

OPD_FUNC HWY_NOINLINE bool LinspaceRange(void* out, bool is_double, int64_t b, int64_t e, int64_t steps, double start,
                                         double end) {
#if HWY_NATIVE_FMA
  if (is_double) LinspaceAs<double>(static_cast<double*>(out), b, e, steps, start, end);
  else LinspaceAs<float>(static_cast<float*>(out), b, e, steps, static_cast<float>(start), static_cast<float>(end));
  return true;
#else
  (void)out, (void)is_double, (void)b, (void)e, (void)steps, (void)start, (void)end;
  return false;
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::fill_detail
HWY_AFTER_NAMESPACE();

#endif  // OPD_FILL_SIMD_TARGETS_TOGGLE
