// native_functions.yaml of PyTorch 1.13 (tests/data/native_functions_1.13.jsonl):
// every schema parses, prints back exactly as written, and our parsed
// structure agrees with what torch._C.parse_schema made of it.
#include <dispatch/schema.hpp>
#include <dispatch/schema/queries.hpp>
#include <gtest/gtest.h>

#include <charconv>
#include <iostream>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "schema_test_support.hpp"

namespace {

using opd::schema::default_kind;
using opd::schema::dynamic_schema;
using opd::test::json::value;

// Collects what disagrees for one schema.
struct mismatches {
  std::vector<std::string> items;
  void add(const std::string& where, const std::string& ours, const std::string& theirs) {
    items.push_back(where + ": ours '" + ours + "', PyTorch '" + theirs + "'");
  }
  template <class T>
  void check(const std::string& where, const T& ours, const T& theirs) {
    if (!(ours == theirs)) add(where, to_text(ours), to_text(theirs));
  }
  static std::string to_text(const std::string& s) { return s; }
  static std::string to_text(std::string_view s) { return std::string(s); }
  static std::string to_text(bool b) { return b ? "true" : "false"; }
  template <class T>
  static std::string to_text(const T& v) { return std::to_string(v); }
};

std::string join(const std::vector<std::string>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + v[i];
  return out + "]";
}
std::vector<std::string> names_of(const opd::schema::alias_set& s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.count; ++i) out.emplace_back(s.names[i]);
  return out;
}
std::vector<std::string> strings_of(const value& array) {
  std::vector<std::string> out;
  for (const value& v : array.items()) out.push_back(v.as_string());
  return out;
}

