// opd::BFloat16: the upper 16 bits of an IEEE float (brain floating point).
//
// Why a storage type: as with Half, kernels compute in float and only need
// round-to-nearest-even narrowing and exact widening.
#pragma once

#include <cstdint>
#include <ostream>

#include "dispatch/core/half.hpp"  // detail::float_bits / bits_float

namespace opd {

namespace detail {
inline uint16_t float_to_bfloat16_bits(float value) noexcept {
  const uint32_t u = float_bits(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;  // NaN: keep it a (quiet) NaN
  const uint32_t rounding_bias = 0x7fffu + ((u >> 16) & 1u);  // ties to even
  return static_cast<uint16_t>((u + rounding_bias) >> 16);
}
inline float bfloat16_bits_to_float(uint16_t b) noexcept { return bits_float(static_cast<uint32_t>(b) << 16); }
}  // namespace detail

struct BFloat16 {
  uint16_t x = 0;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return {}; }

  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) noexcept : x(bits) {}
  BFloat16(float value) noexcept : x(detail::float_to_bfloat16_bits(value)) {}
  operator float() const noexcept { return detail::bfloat16_bits_to_float(x); }

  friend std::ostream& operator<<(std::ostream& os, BFloat16 b) { return os << static_cast<float>(b); }
};

static_assert(sizeof(BFloat16) == 2, "BFloat16 must be 16 bits");

}  // namespace opd
