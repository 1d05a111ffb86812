// Scalar: a single number of "Python kind" — bool, int64, double or
// complex<double> — as taken by ops like add(Tensor, Scalar alpha).
//
// Why only four representations: the schema type `Scalar` erases the exact
// dtype; kernels convert with to<T>(), which checks for overflow so that a
// Scalar that does not fit the tensor's dtype is an error, not a silent wrap.
#pragma once

#include <charconv>
#include <cmath>
#include <complex>
#include <concepts>
#include <cstdint>
#include <limits>
#include <ostream>
#include <string>
#include <type_traits>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/half.hpp"
#include "dispatch/core/scalar_type.hpp"

namespace opd {

namespace detail {

template <class T>
inline constexpr bool is_std_complex_v = false;
template <class T>
inline constexpr bool is_std_complex_v<std::complex<T>> = true;

// Shortest round-trip text for a double, Python repr style: "1.5", "2.0",
// "1e+20", "inf", "nan".
inline std::string format_double(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, result.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Python complex repr: "(2+3j)", "(2-3j)", "(1.5+0j)".
inline std::string format_complex(std::complex<double> v) {
  auto part = [](double x) {
    std::string s = format_double(x);
    if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
    return s;
  };
  const std::string imag = part(v.imag());
  std::string out = "(";
  out += part(v.real());
  if (imag[0] != '-') out += '+';
  out += imag;
  out += "j)";
  return out;
}

// Largest finite magnitude representable by floating T.
template <class T>
constexpr double max_finite() noexcept {
  if constexpr (std::is_same_v<T, Half>) {
    return 65504.0;
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return 3.3895313892515355e38;
  } else {
    return static_cast<double>(std::numeric_limits<T>::max());
  }
}

}  // namespace detail

class Scalar {
 public:
  enum class Kind : uint8_t { Bool, Int, Double, ComplexDouble };

  Scalar() noexcept : Scalar(int64_t{0}) {}

  template <class T>
    requires std::same_as<T, bool>
  Scalar(T v) noexcept : kind_(Kind::Bool) {
    v_.b = v;
  }

  template <std::integral T>
    requires(!std::same_as<T, bool>)
  Scalar(T v) : kind_(Kind::Int) {
    if constexpr (std::is_unsigned_v<T> && sizeof(T) >= sizeof(int64_t)) {
      OPD_CHECK_VALUE(v <= static_cast<T>(std::numeric_limits<int64_t>::max()), "Scalar: unsigned value ", v,
                      " does not fit in int64");
    }
    v_.i = static_cast<int64_t>(v);
  }

  template <std::floating_point T>
  Scalar(T v) noexcept : kind_(Kind::Double) {
    v_.d = static_cast<double>(v);
  }
  Scalar(Half v) noexcept : Scalar(static_cast<float>(v)) {}
  Scalar(BFloat16 v) noexcept : Scalar(static_cast<float>(v)) {}

  template <class T>
  Scalar(std::complex<T> v) noexcept : kind_(Kind::ComplexDouble) {
    v_.c[0] = static_cast<double>(v.real());
    v_.c[1] = static_cast<double>(v.imag());
  }

  Kind kind() const noexcept { return kind_; }
  // The dtype of the representation: Bool, Long, Double or ComplexDouble.
  ScalarType type() const noexcept {
    switch (kind_) {
      case Kind::Bool: return ScalarType::Bool;
      case Kind::Int: return ScalarType::Long;
      case Kind::Double: return ScalarType::Double;
      case Kind::ComplexDouble: return ScalarType::ComplexDouble;
    }
    return ScalarType::Undefined;
  }

  bool is_boolean() const noexcept { return kind_ == Kind::Bool; }
  bool is_integral(bool include_bool) const noexcept {
    return kind_ == Kind::Int || (include_bool && kind_ == Kind::Bool);
  }
  bool is_floating_point() const noexcept { return kind_ == Kind::Double; }
  bool is_complex() const noexcept { return kind_ == Kind::ComplexDouble; }

