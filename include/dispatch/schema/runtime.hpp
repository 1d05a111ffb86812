#pragma once
// Parsing at run time, from any string: the same parser as at compile time,
// with std::vector storage. The result owns its text (shared between copies,
// so the string_views inside stay valid).
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/config.hpp"
#include "error.hpp"
#include "model.hpp"

namespace opd::schema {

using dynamic_schema = basic_schema<std::vector<argument>, std::vector<type_node>, std::vector<alias_info>>;

// Thrown by parse_or_throw: "column 17: unknown type near 'Tensr'".
class OPD_API syntax_error : public std::invalid_argument {
 public:
  syntax_error(schema_error code, std::size_t column, const std::string& what)
      : std::invalid_argument(what), code_(code), column_(column) {}
  schema_error code() const { return code_; }
  std::size_t column() const { return column_; }

 private:
  schema_error code_;
  std::size_t column_;
};

struct parse_result;
OPD_API parse_result parse(std::string_view text);

class OPD_API runtime_schema {
 public:
  const dynamic_schema& value() const { return value_; }
  const dynamic_schema* operator->() const { return &value_; }
  const dynamic_schema& operator*() const { return value_; }
  const std::string& text() const { return *text_; }

  // A run-time copy of a compile-time schema (opd::op<"...">::schema),
  // without parsing again: its string_views point into the schema literal,
  // which has static storage.
  template <class S>
  static runtime_schema from_static(const S& s) {
    runtime_schema r;
    r.text_ = std::make_shared<const std::string>(s.text);
    auto& v = r.value_;
    v.text = s.text;
    v.ns = s.ns;
    v.name = s.name;
    v.overload = s.overload;
    v.arguments.assign(s.arguments.begin(), s.arguments.end());
    v.returns.assign(s.returns.begin(), s.returns.end());
    v.types.assign(s.types.begin(), s.types.end());
    v.aliases.assign(s.aliases.begin(), s.aliases.end());
    v.kwarg_marker = s.kwarg_marker;
    v.is_vararg = s.is_vararg;
    v.is_varret = s.is_varret;
    v.returns_parenthesized = s.returns_parenthesized;
    return r;
  }

 private:
  friend parse_result parse(std::string_view text);
  std::shared_ptr<const std::string> text_;
  dynamic_schema value_;
};

struct parse_result {
  std::optional<runtime_schema> schema;
  schema_error code = schema_error::none;
  std::size_t column = 0;
  std::string near;

  explicit operator bool() const { return schema.has_value(); }
  OPD_API std::string message() const;
};

// Out of line (runtime-inl.hpp): the parser is instantiated for run-time
// schemas once, in libopdispatch.
OPD_API parse_result parse(std::string_view text);
OPD_API runtime_schema parse_or_throw(std::string_view text);

// Do a and b declare the same operator (names, types, alias annotations,
// defaults), whatever their spacing? (No printer needed, so that comparing
// costs a header-only user little.)
OPD_API bool same_schema(const dynamic_schema& a, const dynamic_schema& b);

}  // namespace opd::schema

#ifdef OPD_HEADER_ONLY
#include "dispatch/schema/runtime-inl.hpp"
#endif
