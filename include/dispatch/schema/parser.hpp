#pragma once
// The schema grammar, written once as a constexpr recursive-descent parser that
// follows PyTorch's FunctionSchemaParser / SchemaTypeParser token for token,
// plus the checks PyTorch defers to run time (a default must fit its type).
// It fills any basic_schema whose vectors offer push_back: static_vector at
// compile time (literal.hpp), std::vector at run time (runtime.hpp).
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "error.hpp"
#include "lexer.hpp"
#include "model.hpp"

namespace opd::schema {

// Symbolic defaults PyTorch's parser resolves to integers (dtype, layout,
// memory format and reduction enums), with PyTorch's numbering: the names its
// schema parser reads in 1.13 (function_schema_parser.cpp), whatever the
// argument's type.
struct symbolic_default {
  std::string_view name;
  std::int64_t value;
};
inline constexpr symbolic_default symbolic_defaults[] = {
    {"Mean", 1}, {"contiguous_format", 0}, {"strided", 0}, {"long", 4}, {"float", 6}, {"complex", 9},
};

// The other dtype names: PyTorch 1.13 rejects them as defaults ("invalid
// numeric default value"), `int` among them; so do we, with that message.
inline constexpr std::string_view dtype_names_not_defaults[] = {
    "uint8",   "Byte",      "int8",    "Char",   "int16",     "short",   "Short",         "int32",
    "int",     "Int",       "int64",   "Long",   "float16",   "half",    "Half",          "float32",
    "Float",   "float64",   "double",  "Double", "complex32", "chalf",   "ComplexHalf",   "complex64",
    "cfloat",  "ComplexFloat", "complex128", "cdouble", "ComplexDouble", "bool", "Bool",  "qint8",
    "QInt8",   "quint8",    "QUInt8",  "qint32", "QInt32",    "bfloat16", "BFloat16",     "quint4x2",
    "QUInt4x2", "quint2x4", "QUInt2x4",
};

// Limits that keep indices in 16 bits and recursion shallow; beyond them a
// schema is rejected as schema_too_complex (real schemas stay far below).
inline constexpr std::size_t max_type_nodes = 32000;
inline constexpr std::size_t max_type_depth = 64;

// Upper bounds on what a schema text can hold, so compile-time storage can be
// sized from the text (every list element needs a ',' or a bracket, every
// list/optional node a '[' or '?', every annotation a '(' or '!').
struct capacities {
  std::size_t arguments = 1;
  std::size_t types = 1;
  std::size_t aliases = 1;
};
constexpr capacities capacity_for(std::string_view s) {
  std::size_t commas = 0, parens = 0, brackets = 0, questions = 0, bangs = 0;
  for (char c : s) {
    commas += c == ',';
    parens += c == '(';
    brackets += c == '[';
    questions += c == '?';
    bangs += c == '!';
  }
  return {commas + 2, commas + 2 * parens + brackets + questions + 4, parens + bangs + 1};
}

namespace detail {

template <class Vec, class T>
constexpr bool push(Vec& v, const T& x) {
  if constexpr (requires { { v.push_back(x) } -> std::same_as<bool>; }) {
    return v.push_back(x);
  } else {
    v.push_back(x);
    return true;
  }
}

// Decimal to double: exact (correctly rounded) when the digits fit in 2^53 and
// the power of ten in 10^22 (every default in practice); close otherwise.
constexpr double decimal_to_double(std::uint64_t mantissa, int exp10) {
  double v = static_cast<double>(mantissa);
  constexpr double exact[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                              1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  while (exp10 > 22) { v *= 1e22; exp10 -= 22; }
  while (exp10 < -22) { v /= 1e22; exp10 += 22; }
  return exp10 >= 0 ? v * exact[exp10] : v / exact[-exp10];
}

}  // namespace detail

// A number token's value. Integers must fit int64; `floating` also holds an
// imaginary part for 2j.
struct number_value {
  default_kind kind = default_kind::integer;
  std::int64_t integer = 0;
  double floating = 0.0;
  bool ok = true;
};
constexpr number_value read_number(std::string_view t, bool negative) {
  number_value r;
  constexpr std::uint64_t limit = 9223372036854775807ull;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    std::uint64_t u = 0;
    for (char c : t.substr(2)) {
      const std::uint64_t d = is_digit(c) ? static_cast<std::uint64_t>(c - '0')
                                          : static_cast<std::uint64_t>((c | 0x20) - 'a' + 10);
      if (u > (limit >> 4)) {
        r.ok = false;
        return r;
      }
      u = u * 16 + d;
    }
    if (u > limit + (negative ? 1u : 0u)) r.ok = false;
    r.integer = negative ? static_cast<std::int64_t>(0ull - u) : static_cast<std::int64_t>(u);
    return r;
  }
  bool imag = !t.empty() && t.back() == 'j';
  if (imag) t.remove_suffix(1);
  bool is_float = imag;
  std::uint64_t mant = 0;
  int exp10 = 0, sig = 0;
  std::size_t i = 0;
  bool overflow = false;
  for (; i < t.size() && is_digit(t[i]); ++i) {
    if (sig < 19) {
      mant = mant * 10 + static_cast<std::uint64_t>(t[i] - '0');
      if (mant != 0) ++sig;
    } else {
      ++exp10;
      overflow = true;
    }
  }
  if (i < t.size() && t[i] == '.') {
    is_float = true;
    for (++i; i < t.size() && is_digit(t[i]); ++i)
      if (sig < 19) {
        mant = mant * 10 + static_cast<std::uint64_t>(t[i] - '0');
        if (mant != 0) ++sig;
        --exp10;
      }
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    is_float = true;
    ++i;
    bool eneg = false;
    if (t[i] == '+' || t[i] == '-') eneg = t[i++] == '-';
    int e = 0;
    for (; i < t.size(); ++i) e = e > 100000 ? e : e * 10 + (t[i] - '0');
    exp10 += eneg ? -e : e;
  }
  if (is_float) {
    r.kind = imag ? default_kind::complex : default_kind::floating;
    r.floating = detail::decimal_to_double(mant, exp10);
    if (negative) r.floating = -r.floating;
    return r;
  }
  if (overflow || mant > limit + (negative ? 1u : 0u)) {
    r.ok = false;
    return r;
  }
  r.integer = negative ? static_cast<std::int64_t>(0ull - mant) : static_cast<std::int64_t>(mant);
  return r;
}

template <class Schema>
class parser {
 public:
  constexpr parser(std::string_view text, Schema& out) : lex_(text), s_(out) { s_.text = text; }

