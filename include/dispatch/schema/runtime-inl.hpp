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

OPD_FUNC runtime_schema runtime_schema::copy_of(const parts& p) {
  runtime_schema r;
  r.text_ = std::make_shared<const std::string>(p.text);
  auto& v = r.value_;
  v.text = p.text;
  v.ns = p.ns;
  v.name = p.name;
  v.overload = p.overload;
  if (!p.arguments.empty()) v.arguments.assign(p.arguments.begin(), p.arguments.end());  // (no null source for an empty one)
  if (!p.returns.empty()) v.returns.assign(p.returns.begin(), p.returns.end());  // (no null source for an empty one)
  if (!p.types.empty()) v.types.assign(p.types.begin(), p.types.end());  // (no null source for an empty one)
  if (!p.aliases.empty()) v.aliases.assign(p.aliases.begin(), p.aliases.end());  // (no null source for an empty one)
  v.kwarg_marker = p.kwarg_marker;
  v.is_vararg = p.is_vararg;
  v.is_varret = p.is_varret;
  v.returns_parenthesized = p.returns_parenthesized;
  return r;
}

namespace detail {
OPD_FUNC bool same_alias_set(const alias_set& a, const alias_set& b) {
  if (a.count != b.count) return false;
  for (std::size_t i = 0; i < a.count; ++i)
    if (a.names[i] != b.names[i]) return false;
  return true;
}
OPD_FUNC bool same_type(const dynamic_schema& sa, std::int16_t a, const dynamic_schema& sb, std::int16_t b) {
  if ((a == no_index) != (b == no_index)) return false;
  if (a == no_index) return true;
  const type_node& x = sa.type(a);
  const type_node& y = sb.type(b);
  if (x.kind != y.kind || x.base != y.base || x.fixed_size != y.fixed_size || x.name != y.name) return false;
  if ((x.alias == no_index) != (y.alias == no_index)) return false;
  if (x.alias != no_index) {
    const alias_info& p = sa.alias(x.alias);
    const alias_info& q = sb.alias(y.alias);
    if (p.is_write != q.is_write || !same_alias_set(p.before, q.before) || !same_alias_set(p.after, q.after))
      return false;
  }
  return same_type(sa, x.child, sb, y.child) && same_type(sa, x.next, sb, y.next);
}
OPD_FUNC bool same_arguments(const dynamic_schema& sa, const std::vector<argument>& a, const dynamic_schema& sb,
                             const std::vector<argument>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const argument& x = a[i];
    const argument& y = b[i];
    if (x.name != y.name || x.kwarg_only != y.kwarg_only || x.has_default != y.has_default ||
        (x.has_default && x.def.text != y.def.text) || !same_type(sa, x.type, sb, y.type))
      return false;
  }
  return true;
}
}  // namespace detail

OPD_FUNC bool same_schema(const dynamic_schema& a, const dynamic_schema& b) {
  return a.ns == b.ns && a.name == b.name && a.overload == b.overload && a.kwarg_marker == b.kwarg_marker &&
         a.is_vararg == b.is_vararg && a.is_varret == b.is_varret &&
         detail::same_arguments(a, a.arguments, b, b.arguments) && detail::same_arguments(a, a.returns, b, b.returns);
}

}  // namespace opd::schema
