// The per-target bodies of arith_simd-inl.hpp: Highway's foreach_target.h
// includes this file once per instruction set (so no #pragma once; the
// toggle below is Highway's per-target include guard).
#if defined(OPD_ARITH_SIMD_TARGETS_TOGGLE) == defined(HWY_TARGET_TOGGLE)
#ifdef OPD_ARITH_SIMD_TARGETS_TOGGLE
#undef OPD_ARITH_SIMD_TARGETS_TOGGLE
#else
#define OPD_ARITH_SIMD_TARGETS_TOGGLE
#endif

#include <cstdint>
#include <cstring>

#include <hwy/highway.h>

#include "dispatch/config.hpp"  // OPD_FUNC: inline when header-only (two files may include this)
#include "kernels/cpu/basic_arith.hpp"
#include "kernels/cpu/pointwise_ops.hpp"

HWY_BEFORE_NAMESPACE();
namespace opd::kernels::simd::arith_detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#include "kernels/cpu/sleef_targets-inl.hpp"  // OPD_SLEEF_F/D, VF, VD, OPD_SLEEF_BINARY for this target

#ifdef OPD_SLEEF_F
OPD_SLEEF_BINARY(Fmod, fmod, )  // exact
OPD_SLEEF_BINARY(Atan2, atan2, u10)

// The scalar functors' formulas (BinaryPointwise::floating_op), lane by lane:
// remainder: mod = fmod(a, b), plus b when mod != 0 and its sign differs
// from b's.
struct Remainder {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    const V zero = hn::Zero(hn::DFromV<V>());
    const V mod = Fmod()(a, b);
    const auto fix = hn::And(hn::Ne(mod, zero), hn::Xor(hn::Lt(b, zero), hn::Lt(mod, zero)));
    return hn::IfThenElse(fix, hn::Add(mod, b), mod);
  }
};
struct DivTrunc {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Trunc(hn::Div(a, b)); }
};
// floor_divide and div(rounding_mode='floor'): Python's floor division as
// ATen computes it (b == 0: a / b; the quotient of a - fmod(a, b), one less
// when the remainder's sign differs from b's, a zero signed as a / b, then
// rounded to the nearest integer).
struct DivFloor {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    const hn::DFromV<V> d;
    const V zero = hn::Zero(d);
    const V one = hn::Set(d, 1);
    const V quot = hn::Div(a, b);
    const V mod = Fmod()(a, b);
    V div = hn::Div(hn::Sub(a, mod), b);
    const auto fix = hn::And(hn::Ne(mod, zero), hn::Xor(hn::Lt(b, zero), hn::Lt(mod, zero)));
    div = hn::IfThenElse(fix, hn::Sub(div, one), div);
    V floordiv = hn::Floor(div);
    floordiv = hn::IfThenElse(hn::Gt(hn::Sub(div, floordiv), hn::Set(d, 0.5)), hn::Add(floordiv, one), floordiv);
    const V result = hn::IfThenElse(hn::Eq(div, zero), hn::CopySign(zero, quot), floordiv);
    return hn::IfThenElse(hn::Eq(b, zero), quot, result);
  }
};

// add, sub, mul, div: one instruction each. maximum / minimum:
// std::max(a, b) / std::min(a, b) exactly (the x86 instructions return the
// second operand when either is NaN; std::max returns a), then a NaN on
// either side propagates, a's first (BinaryPointwise).
struct AddRow {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Add(a, b); }
};
struct SubRow {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Sub(a, b); }
};
struct MulRow {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Mul(a, b); }
};
struct DivRow {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const { return hn::Div(a, b); }
};
template <bool IsMax>
struct MaxMin {
  template <class V>
  HWY_INLINE V operator()(V a, V b) const {
    const V m = IsMax ? hn::IfThenElse(hn::Lt(a, b), b, a) : hn::IfThenElse(hn::Lt(b, a), b, a);
    return hn::IfThenElse(hn::IsNaN(a), a, hn::IfThenElse(hn::IsNaN(b), b, m));
  }
};

