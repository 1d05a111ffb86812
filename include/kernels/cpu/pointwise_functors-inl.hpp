#pragma once
// The math of the pointwise families, one functor per op, and the loop
// runner they share: the rest of a pointwise kernel (checks, promotion,
// shapes) is pointwise-inl.hpp's. C is the type an op computes in
// (opmath_t of the compute dtype: float for Half/BFloat16). Formulas follow
// PyTorch 1.13's CPU kernels (UnaryOpsKernel.cpp, BinaryOpsKernel.cpp,
// Activation.cpp, TernaryOps), written here anew.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <type_traits>
#include <utility>

#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/pointwise.hpp"

namespace opd::kernels::detail {

// ------------------------------------------------------------ the runner ---

// cpu_kernel<T>, which splits work of more than grain_size elements across
// threads (loops-inl.hpp); smaller work runs on the calling thread.
template <class T, std::size_t N, class Op>
void run_pointwise(const OperandRef& out, const std::array<OperandRef, N>& inputs, const Op& op) {
  cpu_kernel<T>(out, inputs, op);
}

// Integer arithmetic that wraps (two's complement) without UB.
template <class T>
constexpr T wrap_neg(T a) noexcept {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U{0} - static_cast<U>(a));
}

// x < 0, without a comparison an unsigned type makes pointless (nvcc warns).
template <class C>
constexpr bool is_negative(C x) noexcept {
  if constexpr (std::is_signed_v<C> || std::is_floating_point_v<C>) {
    return x < C(0);
  } else {
    return false;
  }
}

template <class C>
constexpr bool is_nan(C a) noexcept {
  if constexpr (std::is_floating_point_v<C>) {
    return a != a;
  } else {
    return false;
  }
}

// ------------------------------------------------------------ unary: float ---
// C is float or double (the float-kind ops promote everything else).

template <UnaryOp K, class C>
struct FloatUnary {
  C operator()(C x) const noexcept {
    if constexpr (K == UnaryOp::Exp) return std::exp(x);
    else if constexpr (K == UnaryOp::Exp2) return std::exp2(x);
    else if constexpr (K == UnaryOp::Expm1) return std::expm1(x);
    else if constexpr (K == UnaryOp::Log) return std::log(x);
    else if constexpr (K == UnaryOp::Log2) return std::log2(x);
    else if constexpr (K == UnaryOp::Log10) return std::log10(x);
    else if constexpr (K == UnaryOp::Log1p) return std::log1p(x);
    else if constexpr (K == UnaryOp::Sqrt) return std::sqrt(x);
    else if constexpr (K == UnaryOp::Rsqrt) return C(1) / std::sqrt(x);
    else if constexpr (K == UnaryOp::Reciprocal) return C(1) / x;
    else if constexpr (K == UnaryOp::Sin) return std::sin(x);
    else if constexpr (K == UnaryOp::Cos) return std::cos(x);
    else if constexpr (K == UnaryOp::Tan) return std::tan(x);
    else if constexpr (K == UnaryOp::Asin) return std::asin(x);
    else if constexpr (K == UnaryOp::Acos) return std::acos(x);
    else if constexpr (K == UnaryOp::Atan) return std::atan(x);
    else if constexpr (K == UnaryOp::Sinh) return std::sinh(x);
    else if constexpr (K == UnaryOp::Cosh) return std::cosh(x);
    else if constexpr (K == UnaryOp::Tanh) return std::tanh(x);
    else if constexpr (K == UnaryOp::Sigmoid) return C(1) / (C(1) + std::exp(-x));
    else if constexpr (K == UnaryOp::Erf) return std::erf(x);
    else if constexpr (K == UnaryOp::Erfc) return std::erfc(x);
    else if constexpr (K == UnaryOp::Acosh) return std::acosh(x);
    else if constexpr (K == UnaryOp::Asinh) return std::asinh(x);
    else if constexpr (K == UnaryOp::Atanh) return std::atanh(x);
    // ATen's angle_impl on reals: pi for negatives, NaN kept, else 0
    else if constexpr (K == UnaryOp::Angle) return x != x ? x : (x < C(0) ? C(std::numbers::pi) : C(0));
    // keep-kind ops on floating dtypes only
    // gelu as x / 2 * erfc(-x / sqrt(2)), not x / 2 * (1 + erf(x / sqrt(2))):
    // for negative x, 1 + erf cancels (ATen's float gelu is 4% off at -5),
    // erfc does not.
    else if constexpr (K == UnaryOp::Gelu) return x * C(0.5) * std::erfc(x * C(-0.5 * std::numbers::sqrt2));
    else if constexpr (K == UnaryOp::GeluTanh) {
      const C beta = C(std::numbers::sqrt2 * std::numbers::inv_sqrtpi);  // sqrt(2 / pi)
      const C inner = beta * (x + C(0.044715) * x * x * x);
      return C(0.5) * x * (C(1) + std::tanh(inner));
    } else if constexpr (K == UnaryOp::Silu) return x / (C(1) + std::exp(-x));
    else if constexpr (K == UnaryOp::Hardswish) return x * std::min(std::max(x + C(3), C(0)), C(6)) / C(6);
    else if constexpr (K == UnaryOp::Hardsigmoid) return std::min(std::max(x + C(3), C(0)), C(6)) / C(6);
    else if constexpr (K == UnaryOp::Frac) return x - std::trunc(x);
    else static_assert(K == UnaryOp::Exp, "not a floating unary op");
  }
};

