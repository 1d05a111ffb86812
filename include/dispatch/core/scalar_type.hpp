// ScalarType: the element type (dtype) of a tensor, with PyTorch's numbering.
//
// Why PyTorch's numbering: schemas, serialized IValues (ScalarType travels as
// Int) and the promotion table are all indexed by these numbers, so keeping
// them identical lets code and data move between the two worlds unchanged.
#pragma once

#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/mp11/map.hpp>
#include <boost/mp11/utility.hpp>

#include "dispatch/core/bfloat16.hpp"
#include "dispatch/core/complex_half.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/half.hpp"

namespace opd {

enum class ScalarType : int8_t {
  Byte = 0,    // uint8_t
  Char = 1,    // int8_t
  Short = 2,   // int16_t
  Int = 3,     // int32_t
  Long = 4,    // int64_t
  Half = 5,    // opd::Half
  Float = 6,   // float
  Double = 7,  // double
  ComplexHalf = 8,     // opd::ComplexHalf (2 x Half)
  ComplexFloat = 9,    // std::complex<float>
  ComplexDouble = 10,  // std::complex<double>
  Bool = 11,           // bool
  QInt8 = 12,          // quantized: size only, no promotion
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,  // opd::BFloat16
  Undefined,      // no dtype (e.g. IValue "ScalarType? dtype=None" resolved late)
  NumOptions
};

inline constexpr int kNumScalarTypes = static_cast<int>(ScalarType::NumOptions);

constexpr bool is_valid_scalar_type(int64_t value) noexcept { return value >= 0 && value < kNumScalarTypes; }

constexpr std::string_view to_string(ScalarType t) noexcept {
  switch (t) {
    case ScalarType::Byte: return "Byte";
    case ScalarType::Char: return "Char";
    case ScalarType::Short: return "Short";
    case ScalarType::Int: return "Int";
    case ScalarType::Long: return "Long";
    case ScalarType::Half: return "Half";
    case ScalarType::Float: return "Float";
    case ScalarType::Double: return "Double";
    case ScalarType::ComplexHalf: return "ComplexHalf";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    case ScalarType::Bool: return "Bool";
    case ScalarType::QInt8: return "QInt8";
    case ScalarType::QUInt8: return "QUInt8";
    case ScalarType::QInt32: return "QInt32";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Undefined: return "Undefined";
    case ScalarType::NumOptions: break;
  }
  return "UNKNOWN_SCALAR";
}

inline std::ostream& operator<<(std::ostream& os, ScalarType t) { return os << to_string(t); }
// The same text for error messages, without a stream (str_cat finds it by ADL).
inline void append_to(std::string& out, ScalarType t) { detail::append_to(out, to_string(t)); }

// Parses the names printed by to_string ("Float", "Long", ...).
constexpr std::optional<ScalarType> try_parse_scalar_type(std::string_view name) noexcept {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    const auto t = static_cast<ScalarType>(i);
    if (to_string(t) == name) return t;
  }
  return std::nullopt;
}
inline ScalarType parse_scalar_type(std::string_view name) {
  const auto t = try_parse_scalar_type(name);
  OPD_CHECK_VALUE(t.has_value(), "unknown scalar type '", name, "'");
  return *t;
}

// Bytes per element; 0 for Undefined.
constexpr std::size_t element_size(ScalarType t) noexcept {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Char:
    case ScalarType::Bool:
    case ScalarType::QInt8:
    case ScalarType::QUInt8: return 1;
    case ScalarType::Short:
    case ScalarType::Half:
    case ScalarType::BFloat16: return 2;
    case ScalarType::Int:
    case ScalarType::Float:
    case ScalarType::ComplexHalf:
    case ScalarType::QInt32: return 4;
    case ScalarType::Long:
    case ScalarType::Double:
    case ScalarType::ComplexFloat: return 8;
    case ScalarType::ComplexDouble: return 16;
    case ScalarType::Undefined:
    case ScalarType::NumOptions: break;
  }
  return 0;
}

constexpr bool is_floating_type(ScalarType t) noexcept {
  return t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::BFloat16;
}
constexpr bool is_complex_type(ScalarType t) noexcept {
  return t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble;
}
constexpr bool is_qint_type(ScalarType t) noexcept {
  return t == ScalarType::QInt8 || t == ScalarType::QUInt8 || t == ScalarType::QInt32;
}
// c10::isIntegralType(t, includeBool).
constexpr bool is_integral_type(ScalarType t, bool include_bool) noexcept {
  const bool integral = t == ScalarType::Byte || t == ScalarType::Char || t == ScalarType::Short ||
                        t == ScalarType::Int || t == ScalarType::Long;
  return integral || (include_bool && t == ScalarType::Bool);
}
constexpr bool is_signed_type(ScalarType t) noexcept {
  return t != ScalarType::Byte && t != ScalarType::Bool && t != ScalarType::QUInt8 && t != ScalarType::Undefined;
}

