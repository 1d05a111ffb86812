// Element conversions and dtype dispatch for the CPU kernels: part of the
// engine, included by kernel sources (src/kernels/) and, through the public
// headers, by header-only users; never by a compiled-mode user's code.
//
//   convert<To>(from)        c10::convert: what copy_ and type promotion do
//                            to every element (static_cast semantics, made
//                            well defined where C++ leaves it undefined).
//   checked_scalar_to<T>(s)  c10::Scalar::to<T>: what alpha and fill_ values
//                            go through (throws on overflow).
//   scalar_cast<T>(s)        a Scalar operand ("wrapped number") converted to
//                            the op's common dtype, unchecked like the
//                            element conversions (uint8 + 300 -> 44).
//   dispatch_dtype(t, name, f)  calls f(type_tag<T>{}) for the ten kernel
//                            dtypes; the switch that happens once per call,
//                            never per element. dispatch_dtype_with_complex
//                            adds complex64/complex128 (std::complex<float>/
//                            <double>), for the operators PyTorch defines on
//                            complex; the others keep refusing them.
//                            dispatch_dtype_with_complex_half adds complex32
//                            (opd::ComplexHalf) too: conversions and fill, the
//                            little PyTorch 1.13 does with it on CPU.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/complex_half.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/half.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"

namespace opd::kernels {

template <class T>
inline constexpr bool is_reduced_float_v = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
template <class T>
inline constexpr bool is_float_like_v = std::is_floating_point_v<T> || is_reduced_float_v<T>;
// std::complex<float> and std::complex<double>: the element types of
// ComplexFloat and ComplexDouble (scalar_type_map).
template <class T>
inline constexpr bool is_complex_v = opd::detail::is_std_complex_v<T>;
// opd::ComplexHalf, kept apart from is_complex_v: it is a storage type,
// converted through std::complex<float> (its opmath type) and computed by no
// complex loop.
template <class T>
inline constexpr bool is_complex_half_v = std::is_same_v<T, ComplexHalf>;

// The type arithmetic is done in (at::opmath_type): float for Half and
// BFloat16, the element type otherwise.
template <class T>
using opmath_t = std::conditional_t<is_reduced_float_v<T>, float,
                                    std::conditional_t<is_complex_half_v<T>, std::complex<float>, T>>;

namespace detail {

// Floating -> integral without undefined behaviour. In range: truncation
// toward zero, like static_cast. Out of range or NaN: what x86's cvtt*
// instructions give (the integer's minimum), narrow types going through
// int32 and uint8 through int64 as in c10 (so -1.0 -> uint8 255).
template <class To, class From>
To float_to_int(From f) noexcept {
  const double d = static_cast<double>(f);
  if constexpr (std::is_same_v<To, int64_t>) {
    return (d >= -9223372036854775808.0 && d < 9223372036854775808.0) ? static_cast<int64_t>(d)
                                                                         : std::numeric_limits<int64_t>::min();
  } else if constexpr (std::is_same_v<To, int32_t>) {
    return (d > -2147483649.0 && d < 2147483648.0) ? static_cast<int32_t>(d) : std::numeric_limits<int32_t>::min();
  } else if constexpr (std::is_signed_v<To> && sizeof(To) < sizeof(int32_t)) {
    return static_cast<To>(float_to_int<int32_t>(f));
  } else {
    return static_cast<To>(float_to_int<int64_t>(f));
  }
}

}  // namespace detail

// c10::convert<To>(From) for the kernel types (bool, integers, Half,
// float, double, BFloat16, complex): to bool is `!= 0` (NaN -> true),
// integer narrowing wraps, Half/BFloat16 go through float; complex -> real
// takes the real part (then converts it: complex -> bool looks at the real
// part only, as c10's static_cast_with_inter_type), real -> complex has a
// zero imaginary part. ComplexHalf goes through std::complex<float> both
// ways, as c10's casts to and from complex<Half> do (so double -> complex32
// rounds to float first, then each part to Half).
template <class To, class From>
inline To convert(From f) noexcept {
  if constexpr (std::is_same_v<To, From>) {
    return f;
  } else if constexpr (is_complex_half_v<To>) {
    return ComplexHalf(convert<std::complex<float>>(f));
  } else if constexpr (is_complex_half_v<From>) {
    return convert<To>(static_cast<std::complex<float>>(f));
  } else if constexpr (is_complex_v<To>) {
    using R = typename To::value_type;
    if constexpr (is_complex_v<From>) {
      return To(static_cast<R>(f.real()), static_cast<R>(f.imag()));
    } else {
      return To(convert<R>(f), R(0));
    }
  } else if constexpr (is_complex_v<From>) {
    return convert<To>(f.real());
  } else if constexpr (is_reduced_float_v<From>) {
    return convert<To>(static_cast<float>(f));
  } else if constexpr (is_reduced_float_v<To>) {
    return To(static_cast<float>(f));
  } else if constexpr (std::is_same_v<To, bool>) {
    return f != From(0);
  } else if constexpr (std::is_integral_v<To> && std::is_floating_point_v<From>) {
    return detail::float_to_int<To>(f);
  } else {
    return static_cast<To>(f);
  }
}

// An element's truth as the logical operators, nonzero and count_nonzero
// see it (c10::complex's operator bool: either part non-zero), unlike
// convert<bool>, which looks at a complex value's real part only (any, all
// and copy_ to Bool do that in 1.13).
template <class T>
inline bool truth(T v) noexcept {
  if constexpr (is_complex_half_v<T>) return truth(static_cast<std::complex<float>>(v));
  else if constexpr (is_complex_v<T>) return v.real() != 0 || v.imag() != 0;
  else return convert<bool>(v);
}

// The C++ spelling c10 uses for T in "value cannot be converted to type
// uint8_t without overflow".
template <class T>
constexpr const char* c10_type_name() noexcept {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, Half>) return "at::Half";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, BFloat16>) return "at::BFloat16";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "c10::complex<float>";
  else if constexpr (std::is_same_v<T, std::complex<double>>) return "c10::complex<double>";
  else if constexpr (std::is_same_v<T, ComplexHalf>) return "c10::complex<c10::Half>";
  else return "unknown";
}