// softplus(x) = log(1 + exp(beta x)) / beta, linear above threshold.
template <class C>
struct SoftplusOp {
  C beta, threshold;
  C operator()(C x) const noexcept { return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta; }
};

// elu(x) = x > 0 ? scale x : alpha scale (exp(input_scale x) - 1), as ATen's
// (expm1 as its vector path); leaky_relu(x) = x > 0 ? x : negative_slope x.
// NaN passes through both.
template <class C>
struct EluOp {
  C negcoef, poscoef, negiptcoef;  // alpha * scale, scale, input_scale
  C operator()(C x) const noexcept { return x <= C(0) ? std::expm1(x * negiptcoef) * negcoef : x * poscoef; }
};
template <class C>
struct LeakyReluOp {
  C negval;
  C operator()(C x) const noexcept { return x > C(0) ? x : x * negval; }
};

// ------------------------------------------------------------- unary: keep ---
// Any C the op accepts (meta has refused the others).

template <UnaryOp K, class C>
struct KeepUnary {
  C operator()(C x) const noexcept {
    if constexpr (K == UnaryOp::Neg) {
      if constexpr (std::is_integral_v<C>) return wrap_neg(x);
      else return -x;
    } else if constexpr (K == UnaryOp::Abs) {
      if constexpr (std::is_integral_v<C> && std::is_signed_v<C>) return is_negative(x) ? wrap_neg(x) : x;
      else if constexpr (std::is_integral_v<C>) return x;
      else return std::abs(x);
    } else if constexpr (K == UnaryOp::Sign) {
      if constexpr (std::is_same_v<C, bool>) return x;
      else return static_cast<C>((C(0) < x) - is_negative(x));
    } else if constexpr (K == UnaryOp::Relu) {
      return is_negative(x) ? C(0) : x;  // NaN and -0.0 pass, as clamp_min(x, 0)
    } else if constexpr (K == UnaryOp::BitwiseNot) {
      if constexpr (std::is_same_v<C, bool>) return !x;
      else return static_cast<C>(~x);
    } else if constexpr (K == UnaryOp::Floor || K == UnaryOp::Ceil || K == UnaryOp::Round || K == UnaryOp::Trunc) {
      if constexpr (std::is_integral_v<C>) return x;  // integers are their own rounding
      else if constexpr (K == UnaryOp::Floor) return std::floor(x);
      else if constexpr (K == UnaryOp::Ceil) return std::ceil(x);
      else if constexpr (K == UnaryOp::Round) return std::nearbyint(x);  // half to even
      else return std::trunc(x);
    } else {
      static_assert(K == UnaryOp::Neg, "not a keep-kind unary op");
    }
  }
};

template <class C>
struct NanToNumOp {
  C nan, posinf, neginf;
  // Selects, not early returns: the compiler turns them into blends and
  // vectorizes the loop.
  C operator()(C x) const noexcept {
    C r = x == std::numeric_limits<C>::infinity() ? posinf : x;
    r = x == -std::numeric_limits<C>::infinity() ? neginf : r;
    return x != x ? nan : r;
  }
};