  constexpr parse_error run() {
    if (lex_.cur().kind == token_kind::end) fail(schema_error::empty_schema, lex_.cur());
    else parse_declaration();
    return error_;
  }

 private:
  // ---- errors ------------------------------------------------------------
  constexpr bool fail(schema_error code, const token& at) {
    if (!error_) {
      std::string_view near = at.text;
      if (at.kind == token_kind::error && near.size() > 1) near = near.substr(0, 24);
      error_ = parse_error{code, at.offset + 1, near};
    }
    return false;
  }
  // A token that should have been an identifier: keywords get their own message.
  constexpr bool fail_name(schema_error code) {
    const token& t = lex_.cur();
    if (t.kind == token_kind::error) return fail_lexical(t);
    return fail(t.kind == token_kind::keyword ? schema_error::reserved_word_used_as_name : code, t);
  }
  constexpr bool fail_lexical(const token& t) {
    return fail(t.text.size() > 1 ? schema_error::unterminated_string_literal : schema_error::unexpected_character, t);
  }
  constexpr bool fail_here(schema_error code) {
    const token& t = lex_.cur();
    return t.kind == token_kind::error ? fail_lexical(t) : fail(code, t);
  }
  constexpr bool expect(char c, schema_error code) { return lex_.next_if(c) || fail_here(code); }
  constexpr token take() { return lex_.next(); }
  constexpr void skip() { lex_.skip(); }

