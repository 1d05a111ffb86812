#pragma once
// Complex products and quotients by the textbook formulas, as ATen 1.13's
// vectorized CPU loops compute them (not std::complex's C99 Annex G
// recovery of infinities, a library call per element): so 0 / 0 and
// (1 + 1j) / 0 are nan + nanj there and here. Shared by the loops of
// mul/div (binary_loops-inl.hpp) and of pow, lerp, addcmul and addcdiv
// (complex_math_loops-inl.hpp).
#include <complex>

namespace opd::kernels {

template <class R>
std::complex<R> complex_mul(std::complex<R> a, std::complex<R> b) noexcept {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}
template <class R>
std::complex<R> complex_div(std::complex<R> a, std::complex<R> b) noexcept {
  const R norm = b.real() * b.real() + b.imag() * b.imag();
  return {(a.real() * b.real() + a.imag() * b.imag()) / norm, (a.imag() * b.real() - a.real() * b.imag()) / norm};
}

}  // namespace opd::kernels