// ------------------------------------------------------------- unary: bool ---
// The result is 0 or 1 in C, converted to the output's dtype.

template <UnaryOp K, class C>
struct BoolUnary {
  C operator()(C x) const noexcept {
    if constexpr (K == UnaryOp::LogicalNot) {
      return static_cast<C>(!(x != C(0)));
    } else if constexpr (!std::is_floating_point_v<C>) {
      return static_cast<C>(K == UnaryOp::IsFinite);  // integers are finite
    } else if constexpr (K == UnaryOp::IsNan) {
      return static_cast<C>(x != x);
    } else if constexpr (K == UnaryOp::IsInf) {
      // |x| against infinity, a plain compare as isnan's x != x is, so that
      // the loop vectorizes (std::isinf stayed a scalar compare-and-set per
      // element: isinf over 10^6 floats 3x isnan's time). NaN compares false.
      return static_cast<C>(std::fabs(x) == std::numeric_limits<C>::infinity());
    } else {
      static_assert(K == UnaryOp::IsFinite, "not a bool-kind unary op");
      return static_cast<C>(std::fabs(x) < std::numeric_limits<C>::infinity());  // false for NaN and ±inf
    }
  }
};

// ------------------------------------------------------------------ binary ---

template <PointwiseOp K, class C>
struct BinaryPointwise {
  // exact either way round (the engine runs Scalar op tensor as tensor op Scalar)
  static constexpr bool commutes = K == PointwiseOp::Eq || K == PointwiseOp::Ne || K == PointwiseOp::LogicalAnd ||
                                   K == PointwiseOp::LogicalOr || K == PointwiseOp::LogicalXor ||
                                   K == PointwiseOp::BitwiseAnd || K == PointwiseOp::BitwiseOr ||
                                   K == PointwiseOp::BitwiseXor;
  C operator()(C a, C b) const noexcept {
    if constexpr (K == PointwiseOp::Eq) return static_cast<C>(a == b);
    else if constexpr (K == PointwiseOp::Ne) return static_cast<C>(a != b);
    else if constexpr (K == PointwiseOp::Lt) return static_cast<C>(a < b);
    else if constexpr (K == PointwiseOp::Le) return static_cast<C>(a <= b);
    else if constexpr (K == PointwiseOp::Gt) return static_cast<C>(a > b);
    else if constexpr (K == PointwiseOp::Ge) return static_cast<C>(a >= b);
    else if constexpr (K == PointwiseOp::LogicalAnd) return static_cast<C>((a != C(0)) && (b != C(0)));
    else if constexpr (K == PointwiseOp::LogicalOr) return static_cast<C>((a != C(0)) || (b != C(0)));
    else if constexpr (K == PointwiseOp::LogicalXor) return static_cast<C>((a != C(0)) != (b != C(0)));
    else if constexpr (K == PointwiseOp::Maximum || K == PointwiseOp::Minimum) {
      if constexpr (std::is_same_v<C, bool>) {
        return K == PointwiseOp::Maximum ? (a || b) : (a && b);
      } else {
        if (is_nan(a)) return a;  // NaN propagates from either side
        if (is_nan(b)) return b;
        return K == PointwiseOp::Maximum ? std::max(a, b) : std::min(a, b);
      }
    } else if constexpr (K == PointwiseOp::Pow) {
      if constexpr (std::is_integral_v<C>) return int_pow(a, b);
      else return std::pow(a, b);
    } else if constexpr (K == PointwiseOp::Atan2) {
      return static_cast<C>(std::atan2(a, b));
    } else if constexpr (std::is_integral_v<C>) {
      return integral_op(a, b);
    } else {
      return floating_op(a, b);
    }
  }

