// The per-target bodies of unary_simd-inl.hpp: Highway's foreach_target.h
// includes this file once per instruction set (so no #pragma once; the
// toggle below is Highway's per-target include guard).
#if defined(OPD_UNARY_SIMD_TARGETS_TOGGLE) == defined(HWY_TARGET_TOGGLE)
#ifdef OPD_UNARY_SIMD_TARGETS_TOGGLE
#undef OPD_UNARY_SIMD_TARGETS_TOGGLE
#else
#define OPD_UNARY_SIMD_TARGETS_TOGGLE
#endif

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>

#include <hwy/highway.h>

#include "dispatch/config.hpp"  // OPD_FUNC: inline when header-only (two files may include this)
#include "kernels/cpu/pointwise_ops.hpp"

HWY_BEFORE_NAMESPACE();
namespace opd::kernels::simd::unary_detail {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#include "kernels/cpu/sleef_targets-inl.hpp"  // OPD_SLEEF_F/D, VF, VD, OPD_SLEEF_UNARY for this target

#ifdef OPD_SLEEF_F
OPD_SLEEF_UNARY(Exp, exp, u10)
OPD_SLEEF_UNARY(Exp2, exp2, u10)
OPD_SLEEF_UNARY(Expm1, expm1, u10)
OPD_SLEEF_UNARY(Log, log, u10)
OPD_SLEEF_UNARY(Log2, log2, u10)
OPD_SLEEF_UNARY(Log10, log10, u10)
OPD_SLEEF_UNARY(Log1p, log1p, u10)
OPD_SLEEF_UNARY(Sin, sin, u10)
OPD_SLEEF_UNARY(Cos, cos, u10)
OPD_SLEEF_UNARY(Tan, tan, u10)
OPD_SLEEF_UNARY(Asin, asin, u10)
OPD_SLEEF_UNARY(Acos, acos, u10)
OPD_SLEEF_UNARY(Atan, atan, u10)
OPD_SLEEF_UNARY(Sinh, sinh, u10)
OPD_SLEEF_UNARY(Cosh, cosh, u10)
OPD_SLEEF_UNARY(Tanh, tanh, u10)
OPD_SLEEF_UNARY(Erf, erf, u10)
OPD_SLEEF_UNARY(Erfc, erfc, u15)

// The ops that are exact IEEE arithmetic, and the two built on exp, with the
// scalar functors' formulas: 1 / (1 + exp(-x)) and x / (1 + exp(-x)).
struct Sqrt {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Sqrt(v); }
};
struct Rsqrt {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Div(hn::Set(hn::DFromV<V>(), 1), hn::Sqrt(v)); }
};
struct Reciprocal {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Div(hn::Set(hn::DFromV<V>(), 1), v); }
};
struct Sigmoid {
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const V one = hn::Set(hn::DFromV<V>(), 1);
    return hn::Div(one, hn::Add(one, Exp()(hn::Neg(v))));
  }
};
struct Silu {
  template <class V>
  HWY_INLINE V operator()(V v) const {
    return hn::Div(v, hn::Add(hn::Set(hn::DFromV<V>(), 1), Exp()(hn::Neg(v))));
  }
};

// The rounding family: one instruction each from SSE4 on (the default build's
// SSE2 has none, so its scalar loops call libm per element). Round is half
// to even, as std::nearbyint in the default rounding mode.
struct Floor {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Floor(v); }
};
struct Ceil {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Ceil(v); }
};
struct Round {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Round(v); }
};
struct Trunc {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Trunc(v); }
};
struct Frac {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Sub(v, hn::Trunc(v)); }
};

// std::max(a, b) and std::min(a, b) exactly, NaN included (the x86 max/min
// instructions return the second operand when either is NaN; std::max
// returns a).
template <class V>
HWY_INLINE V StdMax(V a, V b) { return hn::IfThenElse(hn::Lt(a, b), b, a); }
template <class V>
HWY_INLINE V StdMin(V a, V b) { return hn::IfThenElse(hn::Lt(b, a), b, a); }