  // Checked conversion: throws opd::Error when the value does not fit T
  // (integer range, finite float range, or a non-zero imaginary part for a
  // real T). Inf/NaN convert to floating T unchanged.
  template <class T>
  T to() const {
    using U = std::remove_cv_t<T>;
    if constexpr (std::is_same_v<U, bool>) {
      switch (kind_) {
        case Kind::Bool: return v_.b;
        case Kind::Int: return v_.i != 0;
        case Kind::Double: return v_.d != 0.0;
        case Kind::ComplexDouble: return v_.c[0] != 0.0 || v_.c[1] != 0.0;
      }
      return false;
    } else if constexpr (detail::is_std_complex_v<U>) {
      using R = typename U::value_type;
      if (kind_ == Kind::ComplexDouble) {
        check_float_range<R>(v_.c[0]);
        check_float_range<R>(v_.c[1]);
        return U(static_cast<R>(v_.c[0]), static_cast<R>(v_.c[1]));
      }
      return U(to<R>(), R(0));
    } else if constexpr (std::is_integral_v<U>) {
      switch (kind_) {
        case Kind::Bool: return static_cast<U>(v_.b ? 1 : 0);
        case Kind::Int: return checked_int_from_int<U>(v_.i);
        case Kind::Double: return checked_int_from_double<U>(v_.d);
        case Kind::ComplexDouble:
          check_real(v_.c[1]);
          return checked_int_from_double<U>(v_.c[0]);
      }
      return U{};
    } else if constexpr (std::is_floating_point_v<U> || std::is_same_v<U, Half> || std::is_same_v<U, BFloat16>) {
      double d = 0.0;
      switch (kind_) {
        case Kind::Bool: d = v_.b ? 1.0 : 0.0; break;
        case Kind::Int: d = static_cast<double>(v_.i); break;
        case Kind::Double: d = v_.d; break;
        case Kind::ComplexDouble:
          check_real(v_.c[1]);
          d = v_.c[0];
          break;
      }
      check_float_range<U>(d);
      if constexpr (std::is_same_v<U, Half> || std::is_same_v<U, BFloat16>) {
        return U(static_cast<float>(d));
      } else {
        return static_cast<U>(d);
      }
    } else {
      static_assert(sizeof(U) == 0, "Scalar::to<T>: unsupported T");
    }
  }

  bool to_bool() const { return to<bool>(); }
  int64_t to_long() const { return to<int64_t>(); }
  double to_double() const { return to<double>(); }
  std::complex<double> to_complex_double() const { return to<std::complex<double>>(); }

  // Structural equality: same kind and same value (so Scalar(1) != Scalar(1.0)).
  friend bool operator==(const Scalar& a, const Scalar& b) noexcept {
    if (a.kind_ != b.kind_) return false;
    switch (a.kind_) {
      case Kind::Bool: return a.v_.b == b.v_.b;
      case Kind::Int: return a.v_.i == b.v_.i;
      case Kind::Double: return a.v_.d == b.v_.d;
      case Kind::ComplexDouble: return a.v_.c[0] == b.v_.c[0] && a.v_.c[1] == b.v_.c[1];
    }
    return false;
  }

  // Numeric equality across kinds: Scalar(1).equal(1.0) is true.
  bool equal(const Scalar& other) const noexcept {
    const std::complex<double> a = as_complex(), b = other.as_complex();
    return a == b;
  }

  friend std::ostream& operator<<(std::ostream& os, const Scalar& s) {
    switch (s.kind_) {
      case Kind::Bool: return os << (s.v_.b ? "true" : "false");
      case Kind::Int: return os << s.v_.i;
      case Kind::Double: return os << detail::format_double(s.v_.d);
      case Kind::ComplexDouble: return os << detail::format_complex({s.v_.c[0], s.v_.c[1]});
    }
    return os;
  }

 private:
  std::complex<double> as_complex() const noexcept {
    switch (kind_) {
      case Kind::Bool: return {v_.b ? 1.0 : 0.0, 0.0};
      case Kind::Int: return {static_cast<double>(v_.i), 0.0};
      case Kind::Double: return {v_.d, 0.0};
      case Kind::ComplexDouble: return {v_.c[0], v_.c[1]};
    }
    return {};
  }

  template <class U>
  static void fail_overflow() {
    if constexpr (has_scalar_type_v<U>) throw_overflow(to_string(scalar_type_of_v<U>));
    else throw_overflow({});
  }
  // "value cannot be converted to type <target> without overflow" (scalar-inl.hpp)
  [[noreturn]] OPD_API static void throw_overflow(std::string_view target);
  static void check_real(double imag) {
    OPD_CHECK_VALUE(imag == 0.0, "value cannot be converted to a real type: it has a non-zero imaginary part");
  }
  template <class U>
  static U checked_int_from_int(int64_t v) {
    if constexpr (std::is_unsigned_v<U>) {
      if (v < 0 || static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<U>::max())) fail_overflow<U>();
    } else {
      if (v < static_cast<int64_t>(std::numeric_limits<U>::min()) ||
          v > static_cast<int64_t>(std::numeric_limits<U>::max()))
        fail_overflow<U>();
    }
    return static_cast<U>(v);
  }
  template <class U>
  static U checked_int_from_double(double d) {
    // Truncation toward zero, then range check on the truncated value.
    // 2^63 is exactly representable; anything >= it overflows int64.
    const double t = std::trunc(d);
    const double lo = static_cast<double>(std::numeric_limits<U>::min());
    const double hi_exclusive = static_cast<double>(std::numeric_limits<U>::max()) + 1.0;
    if (!(t >= lo && t < hi_exclusive)) fail_overflow<U>();  // also rejects NaN
    return static_cast<U>(t);
  }
  template <class U>
  static void check_float_range(double d) {
    if (std::isfinite(d) && std::fabs(d) > detail::max_finite<U>()) fail_overflow<U>();
  }

  union {
    bool b;
    int64_t i;
    double d;
    double c[2];
  } v_{};
  Kind kind_;
};

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/scalar-inl.hpp"
#endif
