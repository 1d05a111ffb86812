#pragma once
// Parsing at run time, from any string: the same parser as at compile time,
// with std::vector storage. The result owns its text (shared between copies,
// so the string_views inside stay valid).
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "dispatch/config.hpp"
#include "dispatch/core/error.hpp"
#include "error.hpp"
#include "model.hpp"

namespace opd::schema {

using dynamic_schema = basic_schema<std::vector<argument>, std::vector<type_node>, std::vector<alias_info>>;

// Thrown by parse_or_throw: "column 17: unknown type near 'Tensr'". An
// opd::ValueError (hence opd::Error), so that catching opd::Error around a
// registration catches every registration failure, a malformed schema too.
// (Not also std::invalid_argument: two std::exception bases would make
// `catch (const std::exception&)` miss it.)
class OPD_API syntax_error : public ValueError {
 public:
  syntax_error(schema_error code, std::size_t column, const std::string& what)
      : ValueError(what), code_(code), column_(column) {}
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
  // which has static storage. (The copy itself is out of line.)
  template <class S>
  static runtime_schema from_static(const S& s) {
    return copy_of(parts_of(s));
  }
  // The pieces of a compile-time schema, viewed in place (no copy, nothing to destroy).
  template <class S>
  static constexpr auto parts_of(const S& s) {
    parts p;  // (member by member: nvcc's front end rejects the nested braced form)
    p.text = s.text;
    p.ns = s.ns;
    p.name = s.name;
    p.overload = s.overload;
    p.arguments = std::span<const argument>(s.arguments.begin(), s.arguments.size());
    p.returns = std::span<const argument>(s.returns.begin(), s.returns.size());
    p.types = std::span<const type_node>(s.types.begin(), s.types.size());
    p.aliases = std::span<const alias_info>(s.aliases.begin(), s.aliases.size());
    p.kwarg_marker = s.kwarg_marker;
    p.is_vararg = s.is_vararg;
    p.is_varret = s.is_varret;
    p.returns_parenthesized = s.returns_parenthesized;
    return p;
  }
  struct parts {
    std::string_view text, ns, name, overload;
    std::span<const argument> arguments, returns;
    std::span<const type_node> types;
    std::span<const alias_info> aliases;
    std::int16_t kwarg_marker = no_index;
    bool is_vararg = false, is_varret = false, returns_parenthesized = false;
  };
  static runtime_schema copy_of(const parts& p);

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