 private:
  // Integer division-like ops: the divisor was checked non-zero; x / -1
  // wraps instead of overflowing.
  static C integral_op(C a, C b) noexcept {
    if constexpr (std::is_same_v<C, bool>) {
      if constexpr (K == PointwiseOp::BitwiseAnd) return a && b;
      else if constexpr (K == PointwiseOp::BitwiseOr) return a || b;
      else if constexpr (K == PointwiseOp::BitwiseXor) return a != b;
      else return a;  // unreachable: meta refuses Bool for shifts and divisions
    } else if constexpr (K == PointwiseOp::BitwiseAnd) return static_cast<C>(a & b);
    else if constexpr (K == PointwiseOp::BitwiseOr) return static_cast<C>(a | b);
    else if constexpr (K == PointwiseOp::BitwiseXor) return static_cast<C>(a ^ b);
    else if constexpr (K == PointwiseOp::LeftShift) {
      // As 1.13 computes it on x86: in (at least) 32 bits, the amount taken
      // modulo that width (a negative or too large amount is no error).
      using W = std::conditional_t<(sizeof(C) <= 4), uint32_t, uint64_t>;
      constexpr W mask = sizeof(C) <= 4 ? 31 : 63;
      return static_cast<C>(static_cast<W>(static_cast<std::make_unsigned_t<C>>(a)) << (static_cast<W>(b) & mask));
    } else if constexpr (K == PointwiseOp::RightShift) {
      // One variable shift by min(amount, max_shift), a negative amount
      // (huge as unsigned) included: no branch, so the loop vectorizes.
      using UC = std::make_unsigned_t<C>;
      constexpr UC max_shift = static_cast<UC>(sizeof(C) * 8 - (std::is_signed_v<C> ? 1 : 0));
      const UC amount = std::min(static_cast<UC>(b), max_shift);
      return static_cast<C>(a >> amount);
    } else {
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) {
          if constexpr (K == PointwiseOp::FloorDivide || K == PointwiseOp::DivTrunc || K == PointwiseOp::DivFloor)
            return wrap_neg(a);
          else
            return C(0);
        }
      }
      if constexpr (K == PointwiseOp::Fmod) return static_cast<C>(a % b);
      else if constexpr (K == PointwiseOp::Remainder) {
        C r = static_cast<C>(a % b);
        if (r != 0 && (is_negative(r) != is_negative(b))) r = static_cast<C>(r + b);
        return r;
      } else if constexpr (K == PointwiseOp::DivTrunc) return static_cast<C>(a / b);
      else {  // FloorDivide, DivFloor
        C q = static_cast<C>(a / b);
        if ((a % b != 0) && (is_negative(a) != is_negative(b))) q = static_cast<C>(q - 1);
        return q;
      }
    }
  }

  static C floating_op(C a, C b) noexcept {
    if constexpr (K == PointwiseOp::Fmod) return std::fmod(a, b);
    else if constexpr (K == PointwiseOp::Remainder) {
      C mod = std::fmod(a, b);
      if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
      return mod;
    } else if constexpr (K == PointwiseOp::DivTrunc) return std::trunc(a / b);
    else if constexpr (K == PointwiseOp::FloorDivide || K == PointwiseOp::DivFloor) {
      if (b == 0) return a / b;  // IEEE: inf or NaN
      const C mod = std::fmod(a, b);
      C div = (a - mod) / b;
      if (mod != 0 && ((b < 0) != (mod < 0))) div -= C(1);
      if (div == 0) return std::copysign(C(0), a / b);
      C floordiv = std::floor(div);
      if (div - floordiv > C(0.5)) floordiv += C(1);
      return floordiv;
    } else {
      return a;  // unreachable: meta refuses floating dtypes for the bitwise ops
    }
  }

  // a ** b in integers: negative exponents give 0 but for a base of +-1.
  static C int_pow(C a, C b) noexcept {
    if constexpr (std::is_same_v<C, bool>) {
      return a || !b;
    } else {
      if constexpr (std::is_signed_v<C>) {
        if (b < 0) {
          if (a == 1) return C(1);
          if (a == -1) return (b & 1) ? C(-1) : C(1);
          return C(0);
        }
      }
      using U = std::make_unsigned_t<std::conditional_t<(sizeof(C) < 4), int32_t, C>>;
      U result = 1, base = static_cast<U>(a);
      auto e = static_cast<U>(b);
      while (e) {
        if (e & 1u) result *= base;
        e >>= 1;
        base *= base;
      }
      return static_cast<C>(result);
    }
  }
};

// ----------------------------------------------------------------- ternary ---

enum class TernaryOp : uint8_t {
  Where,        // (condition, a, b) -> condition ? a : b
  ClampTensor,  // (x, lo, hi): NaN in a bound gives NaN
  ClampScalar,  // (x, lo, hi): NaN in x passes, bounds as std::max/min see them
  ClampMinScalar,  // (x, lo) with the scalar rule; hi unused
  ClampMaxScalar,  // (x, hi)
  Lerp,            // (self, end, weight)
  LerpScalar,      // (self, end) with a Scalar weight
  Addcmul,         // (self, t1, t2) with a Scalar value
  Addcdiv,
};

