#pragma once
// Prints a schema in torchgen's canonical form: the form native_functions.yaml
// is written in, so parse-then-print gives back every schema there unchanged.
// Whitespace is normalised; default values keep their spelling. Printing goes
// to any sink with put(string_view), so it also runs at compile time.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>

#include "lexer.hpp"
#include "model.hpp"

namespace opd::schema {

// (put out of line: a printed schema is error text, and an inline append per
// piece made print_type 5 KB in every header-only file reporting one.)
struct string_sink {
  std::string out;
  [[gnu::noinline]] void put(std::string_view s) { out.append(s); }
};
struct counting_sink {
  std::size_t size = 0;
  constexpr void put(std::string_view s) { size += s.size(); }
};
template <std::size_t N>
struct buffer_sink {
  char data[N + 1]{};
  std::size_t size = 0;
  constexpr void put(std::string_view s) {
    for (char c : s)
      if (size < N) data[size++] = c;
  }
};

namespace detail {
template <class Sink>
constexpr void put_int(Sink& out, std::int64_t v) {
  char buf[24]{};
  std::size_t n = 0;
  const bool neg = v < 0;
  std::uint64_t u = neg ? 0ull - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  do {
    buf[n++] = static_cast<char>('0' + u % 10);
    u /= 10;
  } while (u != 0);
  if (neg) buf[n++] = '-';
  for (std::size_t i = 0; i < n / 2; ++i) {
    char t = buf[i];
    buf[i] = buf[n - 1 - i];
    buf[n - 1 - i] = t;
  }
  out.put(std::string_view(buf, n));
}
template <class Sink>
constexpr void put_alias_set(Sink& out, const alias_set& s) {
  for (std::size_t i = 0; i < s.count; ++i) {
    if (i) out.put("|");
    out.put(s.names[i]);
  }
}
}  // namespace detail

template <class Schema, class Sink>
constexpr void print_alias(const Schema& s, std::int16_t alias, Sink& out) {
  if (alias == no_index) return;
  // A schema kept with no room for aliases has none to print (and g++ 12 -O2
  // warns about indexing the empty storage on the path it cannot rule out).
  if constexpr (requires { std::integral_constant<std::size_t, decltype(s.aliases)::capacity()>{}; })
    if constexpr (decltype(s.aliases)::capacity() == 0) return;
  const alias_info& a = s.alias(alias);
  if (a.shorthand) {
    out.put("!");
    return;
  }
  out.put("(");
  detail::put_alias_set(out, a.before);
  if (a.is_write) out.put("!");
  if (a.has_arrow) {
    out.put(" -> ");
    detail::put_alias_set(out, a.after);
  }
  out.put(")");
}

// Prints type t; `annotate(node, out)` prints what follows each node (by
// default its alias annotation; derived variants rewrite annotations).
template <class Schema, class Sink, class Annotate>
constexpr void print_type(const Schema& s, std::int16_t t, Sink& out, const Annotate& annotate) {
  const type_node& n = s.type(t);
  auto members = [&](std::string_view open) {
    out.put(open);
    for (std::int16_t m = n.child; m != no_index; m = s.type(m).next) {
      if (m != n.child) out.put(", ");
      print_type(s, m, out, annotate);
    }
    out.put(")");
  };
  switch (n.kind) {
    case type_kind::base: out.put(spelling(n.base)); break;
    case type_kind::type_var:
    case type_kind::custom_class: out.put(n.name); break;
    case type_kind::list:
      print_type(s, n.child, out, annotate);
      out.put("[");
      if (n.fixed_size >= 0) detail::put_int(out, n.fixed_size);
      out.put("]");
      break;
    case type_kind::optional:
      print_type(s, n.child, out, annotate);
      out.put("?");
      break;
    case type_kind::tuple: members("("); break;
    case type_kind::dict: members("Dict("); break;
    case type_kind::future: members("Future("); break;
    case type_kind::rref: members("RRef("); break;
    case type_kind::union_: members("Union("); break;
  }
  annotate(n, out);
}

template <class Schema, class Sink>
constexpr void print_type(const Schema& s, std::int16_t t, Sink& out) {
  print_type(s, t, out, [&s](const type_node& n, Sink& o) { print_alias(s, n.alias, o); });
}

// A default as written (torchgen keeps "[0,1]" and "[0, 1]" apart): its
// tokens verbatim (string literals included), one space wherever the text had
// whitespace, line breaks or a comment between two tokens.
template <class Sink>
constexpr void print_default(std::string_view text, Sink& out) {
  lexer lex(text);
  std::size_t prev_end = 0;
  bool first = true;
  while (lex.cur().kind != token_kind::end) {
    const token t = lex.next();
    if (!first && t.offset != prev_end) out.put(" ");
    out.put(t.text);
    prev_end = t.offset + t.text.size();
    first = false;
  }
}

template <class Schema, class Sink>
constexpr void print_argument(const Schema& s, const argument& a, Sink& out) {
  print_type(s, a.type, out);
  if (!a.name.empty()) {
    out.put(" ");
    out.put(a.name);
  }
  if (a.has_default) {
    out.put("=");
    print_default(a.def.text, out);
  }
}

template <class Schema, class Sink>
constexpr void print_name(const Schema& s, Sink& out) {
  if (!s.ns.empty()) {
    out.put(s.ns);
    out.put("::");
  }
  out.put(s.name);
  if (!s.overload.empty()) {
    out.put(".");
    out.put(s.overload);
  }
}

template <class Schema, class Sink>
constexpr void print(const Schema& s, Sink& out) {
  print_name(s, out);
  out.put("(");
  bool first = true;
  auto sep = [&] {
    if (!first) out.put(", ");
    first = false;
  };
  const std::size_t n = s.arguments.size();
  for (std::size_t i = 0; i <= n; ++i) {
    if (s.kwarg_marker >= 0 && static_cast<std::size_t>(s.kwarg_marker) == i) {
      sep();
      out.put("*");
    }
    if (i == n) break;
    sep();
    print_argument(s, s.arguments[i], out);
  }
  if (s.is_vararg) {
    sep();
    out.put("...");
  }
  out.put(") -> ");
  const bool parens = s.returns_parenthesized || s.returns.size() != 1;
  if (s.is_varret && s.returns.size() == 0 && !s.returns_parenthesized) {
    out.put("...");
    return;
  }
  if (parens) out.put("(");
  for (std::size_t i = 0; i < s.returns.size(); ++i) {
    if (i) out.put(", ");
    print_argument(s, s.returns[i], out);
  }
  if (s.is_varret) out.put(s.returns.size() ? ", ..." : "...");
  if (parens) out.put(")");
}

template <class Schema>
std::string to_string(const Schema& s) {
  string_sink sink;
  print(s, sink);
  return std::move(sink.out);
}

// "ns::name.overload" from its parts, as print_name writes it: its length,
// and the characters written to `out` (constexpr: structured kernels keep
// their operator's name as a compile-time constant, derive.hpp).
constexpr std::size_t operator_name_size(std::string_view ns, std::string_view name, std::string_view overload) {
  return (ns.empty() ? 0 : ns.size() + 2) + name.size() + (overload.empty() ? 0 : overload.size() + 1);
}
constexpr void write_operator_name(std::string_view ns, std::string_view name, std::string_view overload, char* out) {
  auto put = [&out](std::string_view part) {
    for (char c : part) *out++ = c;
  };
  if (!ns.empty()) {
    put(ns);
    put("::");
  }
  put(name);
  if (!overload.empty()) {
    put(".");
    put(overload);
  }
}
// Not a template, so naming a compile-time operator instantiates no printer
// for its schema type.
inline std::string operator_name(std::string_view ns, std::string_view name, std::string_view overload) {
  std::string out(operator_name_size(ns, name, overload), '\0');
  write_operator_name(ns, name, overload, out.data());
  return out;
}

template <class Schema>
std::string name_of(const Schema& s) {
  string_sink sink;
  print_name(s, sink);
  return std::move(sink.out);
}

}  // namespace opd::schema