std::string trim(std::string_view s) {
  while (!s.empty() && opd::schema::is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && opd::schema::is_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

// "[1, 2]" / "[1,2]" -> {"1", "2"}.
std::vector<std::string> list_elements(std::string_view text) {
  std::vector<std::string> out;
  text = text.substr(1, text.size() - 2);  // the brackets
  if (trim(text).empty()) return out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= text.size(); ++i)
    if (i == text.size() || text[i] == ',') {
      out.push_back(trim(text.substr(start, i - start)));
      start = i + 1;
    }
  return out;
}

bool same_number(const std::string& a, const std::string& b) {
  if (a == b) return true;
  char* end_a = nullptr;
  char* end_b = nullptr;
  const double x = std::strtod(a.c_str(), &end_a);
  const double y = std::strtod(b.c_str(), &end_b);
  return *end_a == '\0' && *end_b == '\0' && x == y;
}

// Python's repr of a scalar default, from our parsed value: "True", "-1", or
// for floats a spelling that strtod reads as the same double.
std::string scalar_repr(const opd::schema::default_value& d, default_kind k, bool float_type) {
  switch (k) {
    case default_kind::none: return "None";
    case default_kind::boolean: return d.boolean ? "True" : "False";
    case default_kind::integer:
    case default_kind::symbol:
      if (!float_type) return std::to_string(d.integer);
      [[fallthrough]];
    case default_kind::floating: {
      char buf[64];
      const auto r = std::to_chars(buf, buf + sizeof buf, d.floating);
      return std::string(buf, r.ptr);
    }
    default: return "?";
  }
}

// The default of `a` against the JSON `default` (Python repr, "<none>" when
// there is none, null for None).
void compare_default(const dynamic_schema& s, const opd::schema::argument& a, const value& theirs,
                     const std::string& where, mismatches& m) {
  if (theirs.is_string() && theirs.as_string() == "<none>") {
    m.check(where + " has a default", a.has_default, false);
    return;
  }
  m.check(where + " has a default", a.has_default, true);
  if (!a.has_default) return;
  const auto& d = a.def;
  if (theirs.is_null()) {
    m.check(where + " default is None", d.kind == default_kind::none, true);
    return;
  }
  const std::string t = theirs.as_string();
  // The scalar type the value is of: strip '?' and the list.
  const opd::schema::type_node* n = &s.type_of(a);
  if (n->kind == opd::schema::type_kind::optional) n = &s.type(n->child);
  if (n->kind == opd::schema::type_kind::list) n = &s.type(n->child);
  const bool float_type = n->kind == opd::schema::type_kind::base &&
                          (n->base == opd::schema::base_type::float_ || n->base == opd::schema::base_type::SymFloat);
  switch (d.kind) {
    case default_kind::none:
      m.add(where + " default", "None", t);
      break;
    case default_kind::boolean:
    case default_kind::integer:
    case default_kind::symbol:
    case default_kind::floating: {
      const std::string ours = scalar_repr(d, d.kind, float_type);
      if (!same_number(ours, t) || (float_type && t.find_first_of(".e") == std::string::npos))
        m.add(where + " default", ours, t);
      break;
    }
    case default_kind::string: {
      // Compare the text between the quotes where neither side has escapes.
      const std::string_view ours = std::string_view(d.text).substr(1, d.text.size() - 2);
      const bool quoted = t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front();
      const std::string inner = quoted ? t.substr(1, t.size() - 2) : t;
      if (!quoted || (ours.find('\\') == std::string_view::npos && inner.find('\\') == std::string::npos && ours != inner))
        m.add(where + " default", std::string(d.text), t);
      break;
    }
    case default_kind::list:
    case default_kind::repeated: {
      if (t.size() < 2 || t.front() != '[' || t.back() != ']') {
        m.add(where + " default", std::string(d.text), t);
        break;
      }
      const std::vector<std::string> expected = list_elements(t);
      std::vector<std::string> ours;
      if (d.kind == default_kind::list) {
        ours = list_elements(d.text);
        for (std::string& e : ours)
          if (float_type && e.find_first_of(".e") == std::string::npos) e += ".0";
      } else {
        ours.assign(static_cast<std::size_t>(d.length), scalar_repr(d, d.element, float_type));
      }
      m.check(where + " default length", ours.size(), expected.size());
      m.check(where + " default length field", static_cast<std::size_t>(d.length), expected.size());
      for (std::size_t i = 0; i < ours.size() && i < expected.size(); ++i)
        if (!same_number(ours[i], expected[i])) m.add(where + " default[" + std::to_string(i) + "]", ours[i], expected[i]);
      break;
    }
    case default_kind::complex:
      break;  // none in native_functions.yaml
  }
}

void compare_argument(const dynamic_schema& s, const opd::schema::argument& a, const value& theirs,
                      const std::string& where, mismatches& m) {
  m.check(where + " name", std::string(a.name), theirs["name"].as_string());
  m.check(where + " type", opd::test::torchscript_type(s, a.type), theirs["type"].as_string());
  m.check(where + " kwarg_only", a.kwarg_only, theirs["kwarg_only"].as_bool());
  m.check(where + " is_out", opd::schema::is_out(s, a), theirs["is_out"].as_bool());
  const std::int32_t n = opd::test::fixed_list_size(s, a.type);
  const value& their_n = theirs["N"];
  m.check(where + " N", n, their_n.is_null() ? std::int32_t{-1} : static_cast<std::int32_t>(their_n.as_int()));
  const std::optional<opd::schema::alias_info> alias = opd::schema::top_level_alias(s, a);
  const value& their_alias = theirs["alias"];
  m.check(where + " has an alias annotation", alias.has_value(), !their_alias.is_null());
  if (alias && !their_alias.is_null()) {
    m.check(where + " alias before", join(names_of(alias->before)), join(strings_of(their_alias["before"])));
    m.check(where + " alias after", join(names_of(alias->after)), join(strings_of(their_alias["after"])));
    m.check(where + " alias is_write", alias->is_write, their_alias["is_write"].as_bool());
  }
  compare_default(s, a, theirs["default"], where, m);
}

TEST(SchemaConformance, NativeFunctions113ParseAndAgreeWithPyTorch) {
  const std::vector<value> records = opd::test::read_jsonl("native_functions_1.13.jsonl");
  ASSERT_EQ(records.size(), 2493u);
  std::size_t parsed = 0, round_trips = 0, agree = 0, failures = 0;
  for (const value& r : records) {
    const std::string& text = r["schema"].as_string();
    const opd::schema::parse_result res = opd::schema::parse(text);
    if (!res) {
      if (++failures <= 50) ADD_FAILURE() << "does not parse: " << text << "\n  " << res.message();
      continue;
    }
    ++parsed;
    const dynamic_schema& s = res.schema->value();
    const std::string printed = opd::schema::to_string(s);
    if (printed == text) ++round_trips;
    else if (++failures <= 50) ADD_FAILURE() << "prints back differently:\n  read    " << text << "\n  printed " << printed;

    mismatches m;
    std::string name(s.name);
    if (!s.ns.empty()) name = std::string(s.ns) + "::" + name;
    m.check("name", name, r["name"].as_string());
    m.check("overload", std::string(s.overload), r["overload"].as_string());
    m.check("is_mutable", opd::schema::is_mutable(s), r["is_mutable"].as_bool());
    const value& args = r["arguments"];
    const value& rets = r["returns"];
    m.check("argument count", s.arguments.size(), args.size());
    m.check("return count", s.returns.size(), rets.size());
    for (std::size_t i = 0; i < s.arguments.size() && i < args.size(); ++i)
      compare_argument(s, s.arguments[i], args[i], "argument " + std::to_string(i), m);
    for (std::size_t i = 0; i < s.returns.size() && i < rets.size(); ++i)
      compare_argument(s, s.returns[i], rets[i], "return " + std::to_string(i), m);
    if (m.items.empty()) {
      ++agree;
    } else if (++failures <= 50) {
      std::string msg = "disagrees with PyTorch: " + text;
      for (const std::string& item : m.items) msg += "\n  " + item;
      ADD_FAILURE() << msg;
    }
  }
  std::cout << "[native_functions_1.13] " << records.size() << " schemas, " << parsed << " parsed, " << round_trips
            << " printed back exactly, " << agree << " agree with PyTorch's parse\n";
  RecordProperty("schemas", static_cast<int>(records.size()));
  RecordProperty("agreed", static_cast<int>(agree));
  EXPECT_EQ(parsed, records.size());
  EXPECT_EQ(round_trips, records.size());
  EXPECT_EQ(agree, records.size());
}

}  // namespace