  // ---- storage -----------------------------------------------------------
  constexpr std::int16_t add_type(const type_node& n) {
    if (s_.types.size() >= max_type_nodes || !detail::push(s_.types, n))
      return fail(schema_error::schema_too_complex, lex_.cur()), no_index;
    return static_cast<std::int16_t>(s_.types.size() - 1);
  }
  constexpr type_node& node(std::int16_t i) { return s_.types[static_cast<std::size_t>(i)]; }
  static constexpr type_node make_node(type_kind kind, std::int16_t child = no_index, base_type base = base_type::Tensor) {
    type_node n;
    n.kind = kind;
    n.child = child;
    n.base = base;
    return n;
  }

  // ---- declaration -------------------------------------------------------
  constexpr void parse_declaration() {
    if (!parse_name()) return;
    if (!lex_.cur().is('(')) {
      fail_here(schema_error::missing_argument_list);
      return;
    }
    if (!parse_arguments()) return;
    if (!lex_.next_if(token_kind::arrow)) {
      fail_here(schema_error::expected_arrow);
      return;
    }
    if (!parse_returns()) return;
    if (lex_.cur().kind != token_kind::end) fail_here(schema_error::expected_end_of_schema);
  }

  constexpr bool ident(std::string_view& out, schema_error code) {
    if (lex_.cur().kind != token_kind::ident) return fail_name(code);
    out = lex_.cur().text;
    skip();
    return true;
  }

  constexpr bool parse_name() {
    std::string_view first;
    if (!ident(first, schema_error::expected_operator_name)) return false;
    s_.name = first;
    if (lex_.next_if(':')) {
      if (!lex_.next_if(':')) return fail_here(schema_error::expected_second_colon_in_namespace);
      s_.ns = first;
      if (!ident(s_.name, schema_error::expected_operator_name)) return false;
    }
    if (lex_.next_if('.') && !ident(s_.overload, schema_error::expected_overload_name_after_dot)) return false;
    return true;
  }

  constexpr bool parse_arguments() {
    skip();  // '('
    bool kwarg_only = false;
    if (!lex_.cur().is(')')) {
      do {
        if (s_.is_vararg) return fail_here(schema_error::vararg_must_be_last);
        if (lex_.next_if('*')) {
          kwarg_only = true;
          if (s_.kwarg_marker == no_index) s_.kwarg_marker = static_cast<std::int16_t>(s_.arguments.size());
        } else if (lex_.next_if(token_kind::dots)) {
          s_.is_vararg = true;
        } else if (!parse_argument(false, kwarg_only)) {
          return false;
        }
      } while (lex_.next_if(','));
    }
    if (!expect(')', schema_error::expected_comma_or_close_paren)) return false;
    if (s_.is_vararg)
      for (const auto& a : s_.arguments)
        if (a.has_default) return fail(schema_error::vararg_with_default_argument, token{token_kind::ident, a.name, static_cast<std::size_t>(a.name.data() - s_.text.data())});
    return true;
  }

  constexpr bool parse_returns() {
    if (lex_.next_if(token_kind::dots)) {
      s_.is_varret = true;
      return true;
    }
    if (!lex_.cur().is('(')) return parse_argument(true, false);
    s_.returns_parenthesized = true;
    skip();
    if (!lex_.cur().is(')')) {
      do {
        if (s_.is_varret) return fail_here(schema_error::vararg_must_be_last);
        if (lex_.next_if(token_kind::dots)) s_.is_varret = true;
        else if (!parse_argument(true, false)) return false;
      } while (lex_.next_if(','));
    }
    return expect(')', schema_error::expected_comma_or_close_paren);
  }

