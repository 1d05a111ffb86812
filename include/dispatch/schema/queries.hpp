#pragma once
// Questions about a parsed schema that PyTorch answers from its own data
// model (c10::Argument::alias_info(), is_out()), answered from ours with the
// same results. Work on any basic_schema, at compile time and at run time.
#include <cstdint>
#include <optional>

#include "model.hpp"

namespace opd::schema {

// The alias annotation PyTorch attaches to a value of type `type_index`, i.e.
// what c10::Argument::alias_info() returns for an argument of that type:
//   Tensor(a!)        -> (a!)            the annotation written on the type
//   Tensor(a!)?       -> (a!)            '?' keeps the annotation of what it wraps
//   Tensor(a!)[]      -> {[], [], write} a list of annotated elements gets a
//                                        container annotation with empty sets
//                                        and the element's is_write
//   Tensor(a)[](b)    -> (b)             an annotation on the list itself wins
//   Tensor(a)[2]      -> none            with a fixed size N, PyTorch keeps only an
//                                        annotation written after [N]
// The shorthand Tensor! comes back as written (is_write, shorthand, empty
// sets); PyTorch names its set "$0", "$1", ... in order of appearance.
template <class Schema>
constexpr std::optional<alias_info> top_level_alias(const Schema& s, std::int16_t type_index) {
  if (type_index == no_index) return std::nullopt;
  const type_node& n = s.type(type_index);
  if (n.kind == type_kind::optional) return top_level_alias(s, n.child);
  if (n.alias != no_index) return s.alias(n.alias);
  if (n.kind != type_kind::list || n.fixed_size >= 0) return std::nullopt;
  const std::optional<alias_info> element = top_level_alias(s, n.child);
  if (!element) return std::nullopt;
  alias_info container;
  container.is_write = element->is_write;
  return container;
}

template <class Schema>
constexpr std::optional<alias_info> top_level_alias(const Schema& s, const argument& a) {
  return top_level_alias(s, a.type);
}

// Does the argument write to its alias set?
template <class Schema>
constexpr bool is_write(const Schema& s, const argument& a) {
  const std::optional<alias_info> alias = top_level_alias(s, a.type);
  return alias && alias->is_write;
}

// PyTorch's Argument::is_out(): a keyword-only argument that is written to
// (the `out` tensors of an out= overload). Never true for a return.
template <class Schema>
constexpr bool is_out(const Schema& s, const argument& a) {
  return a.kwarg_only && is_write(s, a);
}

// PyTorch's FunctionSchema::is_mutable(): some argument is written to.
template <class Schema>
constexpr bool is_mutable(const Schema& s) {
  for (const argument& a : s.arguments)
    if (is_write(s, a)) return true;
  return false;
}

}  // namespace opd::schema
