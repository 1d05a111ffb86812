#pragma once
// derives(text): the schema parses and its C signature derives with no
// argument falling back to opd_any, every parameter spelled and named with a
// C identifier, and as many C parameters as the forms promise. constexpr:
// the generated derive_*.cpp call it in static_asserts, one per schema.
#include <dispatch/c_abi/c_signature.hpp>
#include <dispatch/schema/literal.hpp>
#include <dispatch/schema/parser.hpp>
#include <dispatch/schema/printer.hpp>
#include <dispatch/schema/static_vector.hpp>

#include <string_view>

namespace opd_test {

namespace sch = opd::schema;
namespace cabi = opd::c_abi;

using scratch_schema = sch::basic_schema<sch::static_vector<sch::argument, 64>, sch::static_vector<sch::type_node, 128>,
                                         sch::static_vector<sch::alias_info, 16>>;

constexpr bool is_identifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

struct name_sink {
  char text[128]{};
  std::size_t size = 0;
  constexpr void put(std::string_view s) {
    for (char c : s)
      if (size < sizeof text) text[size++] = c;
  }
  constexpr std::string_view view() const { return std::string_view(text, size); }
};

constexpr bool derives(std::string_view text) {
  scratch_schema s{};
  if (sch::parse_into(text, s).code != opd::schema_error::none) return false;
  std::size_t expected = 0;
  for (const sch::argument& a : s.arguments) {
    const cabi::c_form f = cabi::arg_form(s, a.type);
    if (f.shape == cabi::c_shape::any) return false;  // every type of the data has a flat C form
    expected += f.arity();
  }
  for (const sch::argument& r : s.returns) {
    switch (cabi::return_kind(s, r.type)) {
      case cabi::c_return::omitted: break;
      case cabi::c_return::value: expected += 1; break;
      case cabi::c_return::flat: expected += cabi::arg_form(s, r.type).device ? 2 : 1; break;
    }
  }
  std::size_t count = 0;
  bool names_ok = true;
  cabi::for_each_c_param(s, [&](const cabi::c_param& p) {
    ++count;
    name_sink n;
    cabi::print_c_param_name(s, p, n);
    names_ok = names_ok && is_identifier(n.view()) && !cabi::is_c_keyword(n.view());
  });
  name_sink fn;
  cabi::print_c_name(s, fn);
  sch::counting_sink proto;
  cabi::print_c_prototype(s, "", proto);
  return names_ok && count == expected && count == cabi::c_param_count(s) && is_identifier(fn.view()) &&
         proto.size > 10;
}

}  // namespace opd_test