  constexpr bool parse_argument(bool is_return, bool kwarg_only) {
    argument a;
    a.kwarg_only = kwarg_only;
    a.type = parse_type();
    if (a.type == no_index) return false;
    if (lex_.next_if('[')) {  // T[N]: a fixed size is only allowed here, at argument level
      const token n = lex_.cur();
      if (n.kind != token_kind::number) return fail_here(schema_error::expected_list_size);
      const number_value v = read_number(n.text, false);
      if (v.kind != default_kind::integer || !v.ok || v.integer > 0x7fffffff) return fail(schema_error::expected_list_size, n);
      skip();
      if (!expect(']', schema_error::expected_close_bracket)) return false;
      type_node list = make_node(type_kind::list, a.type);
      list.fixed_size = static_cast<std::int32_t>(v.integer);
      a.type = add_type(list);
      if (a.type == no_index || !parse_alias_annotation(a.type)) return false;
      if (lex_.next_if('?') && (a.type = add_type(make_node(type_kind::optional, a.type))) == no_index) return false;
    }
    if (is_return) {
      if (lex_.cur().kind == token_kind::ident) {
        a.name = lex_.cur().text;
        if (!a.name.empty() && name_declared(s_.returns, a.name)) return fail(schema_error::repeated_return_name, lex_.cur());
        skip();
      }
    } else {
      if (lex_.cur().kind == token_kind::ident && name_declared(s_.arguments, lex_.cur().text))
        return fail(schema_error::repeated_argument_name, lex_.cur());
      if (!ident(a.name, schema_error::expected_argument_name)) return false;
      if (lex_.next_if('=')) {
        a.has_default = true;
        const std::size_t start = lex_.cur().offset;
        if (!parse_default(a.type, a.def)) return false;
        a.def.text = s_.text.substr(start, lex_.prev_end() - start);
      }
    }
    auto& list = is_return ? s_.returns : s_.arguments;
    if (list.size() >= max_type_nodes) return fail(schema_error::schema_too_complex, lex_.cur());
    return detail::push(list, a) || fail(schema_error::schema_too_complex, lex_.cur());
  }

  // Repeated names make keyword calls and boxed calls by name ambiguous.
  template <class List>
  constexpr bool name_declared(const List& list, std::string_view name) const {
    for (const auto& a : list)
      if (text_equal(a.name, name)) return true;
    return false;
  }

  // ---- types -------------------------------------------------------------
  // Nesting is bounded (tuples in tuples, T[][]...?): the parser and the
  // printer recurse on it, and no real schema nests more than a few levels.
  constexpr std::int16_t parse_type() {
    if (++depth_ > max_type_depth) return fail(schema_error::schema_too_complex, lex_.cur()), no_index;
    const std::int16_t t = parse_type_suffixes(parse_primary_type());
    --depth_;
    return t;
  }
  constexpr std::int16_t parse_type_suffixes(std::int16_t t) {
    if (t == no_index) return no_index;
    for (std::size_t level = depth_;; ++level) {  // suffixes: [] (with an optional annotation on the list) and ?
      if (level > max_type_depth) return fail(schema_error::schema_too_complex, lex_.cur()), no_index;
      if (lex_.cur().is('[') && lex_.peek().is(']')) {
        skip();
        skip();
        t = add_type(make_node(type_kind::list, t));
        if (t == no_index || !parse_alias_annotation(t)) return no_index;
      } else if (lex_.next_if('?')) {
        t = add_type(make_node(type_kind::optional, t));
        if (t == no_index) return no_index;
      } else {
        return t;
      }
    }
  }

