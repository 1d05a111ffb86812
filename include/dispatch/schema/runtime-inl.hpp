#pragma once
// Out-of-line part of runtime.hpp: the constexpr parser instantiated once for
// run-time schemas.
#include "dispatch/schema/parser.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd::schema {

OPD_FUNC std::string parse_result::message() const {
  if (schema) return "ok";
  std::string m = "column " + std::to_string(column) + ": " + std::string(schema_error_message(code));
  if (code != schema_error::empty_schema) m += near.empty() ? std::string(" at the end of the schema") : " near '" + near + "'";
  return m;
}

OPD_FUNC parse_result parse(std::string_view text) {
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

OPD_FUNC runtime_schema parse_or_throw(std::string_view text) {
  parse_result r = parse(text);
  if (!r) throw syntax_error(r.code, r.column, r.message());
  return std::move(*r.schema);
}

}  // namespace opd::schema
