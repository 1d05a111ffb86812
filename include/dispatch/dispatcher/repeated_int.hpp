#pragma once
// One integer for an `int[N]` / `SymInt[N]` argument of a typed call:
// `opd::call<conv2d>(x, w, b, 1, 0)` and `opd::arg<"padding"> = 1` stand for
// N copies, as the schema's own defaults (`int[2] padding=0`), PyTorch and
// the C entry read them. The kernel still receives a span of N values (or
// an optional one, for `int[N]?`): the
// call (call.hpp) keeps them in a slot of its frame, filled here.
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "dispatch/schema/model.hpp"

namespace opd::detail {

// N when argument I of Op is `int[N]` or `SymInt[N]`, optional or not
// (`int[1]? dim`: sum(x, 1)), else 0.
template <class Op, std::size_t I>
constexpr std::size_t repeated_int_size() {
  const auto& s = Op::schema;
  const auto& a = s.type_of(s.arguments[I]);
  const auto& t = a.kind == schema::type_kind::optional ? s.type(a.child) : a;
  if (t.kind != schema::type_kind::list || t.fixed_size <= 0) return 0;
  const auto& e = s.type(t.child);
  const bool integer = e.kind == schema::type_kind::base &&
                       (e.base == schema::base_type::int_ || e.base == schema::base_type::SymInt);
  return integer ? static_cast<std::size_t>(t.fixed_size) : 0;
}

// A value that stands for N copies: an integer, not a bool.
template <class T>
concept single_integer = std::integral<std::remove_cvref_t<T>> && !std::same_as<std::remove_cvref_t<T>, bool>;

// The N copies, alive for the call.
template <std::size_t N>
struct repeated_int_slot {
  std::array<std::int64_t, N> value{};
  std::span<const std::int64_t> fill(std::int64_t v) {
    value.fill(v);
    return value;
  }
};

}  // namespace opd::detail