  // Members of a container type, chained through `next`; `close` ends the list.
  constexpr std::int16_t parse_members(type_kind kind, std::size_t min_members, std::size_t max_members) {
    std::int16_t first = no_index, last = no_index;
    std::size_t count = 0;
    if (!(lex_.cur().is(')') && min_members == 0)) {
      do {
        const std::int16_t m = parse_type();
        if (m == no_index) return no_index;
        if (last == no_index) first = m;
        else node(last).next = m;
        last = m;
        ++count;
      } while (count < max_members && lex_.next_if(','));
    }
    if (count < min_members) return fail_here(schema_error::expected_comma_or_close_paren), no_index;
    if (!expect(')', schema_error::expected_comma_or_close_paren)) return no_index;
    return add_type(make_node(kind, first));
  }

  constexpr std::int16_t parse_primary_type() {
    const token& t = lex_.cur();  // (not a copy: read it before the next skip())
    if (t.is('(')) {  // tuple
      skip();
      return parse_members(type_kind::tuple, 0, static_cast<std::size_t>(-1));
    }
    if (t.kind == token_kind::keyword && (text_equal(t.text, "None") || text_equal(t.text, "NoneType"))) {
      const base_type b = text_equal(t.text, "None") ? base_type::None : base_type::NoneType;
      skip();
      return with_alias(add_type(make_node(type_kind::base, no_index, b)));
    }
    if (t.kind != token_kind::ident) return fail_name(schema_error::expected_type), no_index;
    const std::string_view w = t.text;
    const std::size_t offset = t.offset;
    if (text_equal(w, "Future") || text_equal(w, "RRef") || text_equal(w, "Dict") || text_equal(w, "Union")) {
      skip();
      if (!expect('(', schema_error::expected_open_paren_after_container_type)) return no_index;
      if (text_equal(w, "Future")) return parse_members(type_kind::future, 1, 1);
      if (text_equal(w, "RRef")) return parse_members(type_kind::rref, 1, 1);
      if (text_equal(w, "Dict")) return with_alias(parse_members(type_kind::dict, 2, 2));
      return with_alias(parse_members(type_kind::union_, 1, static_cast<std::size_t>(-1)));
    }
    if (text_equal(w, "__torch__")) return parse_custom_class();
    skip();
    for (const auto& b : base_type_names)
      if (text_equal(b.spelling, w)) return with_alias(add_type(make_node(type_kind::base, no_index, b.type)));
    if (text_equal(w, "double")) return fail(schema_error::use_float_instead_of_double, token{token_kind::ident, w, offset}), no_index;
    if (w[0] >= 'a' && w[0] <= 'z') {  // PyTorch: an unknown lower-case name is a type variable
      type_node n = make_node(type_kind::type_var);
      n.name = w;
      return with_alias(add_type(n));
    }
    return fail(schema_error::unknown_type, token{token_kind::ident, w, offset}), no_index;
  }

  constexpr std::int16_t parse_custom_class() {
    const std::size_t start = lex_.cur().offset;
    skip();  // __torch__
    constexpr std::string_view path[] = {"torch", "classes", "", ""};
    for (std::string_view part : path) {
      if (!lex_.cur().is('.')) return fail_here(schema_error::expected_custom_class_path), no_index;
      skip();
      if (lex_.cur().kind != token_kind::ident || (!part.empty() && !text_equal(lex_.cur().text, part)))
        return fail_here(schema_error::expected_custom_class_path), no_index;
      skip();
    }
    type_node n = make_node(type_kind::custom_class);
    n.name = s_.text.substr(start, lex_.prev_end() - start);
    return add_type(n);
  }

  constexpr std::int16_t with_alias(std::int16_t t) {
    if (t == no_index || !parse_alias_annotation(t)) return no_index;
    return t;
  }

  constexpr bool parse_alias_set(alias_set& set) {
    do {
      if (lex_.cur().is('*')) {
        skip();
        if (!add_alias_name(set, "*")) return false;
      } else if (!set.contains("*")) {  // after a wildcard PyTorch reads no more names
        if (lex_.cur().kind != token_kind::ident) return fail_name(schema_error::expected_alias_set_name);
        if (!add_alias_name(set, take().text)) return false;
      }
    } while (lex_.next_if('|'));
    return true;
  }
  constexpr bool add_alias_name(alias_set& set, std::string_view n) {
    if (set.count == max_alias_set) return fail(schema_error::schema_too_complex, lex_.cur());
    set.names[set.count++] = n;
    return true;
  }