// The keep-kind ops with the scalar functors' results bit for bit (KeepUnary):
// relu zeroes x < 0 only (NaN and -0.0 pass, as clamp_min(x, 0)); sign is
// (0 < x) - (x < 0), so 0 for NaN and ±0; abs clears the sign bit (fabs).
struct Neg {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Neg(v); }
};
struct Abs {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::Abs(v); }
};
struct Relu {
  template <class V>
  HWY_INLINE V operator()(V v) const { return hn::IfThenZeroElse(hn::Lt(v, hn::Zero(hn::DFromV<V>())), v); }
};
struct Sign {
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    const V zero = hn::Zero(d);
    const V one = hn::Set(d, 1);
    return hn::Sub(hn::IfThenElseZero(hn::Lt(zero, v), one), hn::IfThenElseZero(hn::Lt(v, zero), one));
  }
};

// The scalar functors' formulas (pointwise_functors-inl.hpp), same order of
// operations: gelu x * 0.5 * erfc(-x / sqrt(2)), its tanh form, and
// hardswish x * min(max(x + 3, 0), 6) / 6.
//
// Float gelu: Sleef's erfcf (u15) took 3.3 ms per 2^20 floats on AVX-512,
// ten times its expf, and gelu 5x ATen's time. There it is x * Phi(x) with
// Phi(-|x|) = erfc(z) / 2, z = |x| / sqrt(2), and erfc(z) = t exp(P(t) - z^2),
// t = 1 / (1 + z / 2): P a degree-9 polynomial fitted here (least squares on
// Chebyshev nodes, z in [0, 10]) to 2.3e-7 relative error in exact
// arithmetic, so a few ULP in float and relative accuracy in the tail, where
// ATen's 0.5 x (1 + erf(x / sqrt(2))) cancels to 0. Double keeps Sleef's erfc.
struct Gelu {
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    const V half = hn::Set(d, 0.5);
    if constexpr (sizeof(hn::TFromV<V>) == 4) {
      static constexpr float kP[] = {0.16628109f,  -0.78879572f, 1.39121307f, -0.98231318f, 0.1349858f,
                                     -0.10196368f, 0.06603412f,  0.38080044f, 0.99923215f,  -1.26547386f};
      const V one = hn::Set(d, 1);
      const V z = hn::Mul(hn::Abs(v), hn::Set(d, 0.70710678118654752440f));  // |x| / sqrt(2)
      const V t = hn::Div(one, hn::MulAdd(half, z, one));
      // P(t) by Estrin's scheme: a chain of 4 dependent steps, not 9, so that
      // the loop is bound by its arithmetic rather than by that latency
      const auto c = [&](std::size_t i) { return hn::Set(d, kP[i]); };
      const V t2 = hn::Mul(t, t);
      const V t4 = hn::Mul(t2, t2);
      const V q0 = hn::MulAdd(c(8), t, c(9)), q1 = hn::MulAdd(c(6), t, c(7)), q2 = hn::MulAdd(c(4), t, c(5)),
              q3 = hn::MulAdd(c(2), t, c(3)), q4 = hn::MulAdd(c(0), t, c(1));
      const V lo = hn::MulAdd(q1, t2, q0);           // degrees 0-3
      const V hi = hn::MulAdd(q3, t2, q2);           // degrees 4-7
      const V p = hn::MulAdd(hn::MulAdd(q4, t4, hi), t4, lo);
      const V tail = hn::Mul(half, hn::Mul(t, Exp()(hn::NegMulAdd(z, z, p))));  // Phi(-|x|)
      return hn::Mul(v, hn::IfThenElse(hn::Lt(v, hn::Zero(d)), tail, hn::Sub(one, tail)));
    } else {
      const V k = hn::Set(d, -0.5 * 1.41421356237309504880);  // -1 / sqrt(2)
      return hn::Mul(hn::Mul(v, half), Erfc()(hn::Mul(v, k)));
    }
  }
};
struct GeluTanh {
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    const V beta = hn::Set(d, 1.41421356237309504880 * 0.56418958354775628695);  // sqrt(2 / pi)
    const V cube = hn::Mul(hn::Mul(hn::Mul(hn::Set(d, 0.044715), v), v), v);
    const V inner = hn::Mul(beta, hn::Add(v, cube));
    return hn::Mul(hn::Mul(hn::Set(d, 0.5), v), hn::Add(hn::Set(d, 1), Tanh()(inner)));
  }
};
struct Hardswish {
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    const V clamped = StdMin(StdMax(hn::Add(v, hn::Set(d, 3)), hn::Zero(d)), hn::Set(d, 6));
    return hn::Div(hn::Mul(v, clamped), hn::Set(d, 6));
  }
};
// softplus: x * beta > threshold ? x : log1p(exp(x * beta)) / beta.
template <class T>
struct Softplus {
  T beta, threshold;
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    const V b = hn::Set(d, beta);
    const V xb = hn::Mul(v, b);
    const V soft = hn::Div(Log1p()(Exp()(xb)), b);
    return hn::IfThenElse(hn::Gt(xb, hn::Set(d, threshold)), v, soft);
  }
};