// weight < 0.5 picks the formula that is exact at weight 0, the other is
// exact at weight 1 (1.13 tests the weight, not its magnitude).
// Both formulas, then a select: a branch per element kept the loop scalar.
template <class C>
C lerp_of(C self, C end, C weight) noexcept {
  const C from_self = self + weight * (end - self);
  const C from_end = end - (end - self) * (C(1) - weight);
  return weight < C(0.5) ? from_self : from_end;
}

template <TernaryOp K, class C>
struct ScaledTernary {
  C value;
  C operator()(C self, C t1, C t2) const noexcept {
    if constexpr (K == TernaryOp::Addcmul) return self + value * t1 * t2;
    else return self + value * t1 / t2;
  }
};
// lerp with a Scalar weight: the formula chosen once (lerp_of's choice), so
// that the loop is one formula.
template <class C, bool FromSelf>
struct LerpScalarOp {
  C weight;
  C operator()(C self, C end) const noexcept {
    if constexpr (FromSelf) return self + weight * (end - self);
    else return end - (end - self) * (C(1) - weight);
  }
};

template <TernaryOp K, class C>
struct TernaryPointwise {
  C operator()(C c, C a, C b) const noexcept {
    if constexpr (K == TernaryOp::Where) {
      return c != C(0) ? a : b;
    } else {
      static_assert(K == TernaryOp::ClampTensor, "not a three-input op");
      // A select, not an early return, so that the loop vectorizes (4x).
      const C r = std::min(std::max(c, a), b);
      return (is_nan(a) || is_nan(b)) ? std::numeric_limits<C>::quiet_NaN() : r;
    }
  }
};

// clamp with Scalar bounds, held in registers: a one-input loop over x. As two-
// and three-input loops, the bounds were read from 0-dim operands replicated
// chunk by chunk (1.7x ATen at 10^6). A NaN x passes without a test:
// std::max(x, a) and std::min(x, b) return their first operand when a
// comparison with it is false. (A branch on it kept the loop from
// vectorizing: 3.6x ATen at 10^6.)
template <TernaryOp K, class C>
struct ClampScalarBounds {
  C lo, hi;
  C operator()(C x) const noexcept {
    if constexpr (K == TernaryOp::ClampScalar) return std::min(std::max(x, lo), hi);
    else if constexpr (K == TernaryOp::ClampMinScalar) return std::max(x, lo);
    else return std::min(x, hi);
  }
};

// ------------------------------------------------- the family loop entries ---
// Compiled once each in src/kernels/pointwise_*.cpp (declared OPD_API so
// that pointwise-inl.hpp, compiled elsewhere, can call them).

// Families split by DtypeGroup::Integral / Floating (one instantiation per
// source) are entered through this one router: the floating instantiation for
// a floating compute dtype, the integral one otherwise.
template <auto IntegralLoops, auto FloatingLoops, class... Args>
void route_by_dtype_group(ScalarType compute, const Args&... args) {
  if (is_floating_type(compute)) FloatingLoops(args...);
  else IntegralLoops(args...);
}

