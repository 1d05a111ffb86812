// opd::Half: IEEE 754 binary16 storage type.
//
// Why a storage type rather than arithmetic: kernels compute in float and
// only load/store 16 bits, so Half only needs exact, round-to-nearest-even
// conversions. Arithmetic works through the implicit conversion to float.
// Host-only; CUDA code should use __half and reinterpret the bits (x).
#pragma once

#include <cstdint>
#include <cstring>
#include <ostream>

namespace opd {

namespace detail {
inline uint32_t float_bits(float f) noexcept {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(uint32_t u) noexcept {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// Round-to-nearest-even float -> binary16 (F. Giesen's branchy variant:
// relies on the FPU doing RNE for subnormals, integer rounding otherwise).
inline uint16_t float_to_half_bits(float value) noexcept {
  uint32_t f = float_bits(value);
  const uint32_t sign = f & 0x80000000u;
  f ^= sign;
  uint16_t out;
  if (f >= (127u + 16u) << 23) {            // |value| >= 65536, Inf or NaN
    out = f > 0x7f800000u ? 0x7e00 : 0x7c00;  // NaN stays (quiet) NaN
  } else if (f < (113u << 23)) {            // result is subnormal or zero
    const uint32_t magic = 126u << 23;      // 0.5f: aligns the 10 mantissa bits at the bottom
    const uint32_t rounded = float_bits(bits_float(f) + bits_float(magic));
    out = static_cast<uint16_t>(rounded - magic);
  } else {
    const uint32_t mant_odd = (f >> 13) & 1u;
    f += 0xc8000000u + 0xfffu;  // rebias exponent (15 - 127) << 23, rounding bias
    f += mant_odd;              // ties to even
    out = static_cast<uint16_t>(f >> 13);
  }
  return static_cast<uint16_t>(out | (sign >> 16));
}

inline float half_bits_to_float(uint16_t h) noexcept {
  const uint32_t shifted_exp = 0x7c00u << 13;
  uint32_t o = (static_cast<uint32_t>(h) & 0x7fffu) << 13;
  const uint32_t exp = shifted_exp & o;
  o += (127u - 15u) << 23;
  if (exp == shifted_exp) {  // Inf / NaN
    o += (128u - 16u) << 23;
  } else if (exp == 0) {  // zero / subnormal: renormalise through the FPU
    o += 1u << 23;
    o = float_bits(bits_float(o) - bits_float(113u << 23));
  }
  o |= (static_cast<uint32_t>(h) & 0x8000u) << 16;
  return bits_float(o);
}
}  // namespace detail

struct Half {
  uint16_t x = 0;

  struct from_bits_t {};
  static constexpr from_bits_t from_bits() { return {}; }

  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) noexcept : x(bits) {}
  Half(float value) noexcept : x(detail::float_to_half_bits(value)) {}
  operator float() const noexcept { return detail::half_bits_to_float(x); }

  friend std::ostream& operator<<(std::ostream& os, Half h) { return os << static_cast<float>(h); }
};

static_assert(sizeof(Half) == 2, "Half must be 16 bits");

}  // namespace opd