  constexpr bool parse_alias_annotation(std::int16_t t) {
    // Most types have no annotation: decide before building an alias_info.
    if (!lex_.cur().is('(') && !lex_.cur().is('!')) return true;
    alias_info a;
    if (lex_.next_if('(')) {
      if (!parse_alias_set(a.before)) return false;
      a.is_write = lex_.next_if('!');
      if (lex_.next_if(token_kind::arrow)) {
        a.has_arrow = true;
        if (!parse_alias_set(a.after)) return false;
      } else {
        a.after = a.before;
      }
      if (!expect(')', schema_error::expected_close_paren_of_alias_annotation)) return false;
    } else if (lex_.next_if('!')) {
      a.is_write = a.shorthand = true;
    } else {
      return true;
    }
    if (s_.aliases.size() >= max_type_nodes || !detail::push(s_.aliases, a))
      return fail(schema_error::schema_too_complex, lex_.cur());
    node(t).alias = static_cast<std::int16_t>(s_.aliases.size() - 1);
    return true;
  }

  // ---- defaults ----------------------------------------------------------
  static constexpr bool is_int_like(base_type b) {
    return b == base_type::int_ || b == base_type::SymInt || b == base_type::ScalarType || b == base_type::Layout ||
           b == base_type::MemoryFormat || b == base_type::DeviceIndex;
  }
  // Does a single constant of kind k fit a value of type node n?
  constexpr bool fits(const type_node& n, default_kind k) const {
    if (n.kind != type_kind::base) return false;
    const base_type b = n.base;
    switch (k) {
      case default_kind::integer:
      case default_kind::symbol:
        return is_int_like(b) || b == base_type::float_ || b == base_type::SymFloat || b == base_type::complex ||
               (b == base_type::Scalar && k == default_kind::integer);
      case default_kind::floating:
        return b == base_type::float_ || b == base_type::SymFloat || b == base_type::complex || b == base_type::Scalar;
      case default_kind::complex: return b == base_type::complex || b == base_type::Scalar;
      case default_kind::boolean: return b == base_type::bool_ || b == base_type::SymBool || b == base_type::Scalar;
      case default_kind::string: return b == base_type::str || b == base_type::Dimname || b == base_type::Device;
      default: return false;
    }
  }
  static constexpr bool list_element_ok(const type_node& n) {
    if (n.kind != type_kind::base) return false;
    return is_int_like(n.base) || n.base == base_type::float_ || n.base == base_type::SymFloat ||
           n.base == base_type::complex || n.base == base_type::bool_ || n.base == base_type::SymBool;
  }

  // One constant: True/False/None, a string, a symbolic name, or [-]number.
  constexpr bool read_constant(default_value& d) {
    const token t = lex_.cur();
    if (t.kind == token_kind::keyword && (text_equal(t.text, "True") || text_equal(t.text, "False"))) {
      skip();
      d.kind = default_kind::boolean;
      d.boolean = text_equal(t.text, "True");
      return true;
    }
    if (t.is_keyword("None")) {
      skip();
      d.kind = default_kind::none;
      return true;
    }
    if (t.kind == token_kind::string_literal) {
      skip();
      d.kind = default_kind::string;
      return true;
    }
    if (t.kind == token_kind::ident) {
      for (const auto& sym : symbolic_defaults)
        if (text_equal(sym.name, t.text)) {
          skip();
          d.kind = default_kind::symbol;
          d.integer = sym.value;
          return true;
        }
      for (std::string_view dtype : dtype_names_not_defaults)
        if (text_equal(dtype, t.text)) return fail(schema_error::invalid_numeric_default, t);
      return fail(schema_error::unknown_symbolic_default, t);
    }
    const bool negative = lex_.cur().is('-');
    if (negative) skip();
    const token n = lex_.cur();
    if (n.kind != token_kind::number) return fail_here(schema_error::expected_default_value);
    skip();
    const number_value v = read_number(n.text, negative);
    if (!v.ok) return fail(schema_error::number_out_of_range, n);
    d.kind = v.kind;
    d.integer = v.integer;
    d.floating = v.kind == default_kind::integer ? static_cast<double>(v.integer) : v.floating;
    return true;
  }

