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

template <fixed_string S>
struct compiled {
  static constexpr capacities caps = capacity_for(S.view());
  using schema_type = basic_schema<static_vector<argument, caps.arguments>, static_vector<type_node, caps.types>,
                                   static_vector<alias_info, caps.aliases>>;
  struct result {
    schema_type schema{};
    parse_error error{};
  };
  static constexpr result value = [] {
    result r;
    r.error = parse_into(S.view(), r.schema);
    return r;
  }();
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