namespace detail {

template <class T>
constexpr double lowest_as_double() noexcept {
  if constexpr (is_reduced_float_v<T>) return -opd::detail::max_finite<T>();
  else return static_cast<double>(std::numeric_limits<T>::lowest());
}
template <class T>
constexpr double max_as_double() noexcept {
  if constexpr (is_reduced_float_v<T>) return opd::detail::max_finite<T>();
  else return static_cast<double>(std::numeric_limits<T>::max());
}

// c10::overflows<T>(double)
template <class T>
bool overflows_double(double d) noexcept {
  if constexpr (is_float_like_v<T>) {
    if (std::isinf(d)) return false;
  } else {
    if (std::isnan(d)) return true;
  }
  return d < lowest_as_double<T>() || d > max_as_double<T>();
}

// c10::overflows<T>(int64_t): negative values may wrap into unsigned types
// by two's complement (so that uint8 `a - b` is `a + 255 * b`).
template <class T>
bool overflows_int(int64_t v) noexcept {
  if constexpr (is_float_like_v<T>) {
    const double d = static_cast<double>(v);
    return d < lowest_as_double<T>() || d > max_as_double<T>();
  } else if constexpr (std::is_unsigned_v<T>) {
    const uint64_t max = static_cast<uint64_t>(std::numeric_limits<T>::max());
    if (v >= 0) return static_cast<uint64_t>(v) > max;
    return uint64_t{0} - static_cast<uint64_t>(v) > max;
  } else {
    return v < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
           v > static_cast<int64_t>(std::numeric_limits<T>::max());
  }
}

// (One function for every type: the message is built from the type's name.)
[[noreturn, gnu::cold]] inline void throw_overflow(const char* type_name) {
  throw Error(std::string("value cannot be converted to type ") + type_name + " without overflow");
}
template <class T>
[[noreturn]] inline void report_overflow() {
  throw_overflow(c10_type_name<T>());
}

}  // namespace detail

// c10::Scalar::to<T>() (checked_convert): throws opd::Error "value cannot be
// converted to type int8_t without overflow" when the value does not fit T.
// Conversion to bool never overflows; a complex value needs a zero
// imaginary part. To complex: each part checked against the part's type,
// as c10::overflows<c10::complex<R>> does.
namespace detail {
template <class T>
T checked_real_scalar_to(const Scalar& s);
}  // namespace detail

