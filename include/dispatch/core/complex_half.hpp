// opd::ComplexHalf: the element type of ScalarType::ComplexHalf (complex32),
// two binary16 parts, the layout of c10::complex<c10::Half>.
//
// Why a storage type, as Half is: PyTorch 1.13 computes ComplexHalf in
// complex<float> (its opmath type) and rounds each part once when storing,
// so the type only needs exact conversions to and from std::complex<float>.
// std::complex<Half> would be unspecified (std::complex is for float,
// double and long double only).
#pragma once

#include <complex>

#include "dispatch/core/half.hpp"

namespace opd {

struct alignas(4) ComplexHalf {
  using value_type = Half;

  Half re;
  Half im;

  ComplexHalf() = default;
  constexpr ComplexHalf(Half real, Half imag) noexcept : re(real), im(imag) {}
  // Each part rounded to nearest even, as c10::complex<Half>(complex<float>).
  explicit ComplexHalf(std::complex<float> z) noexcept : re(z.real()), im(z.imag()) {}
  explicit operator std::complex<float>() const noexcept {
    return {static_cast<float>(re), static_cast<float>(im)};
  }

  constexpr Half real() const noexcept { return re; }
  constexpr Half imag() const noexcept { return im; }
};

static_assert(sizeof(ComplexHalf) == 4, "ComplexHalf must be two binary16 values");

}  // namespace opd
