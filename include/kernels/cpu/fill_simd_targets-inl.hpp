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

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::fill_detail
HWY_AFTER_NAMESPACE();

#endif  // OPD_FILL_SIMD_TARGETS_TOGGLE
