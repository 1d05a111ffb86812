#pragma once
// A schema default turned into the value a kernel parameter takes, at compile
// time where the type allows: `int[2] stride=1` becomes a span over a static
// constexpr std::array{1, 1}, `float eps=1e-05` the double 1e-05, `Tensor?
// weight=None` an empty optional.
#include <array>
#include <complex>
#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dispatch/core/device.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/schema/lexer.hpp"
#include "dispatch/schema/model.hpp"
#include "dispatch/schema/parser.hpp"

namespace opd::detail {

// Element k of a list default "[a, b, c]" (or the single value of a repeated
// default), as a default_value of its own.
constexpr schema::default_value list_default_element(const schema::default_value& d, std::size_t k) {
  if (d.kind == schema::default_kind::repeated) return d;
  schema::lexer lex(d.text);
  lex.next();  // '['
  for (std::size_t i = 0; i < k; ++i) {
    while (!lex.cur().is(',')) lex.next();
    lex.next();
  }
  schema::default_value e;
  const bool negative = lex.cur().is('-');
  if (negative) lex.next();
  const schema::token t = lex.cur();
  if (t.is_keyword("True") || t.is_keyword("False")) {
    e.kind = schema::default_kind::boolean;
    e.boolean = t.text == "True";
  } else if (t.kind == schema::token_kind::ident) {
    e.kind = schema::default_kind::symbol;
    for (const auto& sym : schema::symbolic_defaults)
      if (sym.name == t.text) e.integer = sym.value;
    e.floating = static_cast<double>(e.integer);
  } else {
    const auto v = schema::read_number(t.text, negative);
    e.kind = v.kind;
    e.integer = v.integer;
    e.floating = v.kind == schema::default_kind::integer ? static_cast<double>(v.integer) : v.floating;
  }
  return e;
}

template <class T>
constexpr T single_default(const schema::default_value& d) {
  using K = schema::default_kind;
  if constexpr (std::is_same_v<T, bool>) {
    return d.boolean;
  } else if constexpr (std::is_enum_v<T>) {
    return static_cast<T>(d.integer);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(d.integer);
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(d.floating);
  } else if constexpr (std::is_same_v<T, std::complex<double>>) {
    return d.kind == K::complex ? std::complex<double>(0.0, d.floating) : std::complex<double>(d.floating, 0.0);
  } else if constexpr (std::is_same_v<T, std::string_view>) {
    return d.text.substr(1, d.text.size() - 2);  // between the quotes; escapes stay as written
  } else if constexpr (std::is_same_v<T, Scalar>) {
    if (d.kind == K::boolean) return Scalar(d.boolean);
    if (d.kind == K::floating) return Scalar(d.floating);
    if (d.kind == K::complex) return Scalar(std::complex<double>(0.0, d.floating));
    return Scalar(d.integer);
  } else if constexpr (std::is_same_v<T, Device>) {
    return Device(d.text.substr(1, d.text.size() - 2));
  } else {
    static_assert(sizeof(T) == 0, "no default value conversion for this parameter type");
  }
}

template <class E, std::size_t N>
constexpr std::array<E, N> list_default(const schema::default_value& d) {
  std::array<E, N> out{};
  for (std::size_t k = 0; k < N; ++k) out[k] = single_default<E>(list_default_element(d, k));
  return out;
}

template <class Op, std::size_t I>
constexpr std::size_t list_default_length() {
  constexpr const auto& d = Op::schema.arguments[I].def;
  return static_cast<std::size_t>(d.length);
}

// Static storage for a list default, so a span can point at it.
template <class Op, std::size_t I, class E>
inline constexpr auto list_default_storage = list_default<E, list_default_length<Op, I>()>(Op::schema.arguments[I].def);

// The value for parameter type P (decayed) of argument I of Op.
template <class Op, std::size_t I, class P>
constexpr auto default_for() {
  using T = std::remove_cvref_t<P>;
  constexpr const auto& d = Op::schema.arguments[I].def;
  if constexpr (boxing::is_optional<T>::value) {
    if constexpr (d.kind == schema::default_kind::none) {
      return T(std::nullopt);
    } else {
      return T(default_for<Op, I, typename T::value_type>());
    }
  } else if constexpr (boxing::is_span<T>::value && d.length == 0) {
    return T();  // [] : also for element types with no constexpr value (str[], Tensor[], Tensor?[])
  } else if constexpr (boxing::is_span<T>::value) {
    using E = std::remove_const_t<typename T::element_type>;
    const auto& storage = list_default_storage<Op, I, E>;
    return T(storage.data(), storage.size());
  } else if constexpr (boxing::is_std_array<T>::value) {
    return list_default<typename T::value_type, std::tuple_size_v<T>>(d);
  } else if constexpr (std::is_same_v<T, std::vector<bool>>) {
    const auto a = list_default<bool, list_default_length<Op, I>()>(d);
    return std::vector<bool>(a.begin(), a.end());
  } else {
    return single_default<T>(d);
  }
}

}  // namespace opd::detail