// Float-kind ops and the floating-only keep-kind ones (gelu, silu,
// hardswish, softplus, frac); `compute` is Half/Float/Double/BFloat16.
template <DtypeGroup G>
void unary_float_loops_of(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out, const OperandRef& in);
inline void unary_float_loops(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out, const OperandRef& in) {
  if (compute == ScalarType::Half || compute == ScalarType::BFloat16) unary_float_loops_of<DtypeGroup::ReducedFloating>(op, params, compute, out, in);
  else unary_float_loops_of<DtypeGroup::WideFloating>(op, params, compute, out, in);
}
// The other keep-kind ops (src/kernels/pointwise_unary_other.cpp) and the
// bool-kind ones (pointwise_unary_bool.cpp), every kernel dtype.
template <DtypeGroup G>
void unary_other_loops_of(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out, const OperandRef& in);
inline void unary_other_loops(UnaryOp op, const UnaryParams& params, ScalarType compute, const OperandRef& out, const OperandRef& in) {
  route_by_dtype_group<&unary_other_loops_of<DtypeGroup::Integral>, &unary_other_loops_of<DtypeGroup::Floating>>(compute, op, params, compute, out, in);
}
OPD_API void unary_bool_loops(UnaryOp op, ScalarType compute, const OperandRef& out, const OperandRef& in);
// The unary ops on complex64/complex128 (src/kernels/pointwise_unary_complex.cpp).
OPD_API void unary_complex_loops(UnaryOp op, ScalarType compute, const OperandRef& out, const OperandRef& in);
// A Bool-valued op (comparison, logical op) on inputs already of dtype T
// (not Half/BFloat16), contiguous with out's sizes, the last one possibly a
// 0-dim input, into a contiguous Bool out: typed rows writing bools
// directly, split across threads above grain_size. The engine's converting
// path (T results buffered, then converted pair by pair) is the rest. False,
// with nothing written, when the operands are not like that.
template <class T, unsigned Mask, class Op, std::size_t... I>
void bool_result_row(bool* out, const std::array<const T*, sizeof...(I)>& in, int64_t begin, int64_t end,
                     const Op& op, std::index_sequence<I...>) {
  for (int64_t j = begin; j < end; ++j) {
    out[j] = convert<bool>(static_cast<T>(op(in[I][((Mask >> I) & 1u) ? 0 : j]...)));
  }
}
template <class T, std::size_t N, class Op>
bool run_bool_result(const OperandRef& out, const std::array<OperandRef, N>& inputs, const Op& op) {
  if constexpr (!std::is_same_v<opmath_t<T>, T>) {
    return false;
  } else {
    if (out.dtype != ScalarType::Bool || !is_plain_contiguous(out.sizes, out.strides)) return false;
    std::array<const T*, N> in{};
    unsigned mask = 0;  // bit k: input k is a 0-dim input
    for (std::size_t k = 0; k != N; ++k) {
      const OperandRef& r = inputs[k];
      if (r.dtype != scalar_type_of_v<T>) return false;
      if (r.sizes.empty()) {
        mask |= 1u << k;
      } else if (!(r.sizes == out.sizes) || !is_plain_contiguous(r.sizes, r.strides)) {
        return false;
      }
      in[k] = reinterpret_cast<const T*>(r.data);
    }
    constexpr unsigned kLastScalar = 1u << (N - 1);
    if (mask != 0 && mask != kLastScalar) return false;
    int64_t n = 1;
    for (int64_t s : out.sizes) n *= s;
    bool* o = reinterpret_cast<bool*>(out.data);
    constexpr auto seq = std::make_index_sequence<N>{};
    parallel_for(0, n, grain_size, [&](int64_t b, int64_t e) {
      if (mask == 0) {
        bool_result_row<T, 0u>(o, in, b, e, op, seq);
      } else {
        bool_result_row<T, kLastScalar>(o, in, b, e, op, seq);
      }
    });
    return true;
  }
}

// run_pointwise with the functor of whichever of Ks `op` is (false if none):
// each loops source lists its own op group. The Bool-valued ops try
// run_bool_result first.
template <class T, PointwiseOp K>
void run_binary_op(const OperandRef& out, const std::array<OperandRef, 2>& in) {
  const BinaryPointwise<K, opmath_t<T>> f{};
  if constexpr (gives_bool(K)) {
    if (run_bool_result<T, 2>(out, in, f)) return;
  }
  run_pointwise<T, 2>(out, in, f);
}
template <class T, PointwiseOp... Ks>
bool run_binary_of(PointwiseOp op, const OperandRef& out, const std::array<OperandRef, 2>& in) {
  return ((op == Ks ? (run_binary_op<T, Ks>(out, in), true) : false) || ...);
}