// Whole vectors, then the tail through padded vectors, so that every
// element goes through the same function. Broadcast: bit 0 a, bit 1 b.
template <unsigned Broadcast, class T, class F>
HWY_INLINE void Rows(const T* a, const T* b, T* out, int64_t n, F f) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  constexpr bool kA = (Broadcast & 1u) != 0;
  constexpr bool kB = (Broadcast & 2u) != 0;
  const auto va = hn::Set(d, a[0]);
  const auto vb = hn::Set(d, b[0]);
  int64_t i = 0;
  for (; i + N <= n; i += N) {
    hn::StoreU(f(kA ? va : hn::LoadU(d, a + i), kB ? vb : hn::LoadU(d, b + i)), d, out + i);
  }
  if (i < n) {
    const auto m = static_cast<std::size_t>(n - i) * sizeof(T);
    HWY_ALIGN T ba[HWY_MAX_BYTES / sizeof(T)] = {};
    HWY_ALIGN T bb[HWY_MAX_BYTES / sizeof(T)] = {};
    if (!kA) std::memcpy(ba, a + i, m);
    if (!kB) std::memcpy(bb, b + i, m);
    hn::Store(f(kA ? va : hn::Load(d, ba), kB ? vb : hn::Load(d, bb)), d, ba);
    std::memcpy(out + i, ba, m);
  }
}

template <class T, class F>
HWY_INLINE void RowsAny(const T* a, const T* b, T* out, int64_t n, unsigned broadcast, F f) {
  switch (broadcast) {
    case 0: Rows<0>(a, b, out, n, f); break;
    case 1: Rows<1>(a, b, out, n, f); break;
    case 2: Rows<2>(a, b, out, n, f); break;
    default: Rows<3>(a, b, out, n, f); break;
  }
}

template <class T>
HWY_INLINE bool Arith(PointwiseOp op, const T* a, const T* b, T* out, int64_t n, unsigned broadcast) {
  switch (op) {
    case PointwiseOp::Maximum: RowsAny(a, b, out, n, broadcast, MaxMin<true>()); return true;
    case PointwiseOp::Minimum: RowsAny(a, b, out, n, broadcast, MaxMin<false>()); return true;
    case PointwiseOp::Remainder: RowsAny(a, b, out, n, broadcast, Remainder()); return true;
    case PointwiseOp::Fmod: RowsAny(a, b, out, n, broadcast, Fmod()); return true;
    case PointwiseOp::Atan2: RowsAny(a, b, out, n, broadcast, Atan2()); return true;
    case PointwiseOp::DivTrunc: RowsAny(a, b, out, n, broadcast, DivTrunc()); return true;
    case PointwiseOp::FloorDivide:
    case PointwiseOp::DivFloor: RowsAny(a, b, out, n, broadcast, DivFloor()); return true;
    default: return false;
  }
}

template <class T>
HWY_INLINE bool Basic(BasicArith op, const T* a, const T* b, T* out, int64_t n, unsigned broadcast) {
  switch (op) {
    case BasicArith::Add: RowsAny(a, b, out, n, broadcast, AddRow()); return true;
    case BasicArith::Sub: RowsAny(a, b, out, n, broadcast, SubRow()); return true;
    case BasicArith::Mul: RowsAny(a, b, out, n, broadcast, MulRow()); return true;
    case BasicArith::Div: RowsAny(a, b, out, n, broadcast, DivRow()); return true;
  }
  return false;
}
OPD_FUNC HWY_NOINLINE bool BasicF32(BasicArith op, const float* a, const float* b, float* out, int64_t n,
                                    unsigned broadcast) {
  return Basic(op, a, b, out, n, broadcast);
}
OPD_FUNC HWY_NOINLINE bool BasicF64(BasicArith op, const double* a, const double* b, double* out, int64_t n,
                                    unsigned broadcast) {
  return Basic(op, a, b, out, n, broadcast);
}

OPD_FUNC HWY_NOINLINE bool ArithF32(PointwiseOp op, const float* a, const float* b, float* out, int64_t n,
                                    unsigned broadcast) {
  return Arith(op, a, b, out, n, broadcast);
}
OPD_FUNC HWY_NOINLINE bool ArithF64(PointwiseOp op, const double* a, const double* b, double* out, int64_t n,
                                    unsigned broadcast) {
  return Arith(op, a, b, out, n, broadcast);
}

#else  // a target without Sleef functions (EMU128, SCALAR): the scalar loops serve

OPD_FUNC HWY_NOINLINE bool BasicF32(BasicArith, const float*, const float*, float*, int64_t, unsigned) {
  return false;
}
OPD_FUNC HWY_NOINLINE bool BasicF64(BasicArith, const double*, const double*, double*, int64_t, unsigned) {
  return false;
}

OPD_FUNC HWY_NOINLINE bool ArithF32(PointwiseOp, const float*, const float*, float*, int64_t, unsigned) {
  return false;
}
OPD_FUNC HWY_NOINLINE bool ArithF64(PointwiseOp, const double*, const double*, double*, int64_t, unsigned) {
  return false;
}

#endif  // OPD_SLEEF_F

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::arith_detail
HWY_AFTER_NAMESPACE();

#undef OPD_SLEEF_F
#undef OPD_SLEEF_D

#endif  // per-target include guard
