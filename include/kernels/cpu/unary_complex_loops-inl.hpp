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

#include "kernels/cpu/complex_simd.hpp"
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

// conj_physical, sgn, abs and angle of a contiguous row into a contiguous
// row of the result dtype: complex_simd.hpp's vector rows (the same
// formulas), split across threads above grain_size; false if that path does
// not apply (nothing written).
template <class T>
bool try_complex_simd(UnaryOp op, const OperandRef& out, const OperandRef& in) {
  using R = typename T::value_type;
  const bool real_result = op == UnaryOp::Abs || op == UnaryOp::Angle;
  if (!real_result && op != UnaryOp::ConjPhysical && op != UnaryOp::Sgn) return false;
  if (in.dtype != scalar_type_of_v<T> || out.dtype != (real_result ? scalar_type_of_v<R> : scalar_type_of_v<T>)) return false;
  if (!(in.sizes == out.sizes) || !is_plain_contiguous(out) || !is_plain_contiguous(in)) return false;
  int64_t n = 1;
  for (int64_t s : out.sizes) n *= s;
  if (n < kMinSimdElements) return false;  // a few elements: the scalar loop, cheaper than the dispatch
  const R* x = reinterpret_cast<const R*>(in.data);
  R* y = reinterpret_cast<R*>(out.data);
  const int64_t per = real_result ? 1 : 2;  // values of out per element
  if (n <= grain_size) return simd::complex_row(op, x, y, n);
  if (!simd::complex_row(op, x, y, 0)) return false;
  parallel_for(0, n, grain_size,
               [&](int64_t begin, int64_t end) { (void)simd::complex_row(op, x + 2 * begin, y + per * begin, end - begin); });
  return true;
}

template <class T>
void complex_unary_of(UnaryOp op, const OperandRef& out, const std::array<OperandRef, 1>& in) {
  using R = typename T::value_type;
  if (try_complex_simd<T>(op, out, in[0])) return;
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
