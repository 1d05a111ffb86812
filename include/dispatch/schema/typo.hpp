#pragma once
// Type variables that look like typos. PyTorch's grammar reads an unknown
// lower-case type name (`t`, `t1`) as a type variable, which takes any value;
// so `tensor` or `int64` parse, and a kernel is then expected to take
// `const opd::IValue&`. The grammar stays; these functions say what was
// probably meant, for the kernel check (kernel_signature.hpp) and opd-schema.
//
//   opd::schema::type_variable_suggestion("tensor")  // "Tensor"
//   opd::schema::type_variable_suggestion("int64")   // "int"
//   opd::schema::type_variable_suggestion("t")       // "" (a real type variable)
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "model.hpp"

namespace opd::schema {

namespace detail {
constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace detail

// Edit distance (insertions, deletions, substitutions and transpositions of
// neighbours, each 1), ignoring ASCII case. Words longer than 127 bytes are
// `limit` apart from everything (no suggestion is made for them).
constexpr std::size_t edit_distance_ignoring_case(std::string_view a, std::string_view b, std::size_t limit = 64) {
  constexpr std::size_t max_len = 127;
  if (a.size() > max_len || b.size() > max_len) return limit;
  std::size_t before[max_len + 1]{}, prev[max_len + 1]{}, cur[max_len + 1]{};
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = detail::ascii_lower(a[i - 1]) == detail::ascii_lower(b[j - 1]);
      std::size_t d = prev[j - 1] + (same ? 0 : 1);
      if (prev[j] + 1 < d) d = prev[j] + 1;
      if (cur[j - 1] + 1 < d) d = cur[j - 1] + 1;
      if (i > 1 && j > 1 && detail::ascii_lower(a[i - 1]) == detail::ascii_lower(b[j - 2]) &&
          detail::ascii_lower(a[i - 2]) == detail::ascii_lower(b[j - 1]) && before[j - 2] + 1 < d)
        d = before[j - 2] + 1;
      cur[j] = d;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
      before[j] = prev[j];
      prev[j] = cur[j];
    }
  }
  return prev[b.size()];
}

// Spellings from other languages for a schema type.
struct type_alias_spelling {
  std::string_view written;
  std::string_view meant;
};
inline constexpr type_alias_spelling type_alias_spellings[] = {
    {"int64", "int"},     {"int64_t", "int"}, {"int32", "int"},    {"long", "int"},       {"integer", "int"},
    {"size_t", "int"},    {"float32", "float"}, {"float64", "float"}, {"real", "float"}, {"boolean", "bool"},
    {"string", "str"},    {"tensors", "Tensor[]"}, {"symint", "SymInt"}, {"dtype", "ScalarType"},
};

// The type a type variable's name probably meant, or "" when it looks like a
// type variable (`t`, `T1`, ...): a known type spelt in another case
// (`tensor`), a common spelling from elsewhere (`int64`), or a known type of
// 4 or more letters one edit away (`Tesnor` is an error anyway; `scalr`).
constexpr std::string_view type_variable_suggestion(std::string_view name) {
  for (const auto& a : type_alias_spellings)
    if (a.written == name) return a.meant;
  for (const auto& b : base_type_names)
    if (b.spelling.size() == name.size() && edit_distance_ignoring_case(b.spelling, name) == 0) return b.spelling;
  if (name.size() >= 4)
    for (const auto& b : base_type_names)
      if (b.spelling.size() >= 4 && edit_distance_ignoring_case(b.spelling, name, 2) == 1) return b.spelling;
  return {};
}

// The first type variable of a parsed schema (arguments, then returns) that
// has a suggestion: its index in schema.types, or no_index.
template <class Schema>
constexpr std::int16_t first_suspicious_type_variable(const Schema& s) {
  for (std::size_t i = 0; i < s.types.size(); ++i)
    if (s.types[i].kind == type_kind::type_var && !type_variable_suggestion(s.types[i].name).empty())
      return static_cast<std::int16_t>(i);
  return no_index;
}

}  // namespace opd::schema
