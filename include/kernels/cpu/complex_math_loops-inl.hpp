#pragma once
// The loops of pow, the logical ops, lerp, addcmul and addcdiv on complex64
// and complex128, compiled once in src/kernels/pointwise_complex_math.cpp
// (the real dtypes' loops are in arith_loops-inl.hpp, logical_loops-inl.hpp
// and ternary_math_loops-inl.hpp). As ATen 1.13's CPU loops:
//   pow          std::pow(z, w) (c10::complex's pow is std::complex's);
//                with a Scalar exponent, 2, 3 and -2 as products (z*z,
//                z*z*z, 1 / (z*z)), 0 and 1 as fill and copy, 0.5, -0.5 and
//                -1 as sqrt, rsqrt and reciprocal (pow_tensor_scalar_kernel)
//   logical_*    z != 0 (c10::complex's operator bool: either part)
//   lerp         the formula exact at weight 0 when |weight| < 0.5, else
//                the one exact at 1 (1.13's zabs of a complex weight)
//   addcmul      self + value * t1 * t2, addcdiv self + value * t1 / t2
// Products and quotients are complex_arith-inl.hpp's textbook ones. Results
// that are Bool are computed as 1 + 0i or 0 and stored as the real part.
#include <array>
#include <cmath>
#include <complex>

#include "kernels/cpu/complex_arith-inl.hpp"
#include "kernels/cpu/pointwise_functors-inl.hpp"

namespace opd::kernels::detail {

template <class T>
T complex_truth_flag(bool b) noexcept {
  return T(b ? 1 : 0, 0);
}

template <class T>
void binary_complex_of(PointwiseOp op, const OperandRef& out, const std::array<OperandRef, 2>& in) {
  const auto run = [&](auto f) { cpu_kernel<T>(out, in, f); };
  switch (op) {
    case PointwiseOp::Pow: return run([](T a, T b) { return std::pow(a, b); });
    case PointwiseOp::LogicalAnd: return run([](T a, T b) { return complex_truth_flag<T>(truth(a) && truth(b)); });
    case PointwiseOp::LogicalOr: return run([](T a, T b) { return complex_truth_flag<T>(truth(a) || truth(b)); });
    case PointwiseOp::LogicalXor: return run([](T a, T b) { return complex_truth_flag<T>(truth(a) != truth(b)); });
    default: break;
  }
  throw_not_implemented_for(pointwise_name(op), scalar_type_of_v<T>);
}

OPD_FUNC void binary_complex_loops(PointwiseOp op, ScalarType compute, const OperandRef& out,
                                   const std::array<OperandRef, 2>& inputs) {
  dispatch_complex_dtype(compute, pointwise_name(op), [&](auto tag) {
    binary_complex_of<typename decltype(tag)::type>(op, out, inputs);
  });
}

OPD_FUNC void pow_complex_scalar_loops(ScalarType compute, const OperandRef& out, const OperandRef& in,
                                       std::complex<double> e) {
  dispatch_complex_dtype(compute, "pow", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = typename T::value_type;
    const std::array<OperandRef, 1> inputs{in};
    const auto run = [&](auto f) { cpu_kernel<T>(out, inputs, f); };
    if (e == 0.0) return run([](T) { return T(1, 0); });
    if (e == 1.0) return run([](T z) { return z; });
    if (e == 2.0) return run([](T z) { return complex_mul(z, z); });
    if (e == 3.0) return run([](T z) { return complex_mul(complex_mul(z, z), z); });
    if (e == -2.0) {
      return run([](T z) {
        const T s = complex_mul(z, z);  // (z*z).reciprocal(): conj over |z*z|^2
        const R n = s.real() * s.real() + s.imag() * s.imag();
        return T(s.real() / n, -s.imag() / n);
      });
    }
    const T w(static_cast<R>(e.real()), static_cast<R>(e.imag()));
    run([w](T z) { return std::pow(z, w); });
  });
}

template <class T>
void ternary_complex_of(TernaryOp op, const char* name, const OperandRef& out, const std::array<OperandRef, 3>& in,
                        const Scalar* value) {
  using R = typename T::value_type;
  const T one(1, 0);
  switch (op) {
    case TernaryOp::Lerp:
      return cpu_kernel<T>(out, in, [one](T s, T e, T w) {
        return std::abs(w) < R(0.5) ? s + complex_mul(w, e - s) : e - complex_mul(e - s, one - w);
      });
    case TernaryOp::LerpScalar: {
      const T w = checked_scalar_to<T>(*value);
      const std::array<OperandRef, 2> two{in[0], in[1]};
      if (std::abs(w) < R(0.5)) return cpu_kernel<T>(out, two, [w](T s, T e) { return s + complex_mul(w, e - s); });
      return cpu_kernel<T>(out, two, [w, one](T s, T e) { return e - complex_mul(e - s, one - w); });
    }
    case TernaryOp::Addcmul: {
      const T v = checked_scalar_to<T>(*value);
      return cpu_kernel<T>(out, in, [v](T s, T a, T b) { return s + complex_mul(complex_mul(v, a), b); });
    }
    case TernaryOp::Addcdiv: {
      const T v = checked_scalar_to<T>(*value);
      return cpu_kernel<T>(out, in, [v](T s, T a, T b) { return s + complex_div(complex_mul(v, a), b); });
    }
    default: break;
  }
  throw_not_implemented_for(name, scalar_type_of_v<T>);
}

OPD_FUNC void ternary_complex_loops(TernaryOp op, ScalarType compute, const OperandRef& out,
                                    const std::array<OperandRef, 3>& inputs, const Scalar* value) {
  const char* name = op == TernaryOp::Lerp || op == TernaryOp::LerpScalar ? "lerp_kernel_scalar"
                     : op == TernaryOp::Addcmul                           ? "addcmul_cpu_out"
                                                                          : "addcdiv_cpu_out";
  dispatch_complex_dtype(compute, name, [&](auto tag) {
    ternary_complex_of<typename decltype(tag)::type>(op, name, out, inputs, value);
  });
}

}  // namespace opd::kernels::detail