template <class T>
T checked_scalar_to(const Scalar& s) {
  if constexpr (is_complex_half_v<T>) {  // each part checked against Half's range
    const std::complex<double> v = s.to_complex_double();
    if (detail::overflows_double<Half>(v.real()) || detail::overflows_double<Half>(v.imag())) detail::report_overflow<T>();
    return convert<T>(v);
  } else if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    const std::complex<double> v = s.to_complex_double();
    if (detail::overflows_double<R>(v.real()) || detail::overflows_double<R>(v.imag())) detail::report_overflow<T>();
    return T(static_cast<R>(v.real()), static_cast<R>(v.imag()));
  } else {
    return detail::checked_real_scalar_to<T>(s);
  }
}

namespace detail {
template <class T>
T checked_real_scalar_to(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: return convert<T>(s.to_bool());
    case Scalar::Kind::Int: {
      const int64_t v = s.to_long();
      if constexpr (!std::is_same_v<T, bool>) {
        if (detail::overflows_int<T>(v)) detail::report_overflow<T>();
      }
      return convert<T>(v);
    }
    case Scalar::Kind::Double: {
      const double v = s.to_double();
      if constexpr (!std::is_same_v<T, bool>) {
        if (detail::overflows_double<T>(v)) detail::report_overflow<T>();
      }
      return convert<T>(v);
    }
    case Scalar::Kind::ComplexDouble: {
      const std::complex<double> v = s.to_complex_double();
      if constexpr (!std::is_same_v<T, bool>) {
        if (v.imag() != 0.0 || detail::overflows_double<T>(v.real())) detail::report_overflow<T>();
      }
      return convert<T>(v.real());
    }
  }
  return T{};
}
}  // namespace detail

// A Scalar operand converted to an op's common dtype, as the wrapped
// number tensor's `.to(common_dtype)` does: no overflow check.
template <class T>
T scalar_cast(const Scalar& s) {
  if constexpr (is_complex_v<T> || is_complex_half_v<T>) {
    return convert<T>(s.to_complex_double());
  } else {
    switch (s.kind()) {
      case Scalar::Kind::Bool: return convert<T>(s.to_bool());
      case Scalar::Kind::Int: return convert<T>(s.to_long());
      case Scalar::Kind::Double: return convert<T>(s.to_double());
      case Scalar::Kind::ComplexDouble: return convert<T>(s.to_complex_double().real());
    }
    return T{};
  }
}

// PyTorch's error for a kernel without a loop for a dtype:
// "\"add\" not implemented for 'ComplexFloat'".
[[noreturn]] inline void throw_not_implemented_for(const char* name, ScalarType t) {
  throw TypeError(opd::detail::str_cat('"', name, "\" not implemented for '", t, "'"));
}

// Calls f(type_tag<T>{}) with the element type of `t` for the ten kernel
// dtypes; throws opd::TypeError "\"add\" not implemented for 'ComplexFloat'"
// otherwise.
template <class F>
decltype(auto) dispatch_dtype(ScalarType t, const char* name, F&& f) {
  switch (t) {
    case ScalarType::Bool: return std::forward<F>(f)(type_tag<bool>{});
    case ScalarType::Byte: return std::forward<F>(f)(type_tag<uint8_t>{});
    case ScalarType::Char: return std::forward<F>(f)(type_tag<int8_t>{});
    case ScalarType::Short: return std::forward<F>(f)(type_tag<int16_t>{});
    case ScalarType::Int: return std::forward<F>(f)(type_tag<int32_t>{});
    case ScalarType::Long: return std::forward<F>(f)(type_tag<int64_t>{});
    case ScalarType::Half: return std::forward<F>(f)(type_tag<Half>{});
    case ScalarType::Float: return std::forward<F>(f)(type_tag<float>{});
    case ScalarType::Double: return std::forward<F>(f)(type_tag<double>{});
    case ScalarType::BFloat16: return std::forward<F>(f)(type_tag<BFloat16>{});
    default: break;
  }
  throw_not_implemented_for(name, t);
}

// dispatch_dtype plus ComplexFloat and ComplexDouble: for the operators
// PyTorch defines on complex (the complex instantiations are compiled only
// where this is called).
template <class F>
decltype(auto) dispatch_dtype_with_complex(ScalarType t, const char* name, F&& f) {
  if (t == ScalarType::ComplexFloat) return std::forward<F>(f)(type_tag<std::complex<float>>{});
  if (t == ScalarType::ComplexDouble) return std::forward<F>(f)(type_tag<std::complex<double>>{});
  return dispatch_dtype(t, name, std::forward<F>(f));
}

