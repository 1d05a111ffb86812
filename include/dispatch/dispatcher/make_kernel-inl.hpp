#pragma once
#include "dispatch/dispatcher/boxed_defaults.hpp"
// Out-of-line part of make_kernel.hpp: the boxed path's error texts.
#include "dispatch/dispatcher/make_kernel.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd::detail {

// Renders an argument's schema type for error messages ("Tensor?", "int[]").
template <class S>
std::string schema_type_text(const S& s, std::int16_t t) {
  schema::string_sink sink;
  schema::print_type(s, t, sink);
  return std::move(sink.out);
}

OPD_FUNC void throw_boxed_argument_error(const OperatorEntry& op, std::size_t position, const IValue& got,
                                                    const std::string& detail) {
  const auto& s = op.schema().value();
  const auto& arg = s.arguments[position];
  // The unboxing's own "Expected Tensor but got Int" says nothing more: said once.
  const std::string got_text = str_cat(" but got ", tag_name(got.tag()));
  const bool repeats = detail.empty() || (detail.starts_with("Expected ") && detail.ends_with(got_text) &&
                                          detail.find(" list") == std::string::npos);
  throw_concat<TypeError>({op.name(), ": argument '", arg.name, "' (position ", std::to_string(position),
                           ") expected ", schema_type_text(s, arg.type), " but got ", tag_name(got.tag()),
                           repeats ? "" : " (", repeats ? "" : detail, repeats ? "" : ")"});
}

OPD_FUNC void throw_not_a_tensor(const OperatorEntry& op, std::size_t position, const IValue& got) {
  throw_boxed_argument_error(op, position, got, "");
}

OPD_FUNC void fill_boxed_defaults(const OperatorEntry& op, Stack& stack, std::size_t n) {
  const auto& s = op.schema().value();  // (throws, naming the operator, when it has none)
  for (std::size_t k = stack.size(); k < n && k < s.arguments.size(); ++k) {
    const auto& arg = s.arguments[k];
    if (!arg.has_default)
      throw_concat<TypeError>({op.name(), ": argument '", arg.name, "' (position ", std::to_string(k),
                               ") was not given and has no default (expected ", std::to_string(n),
                               " arguments on the stack but it holds ", std::to_string(stack.size()), ")"});
    stack.push_back(default_ivalue(s, arg));
  }
}

OPD_FUNC void throw_stack_too_small(const OperatorEntry& op, const Stack& stack,
                                                                        std::size_t n) {
  throw_concat<TypeError>({op.name(), ": expected ", std::to_string(n), " arguments on the stack but it holds ",
                           std::to_string(stack.size())});
}
}  // namespace opd::detail
