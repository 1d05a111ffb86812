#pragma once
// The C signature of an operator, derived from its schema: the parameter
// list, the printed prototype, and a fingerprint of the types. constexpr over
// any basic_schema: the templates (shim.hpp), `opd-schema --c` and the
// generated headers all print through print_c_prototype.
//
//   int32_t opd_aten_add_out(opd_tensor out, opd_tensor self, opd_tensor other, opd_scalar alpha)
//
// Order: out= arguments first (in schema order), the other arguments, then an
// out-pointer per return (c_types.hpp's return_kind: flat returns point at
// their C leaf, the rest at an opd_value; write-annotated returns are left
// out, the caller holds them already).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dispatch/c_abi/c_types.hpp"
#include "dispatch/schema/model.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/queries.hpp"

namespace opd::c_abi {

enum class c_role : std::uint8_t {
  value,         // the value (or its first part)
  length,        // a list's int64_t length
  device_index,  // a Device's int32_t index
};

struct c_param {
  c_base base = c_base::i64;
  std::uint8_t depth = 0;  // pointer levels: to const for arguments, one (to non-const) for returns
  bool is_return = false;
  c_role role = c_role::value;
  std::int16_t source = -1;  // the schema argument / return it comes from
};

// Calls visit(c_param) for every C parameter of schema s, in order.
template <class Schema, class Visit>
constexpr void for_each_c_param(const Schema& s, Visit&& visit) {
  const auto visit_argument = [&](std::size_t i) {
    const c_form f = arg_form(s, s.arguments[i].type);
    const auto source = static_cast<std::int16_t>(i);
    visit(c_param{f.base, f.depth(), false, c_role::value, source});
    if (f.shape == c_shape::list || f.shape == c_shape::optional_list)
      visit(c_param{c_base::i64, 0, false, c_role::length, source});
    else if (f.device)
      visit(c_param{c_base::i32, 0, false, c_role::device_index, source});
  };
  for (std::size_t i = 0; i < s.arguments.size(); ++i)
    if (schema::is_out(s, s.arguments[i])) visit_argument(i);
  for (std::size_t i = 0; i < s.arguments.size(); ++i)
    if (!schema::is_out(s, s.arguments[i])) visit_argument(i);
  for (std::size_t r = 0; r < s.returns.size(); ++r) {
    const std::int16_t t = s.returns[r].type;
    const auto source = static_cast<std::int16_t>(r);
    switch (return_kind(s, t)) {
      case c_return::omitted: break;
      case c_return::value: visit(c_param{c_base::value, 1, true, c_role::value, source}); break;
      case c_return::flat: {
        const c_form f = arg_form(s, t);
        visit(c_param{f.base, 1, true, c_role::value, source});
        if (f.device) visit(c_param{c_base::i32, 1, true, c_role::device_index, source});
        break;
      }
    }
  }
}

template <class Schema>
constexpr std::size_t c_param_count(const Schema& s) {
  std::size_t n = 0;
  for_each_c_param(s, [&](const c_param&) { ++n; });
  return n;
}

// The parameter's C type: `T`, `const T*`, `const T* const*`, ... for an
// argument; `T*` for a return.
template <class Sink>
constexpr void print_c_type(const c_param& p, Sink& out) {
  if (p.is_return) {
    out.put(spelling(p.base));
    out.put("*");
    return;
  }
  if (p.depth > 0) out.put("const ");
  out.put(spelling(p.base));
  for (std::uint8_t d = 0; d < p.depth; ++d) out.put(d == 0 ? "*" : " const*");
}

constexpr bool is_c_keyword(std::string_view n) {
  constexpr std::string_view keywords[] = {
      "auto",   "break",  "case",     "char",     "const",   "continue", "default", "do",     "double",
      "else",   "enum",   "extern",   "float",    "for",     "goto",     "if",      "inline", "int",
      "long",   "register", "restrict", "return", "short",   "signed",   "sizeof",  "static", "struct",
      "switch", "typedef", "union",   "unsigned", "void",    "volatile", "while",   "bool",   "true",
      "false",  "_Bool",  "_Complex", "_Imaginary", "class", "this",     "new",     "delete", "template",
      "operator", "private", "public", "protected", "namespace", "using", "virtual", "friend", "throw",
      "try",    "catch",  "typename", "explicit", "mutable", "export",   "and",     "or",     "not",
      "xor",    "asm",    "nullptr",  "alignas",  "alignof", "noexcept", "decltype"};
  for (std::string_view k : keywords)
    if (k == n) return true;
  return false;
}

template <class Schema, class Sink>
constexpr void print_c_param_name(const Schema& s, const c_param& p, Sink& out) {
  if (p.is_return) {
    out.put("ret");
    schema::detail::put_int(out, p.source);
  } else {
    const std::string_view name = s.arguments[static_cast<std::size_t>(p.source)].name;
    out.put(name);
    if (is_c_keyword(name)) out.put("_");
  }
  if (p.role == c_role::length) out.put("_len");
  if (p.role == c_role::device_index) out.put("_index");
}

// The default C symbol of an operator: opd_<namespace>_<name>[_<overload>].
template <class Schema, class Sink>
constexpr void print_c_name(const Schema& s, Sink& out) {
  out.put("opd_");
  if (!s.ns.empty()) {
    out.put(s.ns);
    out.put("_");
  }
  out.put(s.name);
  if (!s.overload.empty()) {
    out.put("_");
    out.put(s.overload);
  }
}

// "(T0 a0, T1 a1, ...)", or "(void)".
template <class Schema, class Sink>
constexpr void print_c_parameters(const Schema& s, Sink& out) {
  out.put("(");
  bool first = true;
  for_each_c_param(s, [&](const c_param& p) {
    if (!first) out.put(", ");
    first = false;
    print_c_type(p, out);
    out.put(" ");
    print_c_param_name(s, p, out);
  });
  if (first) out.put("void");
  out.put(")");
}

// "int32_t name(T0 a0, T1 a1, ...)" (no semicolon); `name` empty: the default name.
template <class Schema, class Sink>
constexpr void print_c_prototype(const Schema& s, std::string_view name, Sink& out) {
  out.put("int32_t ");
  if (name.empty()) print_c_name(s, out);
  else out.put(name);
  print_c_parameters(s, out);
}

// "int32_t (*const name)(T0 a0, ...)": what OPD_EXPORT_C defines (shim.hpp).
template <class Schema, class Sink>
constexpr void print_c_pointer_declaration(const Schema& s, std::string_view name, Sink& out) {
  out.put("int32_t (*const ");
  if (name.empty()) print_c_name(s, out);
  else out.put(name);
  out.put(")");
  print_c_parameters(s, out);
}

// The types alone, "int32_t(opd_tensor,opd_scalar)": what the fingerprint covers.
template <class Schema, class Sink>
constexpr void print_c_type_signature(const Schema& s, Sink& out) {
  out.put("int32_t(");
  bool first = true;
  for_each_c_param(s, [&](const c_param& p) {
    if (!first) out.put(",");
    first = false;
    print_c_type(p, out);
  });
  out.put(")");
}

// 64-bit FNV-1a of what is put into it.
struct fnv1a_sink {
  std::uint64_t hash = 14695981039346656037ull;
  constexpr void put(std::string_view s) {
    for (char c : s) {
      hash ^= static_cast<unsigned char>(c);
      hash *= 1099511628211ull;
    }
  }
};

// The fingerprint of an operator's C signature: a caller built against
// another signature (another argument list, another C type) sees another
// number. Names are not part of it.
template <class Schema>
constexpr std::uint64_t c_fingerprint(const Schema& s) {
  fnv1a_sink h;
  print_c_type_signature(s, h);
  return h.hash;
}

}  // namespace opd::c_abi