// dispatch_dtype_with_complex plus ComplexHalf: every dtype with an element
// type. For what PyTorch 1.13 does with complex32 on CPU (conversions, fill);
// other kernels refuse it, with its message.
template <class F>
decltype(auto) dispatch_dtype_with_complex_half(ScalarType t, const char* name, F&& f) {
  if (t == ScalarType::ComplexHalf) return std::forward<F>(f)(type_tag<ComplexHalf>{});
  return dispatch_dtype_with_complex(t, name, std::forward<F>(f));
}

// Same, for ComplexFloat and ComplexDouble only.
template <class F>
decltype(auto) dispatch_complex_dtype(ScalarType t, const char* name, F&& f) {
  if (t == ScalarType::ComplexFloat) return std::forward<F>(f)(type_tag<std::complex<float>>{});
  if (t == ScalarType::ComplexDouble) return std::forward<F>(f)(type_tag<std::complex<double>>{});
  throw_not_implemented_for(name, t);
}

// The complex dtypes the kernels have loops for (not ComplexHalf).
constexpr bool is_complex_kernel_dtype(ScalarType t) noexcept {
  return t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}

// The dtype of a complex kernel dtype's parts (c10::toRealValueType); any
// other dtype itself.
constexpr ScalarType real_part_dtype(ScalarType t) noexcept {
  return t == ScalarType::ComplexFloat ? ScalarType::Float : t == ScalarType::ComplexDouble ? ScalarType::Double : t;
}

// Same, for the floating dtypes only (Half, Float, Double, BFloat16).
template <class F>
decltype(auto) dispatch_floating_dtype(ScalarType t, const char* name, F&& f) {
  switch (t) {
    case ScalarType::Half: return std::forward<F>(f)(type_tag<Half>{});
    case ScalarType::Float: return std::forward<F>(f)(type_tag<float>{});
    case ScalarType::Double: return std::forward<F>(f)(type_tag<double>{});
    case ScalarType::BFloat16: return std::forward<F>(f)(type_tag<BFloat16>{});
    default: break;
  }
  throw_not_implemented_for(name, t);
}

// The dtypes of a loop family split into groups compiled in separate
// sources (a family's whole dtype product took 8-10 s to compile in one):
// Integral: Bool, Byte, Char, Short, Int, Long; Floating: Half, Float,
// Double, BFloat16; WideFloating: Float, Double; ReducedFloating: Half, BFloat16.
enum class DtypeGroup : uint8_t { Integral, Floating, WideFloating, ReducedFloating };

// dispatch_dtype restricted to group G: the same error for any other dtype.
template <DtypeGroup G, class F>
decltype(auto) dispatch_dtype_group(ScalarType t, const char* name, F&& f) {
  if constexpr (G == DtypeGroup::Floating) {
    return dispatch_floating_dtype(t, name, std::forward<F>(f));
  } else {
    switch (t) {
      case ScalarType::Bool:
        if constexpr (G == DtypeGroup::Integral) return std::forward<F>(f)(type_tag<bool>{});
        break;
      case ScalarType::Byte:
        if constexpr (G == DtypeGroup::Integral) return std::forward<F>(f)(type_tag<uint8_t>{});
        break;
      case ScalarType::Char:
        if constexpr (G == DtypeGroup::Integral) return std::forward<F>(f)(type_tag<int8_t>{});
        break;
      case ScalarType::Short:
        if constexpr (G == DtypeGroup::Integral) return std::forward<F>(f)(type_tag<int16_t>{});
        break;
      case ScalarType::Int:
        if constexpr (G == DtypeGroup::Integral) return std::forward<F>(f)(type_tag<int32_t>{});
        break;
      case ScalarType::Long:
        if constexpr (G == DtypeGroup::Integral) return std::forward<F>(f)(type_tag<int64_t>{});
        break;
      case ScalarType::Half:
        if constexpr (G == DtypeGroup::ReducedFloating) return std::forward<F>(f)(type_tag<Half>{});
        break;
      case ScalarType::BFloat16:
        if constexpr (G == DtypeGroup::ReducedFloating) return std::forward<F>(f)(type_tag<BFloat16>{});
        break;
      case ScalarType::Float:
        if constexpr (G == DtypeGroup::WideFloating) return std::forward<F>(f)(type_tag<float>{});
        break;
      case ScalarType::Double:
        if constexpr (G == DtypeGroup::WideFloating) return std::forward<F>(f)(type_tag<double>{});
        break;
      default: break;
    }
    throw_not_implemented_for(name, t);
  }
}

}  // namespace opd::kernels