// elu: x <= 0 ? expm1(x * input_scale) * alpha * scale : x * scale, as the
// scalar EluOp (NaN takes the second branch), expm1 only for vectors with a
// lane <= 0; leaky_relu: x > 0 ? x : x * slope.
template <class T>
struct Elu {
  T negcoef, poscoef, negiptcoef;
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    const V pos = hn::Mul(v, hn::Set(d, poscoef));
    const auto nonpositive = hn::Le(v, hn::Zero(d));
    if (hn::AllFalse(d, nonpositive)) return pos;  // no expm1 when no lane needs it (as ATen's)
    const V neg = hn::Mul(Expm1()(hn::Mul(v, hn::Set(d, negiptcoef))), hn::Set(d, negcoef));
    return hn::IfThenElse(nonpositive, neg, pos);
  }
};
template <class T>
struct LeakyRelu {
  T slope;
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    return hn::IfThenElse(hn::Gt(v, hn::Zero(d)), v, hn::Mul(v, hn::Set(d, slope)));
  }
};

// Whole vectors, then the tail through a padded vector, so that every
// element goes through the same function.
template <class T, class F>
HWY_INLINE void Rows(const T* in, T* out, int64_t n, F f) {
  const hn::ScalableTag<T> d;
  const int64_t N = static_cast<int64_t>(hn::Lanes(d));
  int64_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(f(hn::LoadU(d, in + i)), d, out + i);
  if (i < n) {
    HWY_ALIGN T buf[HWY_MAX_BYTES / sizeof(T)] = {};
    std::memcpy(buf, in + i, static_cast<std::size_t>(n - i) * sizeof(T));
    hn::Store(f(hn::Load(d, buf)), d, buf);
    std::memcpy(out + i, buf, static_cast<std::size_t>(n - i) * sizeof(T));
  }
}