// Type promotion, c10::promoteTypes: the NumPy-derived lattice PyTorch uses
// for binary ops (Bool < integers < floating < complex, with the Half/BFloat16
// pair meeting at Float). Undefined propagates; quantized types only promote
// with themselves and throw otherwise.
inline ScalarType promote_types(ScalarType a, ScalarType b) {
  constexpr auto u1 = ScalarType::Byte;
  constexpr auto i1 = ScalarType::Char;
  constexpr auto i2 = ScalarType::Short;
  constexpr auto i4 = ScalarType::Int;
  constexpr auto i8 = ScalarType::Long;
  constexpr auto f2 = ScalarType::Half;
  constexpr auto f4 = ScalarType::Float;
  constexpr auto f8 = ScalarType::Double;
  constexpr auto c2 = ScalarType::ComplexHalf;
  constexpr auto c4 = ScalarType::ComplexFloat;
  constexpr auto c8 = ScalarType::ComplexDouble;
  constexpr auto b1 = ScalarType::Bool;
  constexpr auto bf = ScalarType::BFloat16;
  constexpr auto ud = ScalarType::Undefined;
  if (a == ud || b == ud) return ud;
  OPD_CHECK_VALUE(static_cast<int>(a) >= 0 && static_cast<int>(a) < kNumScalarTypes &&
                      static_cast<int>(b) >= 0 && static_cast<int>(b) < kNumScalarTypes,
                  "promote_types: invalid ScalarType value");
  if (is_qint_type(a) || is_qint_type(b)) {
    OPD_CHECK_TYPE(a == b, "promote_types with quantized numbers is not handled; offending types: ", a, " ", b);
    return a;
  }
  // Rows/columns follow ScalarType numbering 0..15 (q* rows are unreachable).
  static constexpr ScalarType table[16][16] = {
      /*        u1  i1  i2  i4  i8  f2  f4  f8  c2  c4  c8  b1  q1  q2  q3  bf*/
      /* u1 */ {u1, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, u1, ud, ud, ud, bf},
      /* i1 */ {i2, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, i1, ud, ud, ud, bf},
      /* i2 */ {i2, i2, i2, i4, i8, f2, f4, f8, c2, c4, c8, i2, ud, ud, ud, bf},
      /* i4 */ {i4, i4, i4, i4, i8, f2, f4, f8, c2, c4, c8, i4, ud, ud, ud, bf},
      /* i8 */ {i8, i8, i8, i8, i8, f2, f4, f8, c2, c4, c8, i8, ud, ud, ud, bf},
      /* f2 */ {f2, f2, f2, f2, f2, f2, f4, f8, c2, c4, c8, f2, ud, ud, ud, f4},
      /* f4 */ {f4, f4, f4, f4, f4, f4, f4, f8, c4, c4, c8, f4, ud, ud, ud, f4},
      /* f8 */ {f8, f8, f8, f8, f8, f8, f8, f8, c8, c8, c8, f8, ud, ud, ud, f8},
      /* c2 */ {c2, c2, c2, c2, c2, c2, c4, c8, c2, c4, c8, c2, ud, ud, ud, c4},
      /* c4 */ {c4, c4, c4, c4, c4, c4, c4, c8, c4, c4, c8, c4, ud, ud, ud, c4},
      /* c8 */ {c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, c8, ud, ud, ud, c8},
      /* b1 */ {u1, i1, i2, i4, i8, f2, f4, f8, c2, c4, c8, b1, ud, ud, ud, bf},
      /* q1 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
      /* q2 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
      /* q3 */ {ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud, ud},
      /* bf */ {bf, bf, bf, bf, bf, f4, f4, f8, c4, c4, c8, bf, ud, ud, ud, bf},
  };
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

// ---------------------------------------------------------------------------
// C++ type <-> ScalarType. One table (a Boost.Mp11 map) drives both
// directions and the runtime visitor below, so they cannot drift apart.
// ---------------------------------------------------------------------------

template <ScalarType S>
using scalar_type_constant = std::integral_constant<ScalarType, S>;

using scalar_type_map = boost::mp11::mp_list<
    boost::mp11::mp_list<uint8_t, scalar_type_constant<ScalarType::Byte>>,
    boost::mp11::mp_list<int8_t, scalar_type_constant<ScalarType::Char>>,
    boost::mp11::mp_list<int16_t, scalar_type_constant<ScalarType::Short>>,
    boost::mp11::mp_list<int32_t, scalar_type_constant<ScalarType::Int>>,
    boost::mp11::mp_list<int64_t, scalar_type_constant<ScalarType::Long>>,
    boost::mp11::mp_list<Half, scalar_type_constant<ScalarType::Half>>,
    boost::mp11::mp_list<float, scalar_type_constant<ScalarType::Float>>,
    boost::mp11::mp_list<double, scalar_type_constant<ScalarType::Double>>,
    boost::mp11::mp_list<ComplexHalf, scalar_type_constant<ScalarType::ComplexHalf>>,
    boost::mp11::mp_list<std::complex<float>, scalar_type_constant<ScalarType::ComplexFloat>>,
    boost::mp11::mp_list<std::complex<double>, scalar_type_constant<ScalarType::ComplexDouble>>,
    boost::mp11::mp_list<bool, scalar_type_constant<ScalarType::Bool>>,
    boost::mp11::mp_list<BFloat16, scalar_type_constant<ScalarType::BFloat16>>>;

// True for the C++ element types a tensor can hold (cv-qualifiers ignored).
template <class T>
inline constexpr bool has_scalar_type_v =
    !std::is_same_v<boost::mp11::mp_map_find<scalar_type_map, std::remove_cv_t<T>>, void>;

// scalar_type_of_v<float> == ScalarType::Float.
template <class T>
  requires has_scalar_type_v<T>
inline constexpr ScalarType scalar_type_of_v =
    boost::mp11::mp_second<boost::mp11::mp_map_find<scalar_type_map, std::remove_cv_t<T>>>::value;

namespace detail {
template <ScalarType S>
using scalar_type_index =
    boost::mp11::mp_find<boost::mp11::mp_transform<boost::mp11::mp_second, scalar_type_map>, scalar_type_constant<S>>;

inline constexpr std::size_t kNumCppScalarTypes = boost::mp11::mp_size<scalar_type_map>::value;

// ScalarType value -> position in scalar_type_map (kNumCppScalarTypes if none).
template <std::size_t... I>
constexpr std::array<std::size_t, kNumScalarTypes> make_scalar_type_positions(std::index_sequence<I...>) {
  std::array<std::size_t, kNumScalarTypes> positions{};
  for (auto& p : positions) p = kNumCppScalarTypes;
  ((positions[static_cast<std::size_t>(boost::mp11::mp_second<boost::mp11::mp_at_c<scalar_type_map, I>>::value)] = I),
   ...);
  return positions;
}
inline constexpr std::array<std::size_t, kNumScalarTypes> scalar_type_positions =
    make_scalar_type_positions(std::make_index_sequence<kNumCppScalarTypes>{});
}  // namespace detail

template <ScalarType S>
inline constexpr bool has_cpp_type_v = detail::scalar_type_index<S>::value < boost::mp11::mp_size<scalar_type_map>::value;

// cpp_type_t<ScalarType::Float> is float.
template <ScalarType S>
  requires has_cpp_type_v<S>
using cpp_type_t = boost::mp11::mp_first<boost::mp11::mp_at<scalar_type_map, detail::scalar_type_index<S>>>;

template <class T>
struct type_tag {
  using type = T;
};

// Runtime dtype -> compile-time type: calls f(type_tag<T>{}) with the C++
// type of `t`. Throws for dtypes without a C++ type (q*, Undefined).
// The AT_DISPATCH_* of this library.
template <class F>
decltype(auto) visit_scalar_type(ScalarType t, F&& f) {
  const auto raw = static_cast<std::size_t>(static_cast<uint8_t>(t));
  const std::size_t index = raw < detail::scalar_type_positions.size() ? detail::scalar_type_positions[raw]
                                                                        : detail::kNumCppScalarTypes;
  OPD_CHECK_TYPE(index < detail::kNumCppScalarTypes, "visit_scalar_type: dtype ", t, " has no C++ element type");
  return boost::mp11::mp_with_index<detail::kNumCppScalarTypes>(index, [&](auto i) -> decltype(auto) {
    using entry = boost::mp11::mp_at_c<scalar_type_map, decltype(i)::value>;
    return std::forward<F>(f)(type_tag<boost::mp11::mp_first<entry>>{});
  });
}

}  // namespace opd
