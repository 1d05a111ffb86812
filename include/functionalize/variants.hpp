#pragma once
// The operators the Functionalize layer calls instead of the one it received,
// found by name and checked by schema, as torchgen pairs them:
//
//   functional_variant_of(op)   in-place   aten::add_.Tensor -> aten::add.Tensor (the name without '_'), else
//                                          the member of the same family under another overload name:
//                                          aten::pow_.Scalar -> aten::pow.Tensor_Scalar
//                               out=       aten::add.out -> the declared operator of the same name whose
//                                          schema has the same family key (torchgen's signature()):
//                                          aten::add.Tensor; aten::add.Scalar_out -> aten::add.Scalar
//                               mutable    ns::foo.ov -> ns::foo_functional.ov, returning the new values
//                                          of the written arguments after the regular returns
//   copy_variant(view)          aten::transpose.int -> aten::transpose_copy.int (remove-views mode)
//
// Looked up once per operator and remembered (in a process-wide memo behind
// a mutex, and per thread without a lock); an operator declared after a
// failed look-up is found on the next call (failures are not remembered).
#include <string>
#include <string_view>

#include "dispatch/config.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"

namespace opd::functionalization {

// "ns::name" and "overload" of "ns::name.overload" (overload empty when absent).
struct split_name {
  std::string_view base;
  std::string_view overload;
};
constexpr split_name split_operator_name(std::string_view full) {
  const std::size_t dot = full.find('.');
  if (dot == std::string_view::npos) return {full, {}};
  return {full.substr(0, dot), full.substr(dot + 1)};
}
inline std::string join_operator_name(std::string_view base, std::string_view overload) {
  std::string s(base);
  if (!overload.empty()) {
    s += '.';
    s += overload;
  }
  return s;
}
// aten::add_ is in-place; aten::__iand__ and aten::_foo are not special here:
// only a trailing '_' after a non-'_' character counts, as torchgen's BaseOperatorName.
constexpr bool is_inplace_name(std::string_view full) {
  const std::string_view b = split_operator_name(full).base;
  return b.size() >= 2 && b.back() == '_' && b[b.size() - 2] != '_';
}

// The functional operator that computes what op writes; null when none is
// declared (the caller reports it, naming op).
OPD_API const OperatorEntry* functional_variant_of(const OperatorEntry& op);
// The same without the per-thread cache of the last answer.
OPD_API const OperatorEntry* functional_variant_lookup(const OperatorEntry& op);
// The *_copy operator of a view, or null when none is declared (composite
// views such as reshape or narrow have none: their replay is view_forward's).
OPD_API const OperatorEntry* copy_variant(const OperatorEntry& view);
OPD_API const OperatorEntry* copy_variant_lookup(const OperatorEntry& view);

}  // namespace opd::functionalization

#ifdef OPD_HEADER_ONLY
#include "functionalize/variants-inl.hpp"
#endif
