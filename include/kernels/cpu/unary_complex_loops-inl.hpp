#pragma once
// The loops of the unary ops PyTorch defines on complex64 and complex128
// that the library computes (neg, abs, exp, log, log10, sqrt, reciprocal,
// sin, cos, tan, sinh, cosh, tanh, sigmoid, silu); compiled in
// src/kernels/pointwise_unary_complex.cpp. Formulas as ATen 1.13's
// vectorized CPU loops compute them: exp(a + bi) = e^a (cos b + i sin b),
// reciprocal (a - bi) / (a^2 + b^2), abs sqrt(a^2 + b^2) (so |1e30| overflows
// in complex64 there and here), sigmoid
// 1 / (1 + exp(-z)), silu z / (1 + exp(-z)); the rest are std::complex's (ATen maps std:: over them).
// abs computes |z| + 0i and the engine's store into the real result dtype
// keeps the real part.
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

template <class T>
void complex_unary_of(UnaryOp op, const OperandRef& out, const std::array<OperandRef, 1>& in) {
  using R = typename T::value_type;
  const auto run = [&](auto f) { cpu_kernel<T>(out, in, f); };
  switch (op) {
    case UnaryOp::Neg: return run([](T z) { return -z; });
    case UnaryOp::Abs: return run([](T z) { return T(std::sqrt(z.real() * z.real() + z.imag() * z.imag()), R(0)); });
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
