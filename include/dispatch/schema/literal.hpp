#pragma once
// Compile-time parsing of a schema literal. schema_of<"...">() is the parsed
// schema as a constant; a malformed schema stops compilation in
// opd::malformed_schema<error, column, 'n','e','a','r',...>, which both g++ and
// clang print with the error's name, its column and the text found there.
#include <cstddef>
#include <string_view>
#include <utility>

#include "error.hpp"
#include "fixed_string.hpp"
#include "model.hpp"
#include "parser.hpp"
#include "static_vector.hpp"

namespace opd {

template <schema_error Error, std::size_t Column, char... TextAtColumn>
struct malformed_schema {
  static_assert(Error == schema_error::none,
                "malformed operator schema: the error, its column and the text there are the template arguments "
                "of opd::malformed_schema above");
  static constexpr bool ok = false;
};

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

  template <std::size_t... I>
  static constexpr bool report(std::index_sequence<I...>) {
    return malformed_schema<value.error.code, value.error.column, near[I]...>::ok;
  }
  static constexpr bool check() {
    if constexpr (value.error.code != schema_error::none) return report(std::make_index_sequence<near.size()>{});
    return true;
  }
};

// The parsed schema, or a compile error that says what is wrong and where.
template <fixed_string S>
constexpr const auto& schema_of() {
  static_assert(compiled<S>::check());
  return compiled<S>::value.schema;
}

// True when S parses; for code that wants to test a schema without failing.
template <fixed_string S>
inline constexpr bool is_valid_schema = compiled<S>::value.error.code == schema_error::none;

}  // namespace schema
}  // namespace opd
