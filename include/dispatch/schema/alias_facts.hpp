#pragma once
// Which arguments an operator writes and what each of its returns aliases,
// read from the schema's alias annotations: what a layer that runs an
// operator somewhere else (the CPU fallback, functionalization) must know to
// copy written arguments back and to hand the caller its own tensors.
//
//   return_written_argument(s, r)   the written argument return r aliases (Tensor(a!) -> the argument in set a)
//   return_is_view(s, r)            return r aliases an argument without a write (Tensor(a) -> a view)
//   unmatched_mutable_return(s)     the first written return no argument shares a set with (an invalid schema)
//   alias_table_of<NA, NR>(s)       all of the above per argument and return, as fixed-size arrays
//   precomputed_alias_facts         a view of such a table: what an operator entry takes when declared
//
// Generic over the schema type, so the same answers come at compile time for
// an operator type and at run time for a declared schema. The annotation read
// is the one on the Tensor itself (Tensor(a!)[] counts as a written list).
#include <array>
#include <cstddef>
#include <span>

#include "model.hpp"
#include "properties.hpp"

namespace opd::schema {

namespace alias_facts_detail {
template <class S>
constexpr const alias_info* tensor_annotation(const S& s, std::int16_t type) {
  return properties_detail::annotation(s, type);
}
constexpr bool shares_first_set(const alias_info& a, const alias_info& b) {
  return !a.shorthand && !b.shorthand && a.before.count > 0 && b.before.count > 0 &&
         text_equal(a.before.names[0], b.before.names[0]);
}
}  // namespace alias_facts_detail

// The position of the written argument that return r aliases, or no_position
// (a fresh return, or a view, or a written return matching nothing).
template <class Schema>
constexpr std::size_t return_written_argument(const Schema& schema, std::size_t r) {
  const auto& s = properties_detail::schema_value(schema);
  const alias_info* ra = alias_facts_detail::tensor_annotation(s, s.returns[r].type);
  if (ra == nullptr || !ra->is_write) return no_position;
  for (std::size_t i = 0; i < s.arguments.size(); ++i) {
    const alias_info* aa = alias_facts_detail::tensor_annotation(s, s.arguments[i].type);
    if (aa != nullptr && aa->is_write && alias_facts_detail::shares_first_set(*aa, *ra)) return i;
  }
  return no_position;
}

// Return r aliases an input without writing it (view, alias, transpose, ...).
template <class Schema>
constexpr bool return_is_view(const Schema& schema, std::size_t r) {
  const auto& s = properties_detail::schema_value(schema);
  const alias_info* ra = alias_facts_detail::tensor_annotation(s, s.returns[r].type);
  return ra != nullptr && !ra->is_write;
}

// The first return annotated as written whose alias set no written argument
// has (`f(Tensor x) -> Tensor(a!)`): nothing the caller passed could be
// handed back. no_position when every written return has its argument.
template <class Schema>
constexpr std::size_t unmatched_mutable_return(const Schema& schema) {
  const auto& s = properties_detail::schema_value(schema);
  for (std::size_t r = 0; r < s.returns.size(); ++r) {
    const alias_info* ra = alias_facts_detail::tensor_annotation(s, s.returns[r].type);
    if (ra != nullptr && ra->is_write && return_written_argument(s, r) == no_position) return r;
  }
  return no_position;
}

// Every answer above for a schema of NA arguments and NR returns, in arrays:
// for an operator type the compiler fills it (a constant per operator, see
// detail::static_alias_facts in dispatcher/call.hpp), so its entry copies the
// facts instead of reading the schema's annotations again when declared.
// The run-time analysis of a declared schema calls the same functions.
template <std::size_t NA, std::size_t NR>
struct alias_table {
  std::array<bool, NA> written{};                // argument i is written: Tensor(a!), Tensor(a!)?, Tensor(a!)[]
  std::array<std::ptrdiff_t, NR> return_written{};  // per return: the written argument it returns, or -1
  std::ptrdiff_t view_return = -1;                // the first return aliasing an argument without a write, or -1
  std::size_t unmatched_return = no_position;     // unmatched_mutable_return
};

template <std::size_t NA, std::size_t NR, class Schema>
constexpr alias_table<NA, NR> alias_table_of(const Schema& schema) {
  const auto& s = properties_detail::schema_value(schema);
  alias_table<NA, NR> t;
  for (std::size_t i = 0; i < NA; ++i) t.written[i] = is_mutable_argument(s, i);
  for (std::size_t r = 0; r < NR; ++r) {
    const std::size_t a = return_written_argument(s, r);
    t.return_written[r] = a == no_position ? -1 : static_cast<std::ptrdiff_t>(a);
    if (t.view_return < 0 && return_is_view(s, r)) t.view_return = static_cast<std::ptrdiff_t>(r);
  }
  t.unmatched_return = unmatched_mutable_return(s);
  return t;
}

// An alias_table of any size, as the (non-template) operator entry takes it.
struct precomputed_alias_facts {
  std::span<const bool> written;
  std::span<const std::ptrdiff_t> return_written;
  std::ptrdiff_t view_return = -1;
};

}  // namespace opd::schema