  constexpr bool parse_default(std::int16_t type, default_value& d) {
    const token at = lex_.cur();
    const type_node n = node(type);
    if (n.kind == type_kind::optional) {
      if (at.is_keyword("None")) return read_constant(d);
      const type_node& inner = node(n.child);
      if (inner.kind == type_kind::list) {  // PyTorch reads no list literal here; N copies of one value
        if (inner.fixed_size < 0 || at.is('[')) return fail_here(at.is('[') ? schema_error::expected_default_value : schema_error::default_does_not_fit_type);
        return parse_repeated(inner, d, at);
      }
      return parse_single(inner, d, at);
    }
    if (n.kind == type_kind::list) {
      if (at.is('[')) return parse_list(n, d, at);
      if (n.fixed_size >= 0 && at.kind != token_kind::ident && !at.is_keyword("None")) return parse_repeated(n, d, at);
      return fail(schema_error::default_does_not_fit_type, at);
    }
    if (n.kind == type_kind::base && (n.base == base_type::Tensor || n.base == base_type::Generator || n.base == base_type::Quantizer)) {
      if (!read_constant(d)) return false;
      return d.kind == default_kind::none || fail(schema_error::default_does_not_fit_type, at);
    }
    return parse_single(n, d, at);
  }

  constexpr bool parse_single(const type_node& n, default_value& d, const token& at) {
    if (!read_constant(d)) return false;
    if (!fits(n, d.kind)) return fail(schema_error::default_does_not_fit_type, at);
    if (d.kind == default_kind::integer || d.kind == default_kind::symbol) d.floating = static_cast<double>(d.integer);
    return true;
  }

  constexpr bool parse_repeated(const type_node& list, default_value& d, const token& at) {
    const type_node& elem = node(list.child);
    if (!list_element_ok(elem)) return fail(schema_error::default_does_not_fit_type, at);
    if (!parse_single(elem, d, at)) return false;
    d.element = d.kind;
    d.kind = default_kind::repeated;
    d.length = list.fixed_size;
    return true;
  }

  constexpr bool parse_list(const type_node& list, default_value& d, const token& at) {
    const type_node& elem = node(list.child);
    skip();  // '['
    std::int32_t count = 0;
    default_kind element = default_kind::none;
    if (!lex_.cur().is(']')) {
      if (!list_element_ok(elem)) return fail(schema_error::default_does_not_fit_type, at);
      do {
        default_value e;
        const token et = lex_.cur();
        if (!parse_single(elem, e, et)) return false;
        element = (element == default_kind::floating || e.kind == default_kind::floating) ? default_kind::floating : e.kind;
        ++count;
      } while (lex_.next_if(','));
    }
    if (!expect(']', schema_error::expected_close_bracket)) return false;
    // No length check against T[N]: native_functions.yaml itself has int[1] dim=[] and int[1] dim=[-2,-1].
    d.kind = default_kind::list;
    d.element = element;
    d.length = count;
    return true;
  }

  lexer lex_;
  Schema& s_;
  parse_error error_{};
  std::size_t depth_ = 0;
};

template <class Schema>
constexpr parse_error parse_into(std::string_view text, Schema& out) {
  return parser<Schema>(text, out).run();
}

}  // namespace opd::schema
