#pragma once
// Compile-time parsing of a schema literal. schema_of<"...">() is the parsed
// schema as a constant; a malformed schema stops compilation with one error in
// opd::report_malformed_schema<opd::malformed_schema<error, column, 'n','e','a','r',...>,
// opd::schema_text<the schema>>, which both g++ and clang print with the
// error's name, its column, the text found there and the schema (g++ as a
// string literal, clang as the characters around the error).
#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "error.hpp"
#include "fixed_string.hpp"
#include "model.hpp"
#include "parser.hpp"
#include "static_vector.hpp"

namespace opd {

// The schema as a type whose name shows it. g++ prints a fixed_string
// template argument as a string literal: the whole schema, as written.
// clang 14 prints one as character codes (and cuts it short), and prints no
// string from a constant evaluation either (notes show codes too), so there
// the text comes as characters: an excerpt of up to 24 characters before the
// error's column, through the end of the offending text.
#if defined(__clang__)
template <char... Text>
struct schema_text {};
#else
template <fixed_string Text>
struct schema_text {};
#endif

// What is wrong, where, and the text there.
template <schema_error Error, std::size_t Column, char... TextAtColumn>
struct malformed_schema {
  static constexpr bool ok = false;
};

template <class Malformed, class SchemaText>
inline constexpr bool well_formed_schema = false;

// The one diagnostic of a malformed schema: a function template whose
// template arguments are opd::malformed_schema<error, column, text there> and
// opd::schema_text<the schema>. (A function: no further error follows from
// it, with g++ or clang, where a class's failed static_assert makes clang
// report every constant derived from the schema. constexpr, and called
// during the constant evaluation of the schema: so it is instantiated there
// and then, and its error comes before any that a use of the operator
// further down the file could add; a plain function's body would wait for
// the end of the file.)
template <class Malformed, class SchemaText>
constexpr void report_malformed_schema() {
  static_assert(well_formed_schema<Malformed, SchemaText>,
                "malformed operator schema: the error, its column and the text there are the template arguments "
                "of opd::malformed_schema, the schema those of opd::schema_text");
}

namespace schema {

// The parse runs in scratch storage whose capacities are capacity_for's
// bounds rounded up to powers of two, from minimums that fit nearly every
// real schema: so (nearly) every schema shares one scratch type and one
// instantiation of the parser. (Not larger: clang's constant evaluator builds
// every element of the storage, g++'s only those written.) The result is then
// copied into storage of exactly the sizes found: that is what the program
// keeps, and what is emitted where the schema is odr-used.
constexpr std::size_t scratch_capacity(std::size_t bound, std::size_t minimum) {
  std::size_t c = minimum;
  while (c < bound) c *= 2;
  return c;
}

template <class Schema>
struct parsed_schema {
  Schema schema{};
  parse_error error{};
};

// A function shared by every schema of one scratch type (a lambda in
// compiled<S> would be instantiated anew for each schema).
template <class Scratch>
constexpr parsed_schema<Scratch> parse_scratch(std::string_view text) {
  parsed_schema<Scratch> r;
  r.error = parse_into(text, r.schema);
  return r;
}

// Out from in, member by member (Out's vectors may be smaller than In's, never
// smaller than what In holds). Instantiated per Out, which many schemas share.
template <class Out, class In>
constexpr Out copy_schema(const In& in) {
  Out out;
  out.text = in.text;
  out.ns = in.ns;
  out.name = in.name;
  out.overload = in.overload;
  for (const auto& a : in.arguments) out.arguments.push_back(a);
  for (const auto& r : in.returns) out.returns.push_back(r);
  for (const auto& t : in.types) out.types.push_back(t);
  for (const auto& a : in.aliases) out.aliases.push_back(a);
  out.kwarg_marker = in.kwarg_marker;
  out.is_vararg = in.is_vararg;
  out.is_varret = in.is_varret;
  out.returns_parenthesized = in.returns_parenthesized;
  return out;
}

template <fixed_string S>
struct compiled {
 private:
  static constexpr capacities bound = capacity_for(S.view());
  using scratch_type = basic_schema<static_vector<argument, scratch_capacity(bound.arguments, 16)>,
                                    static_vector<type_node, scratch_capacity(bound.types, 32)>,
                                    static_vector<alias_info, scratch_capacity(bound.aliases, 8)>>;
  static constexpr parsed_schema<scratch_type> scratch = parse_scratch<scratch_type>(S.view());

 public:
  using schema_type = basic_schema<static_vector<argument, scratch.schema.arguments.size()>,
                                   static_vector<type_node, scratch.schema.types.size()>,
                                   static_vector<alias_info, scratch.schema.aliases.size()>,
                                   static_vector<argument, scratch.schema.returns.size()>>;
  using result = parsed_schema<schema_type>;
  static constexpr result value{copy_schema<schema_type>(scratch.schema), scratch.error};
  // The text shown in the diagnostic: the offending token, or a word for the end.
  static constexpr std::string_view near = value.error.near.empty() ? std::string_view("<end of schema>")
                                                                     : value.error.near.substr(0, 24);

  static constexpr bool malformed = value.error.code != schema_error::none;

  // Instantiates the diagnostic (its static_assert is the only error).
  template <std::size_t... I, std::size_t... J>
  static constexpr void report(std::index_sequence<I...>, std::index_sequence<J...>) {
#if defined(__clang__)
    report_malformed_schema<malformed_schema<value.error.code, value.error.column, near[I]...>,
                            schema_text<S.view()[shown_begin() + J]...>>();
#else
    report_malformed_schema<malformed_schema<value.error.code, value.error.column, near[I]...>, schema_text<S>>();
#endif
  }
  // The excerpt clang's schema_text shows: up to 24 characters before the
  // error's column (1-based) through the end of the offending text.
  static constexpr std::size_t shown_begin() {
    const std::size_t at = value.error.column == 0 ? 0 : value.error.column - 1;
    return at > 24 ? at - 24 : 0;
  }
  static constexpr std::size_t shown_length() {
#if defined(__clang__)
    const std::size_t end = value.error.column - 1 + value.error.near.size();
    return (end < S.view().size() ? end : S.view().size()) - shown_begin();
#else
    return 0;
#endif
  }
  static constexpr bool check() {
    if constexpr (malformed)
      report(std::make_index_sequence<near.size()>{}, std::make_index_sequence<shown_length()>{});
    return !malformed;
  }
};

// The parsed schema, or a compile error that says what is wrong and where:
// one error, and what is derived from a malformed schema (kernel checks)
// stays quiet (opd::schema::schema_malformed_v).
template <fixed_string S>
constexpr const auto& schema_of() {
  compiled<S>::check();
  return compiled<S>::value.schema;
}

// True when S parses; for code that wants to test a schema without failing.
template <fixed_string S>
inline constexpr bool is_valid_schema = compiled<S>::value.error.code == schema_error::none;

}  // namespace schema
}  // namespace opd