// eq/ne (src/kernels/pointwise_equality.cpp), lt/le/gt/ge
// (pointwise_compare.cpp), the logical ops and maximum/minimum
// (pointwise_logical.cpp), pow to the divisions (pointwise_arith.cpp) and the
// bitwise ops and shifts (pointwise_bitwise.cpp): each op group's dtype
// product compiled apart.
OPD_API void equality_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                            const std::array<OperandRef, 2>& inputs);
template <DtypeGroup G>
void compare_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs);
inline void compare_loops(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs) {
  route_by_dtype_group<&compare_loops_of<DtypeGroup::Integral>, &compare_loops_of<DtypeGroup::Floating>>(compute, op, compute, out, inputs);
}
template <DtypeGroup G>
void logical_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs);
inline void logical_loops(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs) {
  route_by_dtype_group<&logical_loops_of<DtypeGroup::Integral>, &logical_loops_of<DtypeGroup::Floating>>(compute, op, compute, out, inputs);
}
template <DtypeGroup G>
void arith_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs);
inline void arith_loops(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs) {
  route_by_dtype_group<&arith_loops_of<DtypeGroup::Integral>, &arith_loops_of<DtypeGroup::Floating>>(compute, op, compute, out, inputs);
}
template <DtypeGroup G>
void bitwise_loops_of(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs);
inline void bitwise_loops(PointwiseOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 2>& inputs) {
  route_by_dtype_group<&bitwise_loops_of<DtypeGroup::Integral>, &bitwise_loops_of<DtypeGroup::Floating>>(compute, op, compute, out, inputs);
}
// pow and the logical ops on complex64/complex128
// (src/kernels/pointwise_complex_math.cpp); pow with a Scalar exponent
// there too, for its special exponents.
OPD_API void binary_complex_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                                  const std::array<OperandRef, 2>& inputs);
OPD_API void pow_complex_scalar_loops(ScalarType compute, const OperandRef& out, const OperandRef& in,
                                      std::complex<double> exponent);
inline void binary_pointwise_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                                   const std::array<OperandRef, 2>& inputs) {
  if (op > PointwiseOp::Ne && is_complex_kernel_dtype(compute)) {
    binary_complex_loops(op, compute, out, inputs);
  } else if (op <= PointwiseOp::Ne) {
    equality_loops(op, compute, out, inputs);
  } else if (op <= PointwiseOp::Ge) {
    compare_loops(op, compute, out, inputs);
  } else if (op <= PointwiseOp::Minimum) {
    logical_loops(op, compute, out, inputs);
  } else if (op < PointwiseOp::BitwiseAnd) {
    arith_loops(op, compute, out, inputs);
  } else {
    bitwise_loops(op, compute, out, inputs);
  }
}
// where and the clamps (src/kernels/pointwise_ternary.cpp), lerp, addcmul
// and addcdiv (pointwise_ternary_math.cpp).
// inputs[2] is ignored by the one-sided clamps.
// value: addcmul/addcdiv's value, lerp's Scalar weight (converted as
// Scalar::to, checked), null otherwise.
template <DtypeGroup G>
void where_clamp_loops_of(TernaryOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 3>& inputs);
// where on complex64/complex128: the select only, as the complex dtypes have
// no order to clamp by (src/kernels/pointwise_ternary_complex.cpp).
OPD_API void where_complex_loops(ScalarType compute, const OperandRef& out, const std::array<OperandRef, 3>& inputs);
inline void where_clamp_loops(TernaryOp op, ScalarType compute, const OperandRef& out, const std::array<OperandRef, 3>& inputs) {
  if (op == TernaryOp::Where && is_complex_kernel_dtype(compute)) return where_complex_loops(compute, out, inputs);
  route_by_dtype_group<&where_clamp_loops_of<DtypeGroup::Integral>, &where_clamp_loops_of<DtypeGroup::Floating>>(compute, op, compute, out, inputs);
}
OPD_API void ternary_math_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                const std::array<OperandRef, 3>& inputs, const Scalar* value);
// lerp, addcmul and addcdiv on complex64/complex128 (pointwise_complex_math.cpp).
OPD_API void ternary_complex_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                   const std::array<OperandRef, 3>& inputs, const Scalar* value);
inline void ternary_pointwise_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                    const std::array<OperandRef, 3>& inputs, const Scalar* value = nullptr) {
  if (op <= TernaryOp::ClampMaxScalar) {
    where_clamp_loops(op, compute, out, inputs);
  } else if (is_complex_kernel_dtype(compute)) {
    ternary_complex_loops(op, compute, out, inputs, value);
  } else {
    ternary_math_loops(op, compute, out, inputs, value);
  }
}
// Does `t` hold a zero (the integral division-like ops' check)?
OPD_API bool has_zero(const OperandRef& t);

}  // namespace opd::kernels::detail