// a, b: softplus's beta and threshold; a, b, c: elu's alpha, scale and
// input_scale; a: leaky_relu's slope (unused by the other ops).
template <class T>
HWY_INLINE bool Unary(UnaryOp op, const T* in, T* out, int64_t n, double a, double b, double c) {
  switch (op) {
    case UnaryOp::Exp: Rows(in, out, n, Exp()); return true;
    case UnaryOp::Exp2: Rows(in, out, n, Exp2()); return true;
    case UnaryOp::Expm1: Rows(in, out, n, Expm1()); return true;
    case UnaryOp::Log: Rows(in, out, n, Log()); return true;
    case UnaryOp::Log2: Rows(in, out, n, Log2()); return true;
    case UnaryOp::Log10: Rows(in, out, n, Log10()); return true;
    case UnaryOp::Log1p: Rows(in, out, n, Log1p()); return true;
    case UnaryOp::Sqrt: Rows(in, out, n, Sqrt()); return true;
    case UnaryOp::Rsqrt: Rows(in, out, n, Rsqrt()); return true;
    case UnaryOp::Reciprocal: Rows(in, out, n, Reciprocal()); return true;
    case UnaryOp::Sin: Rows(in, out, n, Sin()); return true;
    case UnaryOp::Cos: Rows(in, out, n, Cos()); return true;
    case UnaryOp::Tan: Rows(in, out, n, Tan()); return true;
    case UnaryOp::Asin: Rows(in, out, n, Asin()); return true;
    case UnaryOp::Acos: Rows(in, out, n, Acos()); return true;
    case UnaryOp::Atan: Rows(in, out, n, Atan()); return true;
    case UnaryOp::Sinh: Rows(in, out, n, Sinh()); return true;
    case UnaryOp::Cosh: Rows(in, out, n, Cosh()); return true;
    case UnaryOp::Tanh: Rows(in, out, n, Tanh()); return true;
    case UnaryOp::Sigmoid: Rows(in, out, n, Sigmoid()); return true;
    case UnaryOp::Erf: Rows(in, out, n, Erf()); return true;
    case UnaryOp::Erfc: Rows(in, out, n, Erfc()); return true;
    case UnaryOp::Silu: Rows(in, out, n, Silu()); return true;
    case UnaryOp::Neg: Rows(in, out, n, Neg()); return true;
    case UnaryOp::Abs: Rows(in, out, n, Abs()); return true;
    case UnaryOp::Relu: Rows(in, out, n, Relu()); return true;
    case UnaryOp::Sign: Rows(in, out, n, Sign()); return true;
    case UnaryOp::Floor: Rows(in, out, n, Floor()); return true;
    case UnaryOp::Ceil: Rows(in, out, n, Ceil()); return true;
    case UnaryOp::Round: Rows(in, out, n, Round()); return true;
    case UnaryOp::Trunc: Rows(in, out, n, Trunc()); return true;
    case UnaryOp::Frac: Rows(in, out, n, Frac()); return true;
    case UnaryOp::Gelu: Rows(in, out, n, Gelu()); return true;
    case UnaryOp::GeluTanh: Rows(in, out, n, GeluTanh()); return true;
    case UnaryOp::Hardswish: Rows(in, out, n, Hardswish()); return true;
    case UnaryOp::Softplus: Rows(in, out, n, Softplus<T>{static_cast<T>(a), static_cast<T>(b)}); return true;
    // (the scalar EluOp's coefficients, rounded to T as it rounds them)
    case UnaryOp::Elu:
      Rows(in, out, n, Elu<T>{static_cast<T>(a) * static_cast<T>(b), static_cast<T>(b), static_cast<T>(c)});
      return true;
    case UnaryOp::LeakyRelu: Rows(in, out, n, LeakyRelu<T>{static_cast<T>(a)}); return true;
    default: return false;
  }
}

OPD_FUNC HWY_NOINLINE bool UnaryF32(UnaryOp op, const float* in, float* out, int64_t n, double a, double b, double c) {
  return Unary(op, in, out, n, a, b, c);
}
OPD_FUNC HWY_NOINLINE bool UnaryF64(UnaryOp op, const double* in, double* out, int64_t n, double a, double b,
                                    double c) {
  return Unary(op, in, out, n, a, b, c);
}

// clamp with Scalar bounds: std::min(std::max(x, lo), hi), as ClampScalarBounds.
template <class T>
struct Clamp {
  T lo, hi;
  template <class V>
  HWY_INLINE V operator()(V v) const {
    const hn::DFromV<V> d;
    return StdMin(StdMax(v, hn::Set(d, lo)), hn::Set(d, hi));
  }
};
OPD_FUNC HWY_NOINLINE bool ClampF32(const float* in, float* out, int64_t n, float lo, float hi) {
  Rows(in, out, n, Clamp<float>{lo, hi});
  return true;
}
OPD_FUNC HWY_NOINLINE bool ClampF64(const double* in, double* out, int64_t n, double lo, double hi) {
  Rows(in, out, n, Clamp<double>{lo, hi});
  return true;
}

#else  // a target without Sleef functions (EMU128, SCALAR): the scalar loops serve

OPD_FUNC HWY_NOINLINE bool UnaryF32(UnaryOp, const float*, float*, int64_t, double, double, double) { return false; }
OPD_FUNC HWY_NOINLINE bool UnaryF64(UnaryOp, const double*, double*, int64_t, double, double, double) { return false; }
OPD_FUNC HWY_NOINLINE bool ClampF32(const float*, float*, int64_t, float, float) { return false; }
OPD_FUNC HWY_NOINLINE bool ClampF64(const double*, double*, int64_t, double, double) { return false; }

#endif  // OPD_SLEEF_F

}  // namespace HWY_NAMESPACE
}  // namespace opd::kernels::simd::unary_detail
HWY_AFTER_NAMESPACE();

#undef OPD_SLEEF_F
#undef OPD_SLEEF_D

#endif  // per-target include guard
