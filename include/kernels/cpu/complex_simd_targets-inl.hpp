// The per-target bodies of complex_simd-inl.hpp: Highway's foreach_target.h
// includes this file once per instruction set (so no #pragma once; the
// toggle below is Highway's per-target include guard).
#if defined(OPD_COMPLEX_SIMD_TARGETS_TOGGLE) == defined(HWY_TARGET_TOGGLE)
#ifdef OPD_COMPLEX_SIMD_TARGETS_TOGGLE
#undef OPD_COMPLEX_SIMD_TARGETS_TOGGLE
#else
#define OPD_COMPLEX_SIMD_TARGETS_TOGGLE
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "dispatch/config.hpp"  // OPD_FUNC: inline when header-only (two files may include this)
#include "kernels/cpu/pointwise_ops.hpp"

HWY_BEFORE_NAMESPACE();
namespace opd::kernels::simd::complex_detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#include "kernels/cpu/sleef_targets-inl.hpp"  // OPD_SLEEF_F/D, VF, VD, OPD_SLEEF_BINARY for this target

#ifdef OPD_SLEEF_F
OPD_SLEEF_BINARY(Atan2, atan2, u10)

// |z| from the parts: sqrt(a*a + b*b), as complex_abs.
template <class V>
HWY_INLINE V Modulus(V re, V im) {
  return hn::Sqrt(hn::Add(hn::Mul(re, re), hn::Mul(im, im)));
}

// f(d, re, im, out + offset) on whole vectors of complex elements, then on
// the tail through zero-padded buffers, so that every element goes through
// the same function. `out_per` values of out per element (2 or 1).
template <class T, class F>
HWY_INLINE void ComplexRows(const T* in, T* out, int64_t n, int64_t out_per, F f) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    hn::Vec<decltype(d)> re, im;
    hn::LoadInterleaved2(d, in + 2 * i, re, im);
    f(d, re, im, out + out_per * i);
  }
  if (i < n) {
    HWY_ALIGN T buf_in[2 * HWY_MAX_BYTES / sizeof(T)] = {};
    HWY_ALIGN T buf_out[2 * HWY_MAX_BYTES / sizeof(T)] = {};
    const std::size_t rest = static_cast<std::size_t>(n - i);
    std::memcpy(buf_in, in + 2 * i, 2 * rest * sizeof(T));
    hn::Vec<decltype(d)> re, im;
    hn::LoadInterleaved2(d, buf_in, re, im);
    f(d, re, im, buf_out);
    std::memcpy(out + out_per * i, buf_out, static_cast<std::size_t>(out_per) * rest * sizeof(T));
  }
}

// The ops' vector bodies (functors, not lambdas: clang does not give
// lambdas the target attributes).
struct Conj {
  template <class D, class V, class T>
  HWY_INLINE void operator()(D d, V re, V im, T* o) const { hn::StoreInterleaved2(re, hn::Neg(im), d, o); }
};
struct Sgn {
  template <class D, class V, class T>
  HWY_INLINE void operator()(D d, V re, V im, T* o) const {
    const V r = Modulus(re, im);
    const auto zero = hn::Eq(r, hn::Zero(d));
    hn::StoreInterleaved2(hn::IfThenZeroElse(zero, hn::Div(re, r)), hn::IfThenZeroElse(zero, hn::Div(im, r)), d, o);
  }
};
struct Abs {
  template <class D, class V, class T>
  HWY_INLINE void operator()(D d, V re, V im, T* o) const { hn::StoreU(Modulus(re, im), d, o); }
};
struct Angle {
  template <class D, class V, class T>
  HWY_INLINE void operator()(D d, V re, V im, T* o) const { hn::StoreU(Atan2()(im, re), d, o); }
};

template <class T>
HWY_INLINE bool Complex(UnaryOp op, const T* in, T* out, int64_t n) {
  switch (op) {
    case UnaryOp::ConjPhysical: ComplexRows(in, out, n, 2, Conj()); return true;
    case UnaryOp::Sgn: ComplexRows(in, out, n, 2, Sgn()); return true;
    case UnaryOp::Abs: ComplexRows(in, out, n, 1, Abs()); return true;
    case UnaryOp::Angle: ComplexRows(in, out, n, 1, Angle()); return true;
    default: return false;
  }
}

OPD_FUNC HWY_NOINLINE bool ComplexF32(UnaryOp op, const float* in, float* out, int64_t n) { return Complex(op, in, out, n); }
OPD_FUNC HWY_NOINLINE bool ComplexF64(UnaryOp op, const double* in, double* out, int64_t n) {
  return Complex(op, in, out, n);
}

#else  // a target without Sleef functions (EMU128, SCALAR): the scalar loops serve

OPD_FUNC HWY_NOINLINE bool ComplexF32(UnaryOp, const float*, float*, int64_t) { return false; }
OPD_FUNC HWY_NOINLINE bool ComplexF64(UnaryOp, const double*, double*, int64_t) { return false; }

#endif  // OPD_SLEEF_F

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::complex_detail
HWY_AFTER_NAMESPACE();

#undef OPD_SLEEF_F
#undef OPD_SLEEF_D

#endif  // per-target include guard
