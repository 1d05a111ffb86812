#pragma once
// The loops of the unary ops PyTorch defines on complex64 and complex128
// that the library computes (has_complex_loop in pointwise_ops.hpp);
// compiled in src/kernels/pointwise_unary_complex.cpp. Formulas as ATen
// 1.13's CPU loops compute them: exp(a + bi) = e^a (cos b + i sin b),
// reciprocal (a - bi) / (a^2 + b^2), abs sqrt(a^2 + b^2) (so |1e30| overflows
// in complex64 there and here), rsqrt the reciprocal of sqrt, sigmoid
// 1 / (1 + exp(-z)), silu z / (1 + exp(-z)), log2 log z divided by ln 2 as
// c10::complex divides (numpy's scaled division), sgn each part over |z| (0
// where |z| is 0: ATen's vector loop; its scalar loop, which ATen runs on a
// contiguous row's last few elements, gives NaN parts for infinite parts),
// angle atan2(b, a); the rest are std::complex's (ATen maps std:: over them).
// PyTorch 1.13 refuses exp2, expm1 and log1p on complex: so does this.
// Real results (abs, angle, isnan, isinf, isfinite) are computed as r + 0i
// and the engine's store into the real or Bool result keeps the real part.
#include <array>
#include <cmath>
#include <complex>

#include "kernels/cpu/unary_loops-inl.hpp"

namespace opd::kernels::detail {

template <class T>
T complex_exp(T z) noexcept {
  using std::cos, std::exp, std::sin;
  const auto m = exp(z.real());
  return {m * cos(z.imag()), m * sin(z.imag())};
}
template <class T>
T complex_reciprocal(T z) noexcept {
  const auto norm = z.real() * z.real() + z.imag() * z.imag();
  return {z.real() / norm, -z.imag() / norm};
}

// c10::complex's z / (c + 0i): numpy's scaled division with d = 0 (rat 0,
// scl = 1.0 / c in double), so an infinite part times rat gives NaN there too.
template <class T>
T complex_div_real(T z, double c) noexcept {
  using R = typename T::value_type;
  const double scl = 1.0 / c;
  return {static_cast<R>((z.real() + z.imag() * R(0)) * scl), static_cast<R>((z.imag() - z.real() * R(0)) * scl)};
}
template <class T>
T complex_abs(T z) noexcept {
  return T(std::sqrt(z.real() * z.real() + z.imag() * z.imag()), 0);
}
// 1 or 0 as T: the engine's store into Bool reads the real part.
template <class T>
T complex_flag(bool b) noexcept {
  return T(b ? 1 : 0, 0);
}

template <class T>
void complex_unary_of(UnaryOp op, const OperandRef& out, const std::array<OperandRef, 1>& in) {
  using R = typename T::value_type;
  const auto run = [&](auto f) { cpu_kernel<T>(out, in, f); };
  switch (op) {
    case UnaryOp::Neg: return run([](T z) { return -z; });
    case UnaryOp::Abs: return run([](T z) { return complex_abs(z); });
    case UnaryOp::Exp: return run([](T z) { return complex_exp(z); });
    case UnaryOp::Log: return run([](T z) { return std::log(z); });
    case UnaryOp::Log10: return run([](T z) { return std::log10(z); });
    case UnaryOp::Sqrt: return run([](T z) { return std::sqrt(z); });
    case UnaryOp::Reciprocal: return run([](T z) { return complex_reciprocal(z); });
    case UnaryOp::Sin: return run([](T z) { return std::sin(z); });
    case UnaryOp::Cos: return run([](T z) { return std::cos(z); });
    case UnaryOp::Tan: return run([](T z) { return std::tan(z); });
    case UnaryOp::Sinh: return run([](T z) { return std::sinh(z); });
    case UnaryOp::Cosh: return run([](T z) { return std::cosh(z); });
    case UnaryOp::Tanh: return run([](T z) { return std::tanh(z); });
    case UnaryOp::Sigmoid: return run([](T z) { return complex_reciprocal(T(R(1), R(0)) + complex_exp(-z)); });
    case UnaryOp::Log2: return run([](T z) { return complex_div_real(std::log(z), std::log(2.0)); });
    case UnaryOp::Rsqrt: return run([](T z) { return complex_reciprocal(std::sqrt(z)); });
    case UnaryOp::Asin: return run([](T z) { return std::asin(z); });
    case UnaryOp::Acos: return run([](T z) { return std::acos(z); });
    case UnaryOp::Atan: return run([](T z) { return std::atan(z); });
    case UnaryOp::Asinh: return run([](T z) { return std::asinh(z); });
    case UnaryOp::Acosh: return run([](T z) { return std::acosh(z); });
    case UnaryOp::Atanh: return run([](T z) { return std::atanh(z); });
    case UnaryOp::Angle: return run([](T z) { return T(std::atan2(z.imag(), z.real()), R(0)); });
    case UnaryOp::Sgn:
      return run([](T z) {  // each part over |z|, as ATen's vector loop (0 where |z| is)
        const R r = complex_abs(z).real();
        return r == R(0) ? T(0, 0) : T(z.real() / r, z.imag() / r);
      });
    case UnaryOp::ConjPhysical: return run([](T z) { return std::conj(z); });
    case UnaryOp::IsNan: return run([](T z) { return complex_flag<T>(z.real() != z.real() || z.imag() != z.imag()); });
    case UnaryOp::IsInf: return run([](T z) { return complex_flag<T>(std::isinf(z.real()) || std::isinf(z.imag())); });
    case UnaryOp::IsFinite:
      return run([](T z) { return complex_flag<T>(std::isfinite(z.real()) && std::isfinite(z.imag())); });
    case UnaryOp::LogicalNot: return run([](T z) { return complex_flag<T>(!truth(z)); });
    case UnaryOp::Silu: return run([](T z) { return z / (T(R(1), R(0)) + complex_exp(-z)); });
    default: break;
  }
  throw_not_implemented_for(unary_name(op), scalar_type_of_v<T>);
}

OPD_FUNC void unary_complex_loops(UnaryOp op, ScalarType compute, const OperandRef& out, const OperandRef& in) {
  const std::array<OperandRef, 1> inputs{in};
  dispatch_complex_dtype(compute, unary_name(op), [&](auto tag) {
    complex_unary_of<typename decltype(tag)::type>(op, out, inputs);
  });
}

}  // namespace opd::kernels::detail
