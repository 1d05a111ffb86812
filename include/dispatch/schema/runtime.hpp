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

#include "error.hpp"
#include "model.hpp"
#include "parser.hpp"
#include "printer.hpp"

namespace opd::schema {

using dynamic_schema = basic_schema<std::vector<argument>, std::vector<type_node>, std::vector<alias_info>>;

// Thrown by parse_or_throw: "column 17: unknown type near 'Tensr'".
class syntax_error : public std::invalid_argument {
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
parse_result parse(std::string_view text);

class runtime_schema {
 public:
  const dynamic_schema& value() const { return value_; }
  const dynamic_schema* operator->() const { return &value_; }
  const dynamic_schema& operator*() const { return value_; }
  const std::string& text() const { return *text_; }

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
  std::string message() const {
    if (schema) return "ok";
    std::string m = "column " + std::to_string(column) + ": " + std::string(schema_error_message(code));
    if (code != schema_error::empty_schema) m += near.empty() ? std::string(" at the end of the schema") : " near '" + near + "'";
    return m;
  }
};

inline parse_result parse(std::string_view text) {
  parse_result r;
  runtime_schema s;
  s.text_ = std::make_shared<const std::string>(text);
  const parse_error e = parse_into(*s.text_, s.value_);
  if (e) {
    r.code = e.code;
    r.column = e.column;
    // Keep the message one line and printable, whatever the input held.
    for (char c : e.near.substr(0, 32)) r.near += (c >= 32 && c < 127) ? c : '?';
    return r;
  }
  r.schema = std::move(s);
  return r;
}

inline runtime_schema parse_or_throw(std::string_view text) {
  parse_result r = parse(text);
  if (!r) throw syntax_error(r.code, r.column, r.message());
  return std::move(*r.schema);
}

}  // namespace opd::schema
