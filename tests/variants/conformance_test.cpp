// Schema kinds, views, derived variants and families against torchgen's view
// of PyTorch 1.13.1's operators (tests/data/kinds_1.13.jsonl: every operator
// after torchgen generated the missing variants; groups_1.13.jsonl: torchgen's
// operator groups).
#include <dispatch/schema/properties.hpp>
#include <dispatch/schema/variants.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "../support/json.hpp"

#ifndef OPD_TEST_DATA_DIR
#error "OPD_TEST_DATA_DIR must name the tests/data directory"
#endif

namespace {

namespace sc = opd::schema;
namespace json = opd::test::json;

std::vector<json::value> read_jsonl(const std::string& file) {
  const std::string path = std::string(OPD_TEST_DATA_DIR) + "/" + file;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open test data file " + path);
  std::vector<json::value> records;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) records.push_back(json::parse(line));
  }
  return records;
}

struct row {
  std::string schema;
  std::string kind;  // torchgen's SchemaKind
  bool in_yaml = true;
  bool is_view_op = false;
  std::optional<sc::runtime_schema> parsed;
  std::string key;  // our family key
};

constexpr std::array<std::string_view, 4> kinds = {"functional", "inplace", "mutable", "out"};

// Members of one family, by kind: indices into rows.
using family = std::map<std::string, std::size_t>;

struct corpus {
  std::vector<row> rows;
  std::map<std::string, family> families;
  std::vector<std::string> duplicate_kinds;  // "key: kind" seen twice
};

const corpus& kinds_corpus() {
  static const corpus c = [] {
    corpus r;
    for (const json::value& v : read_jsonl("kinds_1.13.jsonl")) {
      row x;
      x.schema = v["schema"].as_string();
      x.kind = v["kind"].as_string();
      x.in_yaml = v["in_yaml"].as_bool();
      x.is_view_op = v["is_view_op"].as_bool();
      sc::parse_result p = sc::parse(x.schema);
      if (p) {
        x.parsed = std::move(*p.schema);
        x.key = sc::family_key(*x.parsed);
      }
      r.rows.push_back(std::move(x));
    }
    for (std::size_t i = 0; i < r.rows.size(); ++i) {
      const row& x = r.rows[i];
      if (!x.parsed) continue;
      family& f = r.families[x.key];
      const std::string k(sc::kind_name(sc::kind_of(*x.parsed)));
      if (!f.emplace(k, i).second) r.duplicate_kinds.push_back(x.key + ": " + k);
    }
    return r;
  }();
  return c;
}

const row* member(const corpus& c, const row& x, std::string_view kind) {
  const family& f = c.families.at(x.key);
  const auto it = f.find(std::string(kind));
  return it == f.end() ? nullptr : &c.rows[it->second];
}

TEST(VariantsConformance, EveryRowParses) {
  const corpus& c = kinds_corpus();
  ASSERT_EQ(c.rows.size(), 2952u);
  std::size_t parsed = 0;
  for (const row& x : c.rows) {
    EXPECT_TRUE(x.parsed.has_value()) << x.schema;
    parsed += x.parsed ? 1 : 0;
  }
  EXPECT_EQ(parsed, 2952u);
}

TEST(VariantsConformance, KindOfAgreesWithTorchgen) {
  const corpus& c = kinds_corpus();
  std::map<std::string, std::size_t> agree;
  std::size_t total = 0;
  for (const row& x : c.rows) {
    if (!x.parsed) continue;
    const std::string_view ours = sc::kind_name(sc::kind_of(*x.parsed));
    EXPECT_EQ(ours, x.kind) << "schema:   " << x.schema << "\n  ours:     " << ours << "\n  torchgen: " << x.kind;
    if (ours == x.kind) {
      ++agree[x.kind];
      ++total;
    }
  }
  std::cout << "[ kind     ] " << total << " of " << c.rows.size() << " rows agree (functional " << agree["functional"]
            << ", inplace " << agree["inplace"] << ", out " << agree["out"] << ", mutable " << agree["mutable"] << ")\n";
  EXPECT_EQ(total, 2952u);
  EXPECT_EQ(agree["functional"], 1547u);
  EXPECT_EQ(agree["out"], 1092u);
  EXPECT_EQ(agree["inplace"], 309u);
  EXPECT_EQ(agree["mutable"], 4u);
}

// torchgen's is_view_op = a schema rule (is_view) or the `inplace_view` tag of
// native_functions.yaml, which the schema does not carry. The tag is on the
// in-place views (squeeze_, t_, ...): exactly the in-place operators whose
// functional sibling is a view, which is how this test supplies it.
TEST(VariantsConformance, IsViewAgreesWithTorchgen) {
  const corpus& c = kinds_corpus();
  std::size_t agree = 0, schema_only_agree = 0, views = 0;
  std::vector<std::string> tag_only;
  for (const row& x : c.rows) {
    if (!x.parsed) continue;
    const row* functional = member(c, x, "functional");
    const bool tag = sc::kind_of(*x.parsed) == sc::schema_kind::inplace && functional != nullptr &&
                     sc::is_view(*functional->parsed);
    const bool ours = sc::is_view_op(*x.parsed, tag);
    EXPECT_EQ(ours, x.is_view_op) << "schema: " << x.schema << "\n  ours: " << ours << ", torchgen: " << x.is_view_op;
    agree += ours == x.is_view_op;
    views += x.is_view_op;
    if (sc::is_view(*x.parsed) == x.is_view_op) ++schema_only_agree;
    else tag_only.push_back(x.schema);
  }
  std::cout << "[ view     ] " << agree << " of " << c.rows.size() << " rows agree (" << views
            << " views); the schema alone: " << schema_only_agree << "\n";
  EXPECT_EQ(agree, 2952u);
  EXPECT_EQ(views, 111u);
  // The schema alone tells 2941 of 2952; the other 11 are the inplace_view ops.
  EXPECT_EQ(schema_only_agree, 2941u);
  std::string list;
  for (const std::string& s : tag_only) list += "\n  " + s;
  EXPECT_EQ(tag_only.size(), 11u) << list;
}

TEST(VariantsConformance, FamilyKeysNeverCollide) {
  const corpus& c = kinds_corpus();
  std::string list;
  for (const std::string& d : c.duplicate_kinds) list += "\n  " + d;
  EXPECT_TRUE(c.duplicate_kinds.empty()) << "two schemas of one kind share a family key:" << list;
}

// Every schema torchgen generated (in_yaml false) is derived from the schema
// torchgen derived it from: the in-place member of its family if there is
// one, else the mutable one, else the out= one, else the functional one.
TEST(VariantsConformance, DerivedSchemasMatchTorchgen) {
  const corpus& c = kinds_corpus();
  std::map<std::string, std::size_t> matched;  // "<source kind> -> <derived kind>"
  std::size_t generated = 0, total = 0;
  for (const row& x : c.rows) {
    if (x.in_yaml || !x.parsed) continue;
    ++generated;
    const row* source = nullptr;
    for (std::string_view k : {"inplace", "mutable", "out", "functional"}) {
      const row* m = member(c, x, k);
      if (m != nullptr && m->in_yaml) {
        source = m;
        break;
      }
    }
    if (source == nullptr) {
      ADD_FAILURE() << "no source in the family of " << x.schema << " (key " << x.key << ")";
      continue;
    }
    std::string got;
    try {
      got = x.kind == "out" ? sc::out_variant_text(*source->parsed) : sc::functional_variant_text(*source->parsed);
    } catch (const sc::variant_failure& e) {
      got = std::string("<variant_failure: ") + e.what() + ">";
    }
    EXPECT_EQ(got, x.schema) << "derived " << x.kind << " variant of\n  " << source->schema << "\n  ours:     " << got
                             << "\n  torchgen: " << x.schema;
    if (got != x.schema) continue;
    // The derived schema parses, prints back, and is of the kind asked for.
    const sc::runtime_schema derived =
        x.kind == "out" ? sc::out_variant(*source->parsed) : sc::functional_variant(*source->parsed);
    EXPECT_EQ(sc::to_string(*derived), x.schema);
    EXPECT_EQ(sc::kind_name(sc::kind_of(derived)), x.kind) << x.schema;
    EXPECT_EQ(sc::family_key(derived), x.key) << x.schema;
    ++matched[source->kind + " -> " + x.kind];
    ++total;
  }
  std::cout << "[ derived  ] " << total << " of " << generated << " generated schemas derived exactly:";
  for (const auto& [what, n] : matched) std::cout << " " << what << " " << n << ";";
  std::cout << "\n";
  EXPECT_EQ(generated, 459u);
  EXPECT_EQ(total, 459u);
  EXPECT_EQ(matched["functional -> out"], 330u);
  EXPECT_EQ(matched["inplace -> out"], 99u);
  EXPECT_EQ(matched["inplace -> functional"], 28u);
  EXPECT_EQ(matched["mutable -> out"], 1u);
  EXPECT_EQ(matched["mutable -> functional"], 1u);
}

using group = std::array<std::string, 4>;  // functional, inplace, mutable, out ("" for none)

std::string describe(const group& g) {
  std::string s;
  for (std::size_t i = 0; i < 4; ++i) s += "\n    " + std::string(kinds[i]) + ": " + (g[i].empty() ? "-" : g[i]);
  return s;
}

// torchgen's NativeFunctionsGroup: a family with more than one member, an
// out= and a functional one.
TEST(VariantsConformance, FamilyKeysReproduceTorchgenGroups) {
  const corpus& c = kinds_corpus();
  std::set<group> ours;
  for (const auto& [key, f] : c.families) {
    if (f.size() < 2 || !f.count("out") || !f.count("functional")) continue;
    group g;
    for (std::size_t i = 0; i < 4; ++i) {
      const auto it = f.find(std::string(kinds[i]));
      if (it != f.end()) g[i] = c.rows[it->second].schema;
    }
    ours.insert(g);
  }
  std::set<group> theirs;
  for (const json::value& v : read_jsonl("groups_1.13.jsonl")) {
    group g;
    for (std::size_t i = 0; i < 4; ++i) {
      const json::value& m = v[kinds[i]];
      if (!m.is_null()) g[i] = m.as_string();
    }
    theirs.insert(g);
  }
  EXPECT_EQ(theirs.size(), 1090u);
  EXPECT_EQ(ours.size(), 1090u);
  std::size_t common = 0;
  for (const group& g : theirs) {
    if (ours.count(g)) ++common;
    else ADD_FAILURE() << "torchgen's group is not one of ours:" << describe(g);
  }
  for (const group& g : ours)
    if (!theirs.count(g)) ADD_FAILURE() << "our group is not one of torchgen's:" << describe(g);
  std::cout << "[ groups   ] " << common << " of " << theirs.size() << " torchgen groups reproduced, " << ours.size()
            << " groups of ours, from " << c.families.size() << " families\n";
  EXPECT_EQ(common, 1090u);
}

// PyTorch's own alias info, is_out and is_mutable (torch._C.parse_schema of
// every schema of native_functions.yaml, tests/data/native_functions_1.13.jsonl)
// against top_level_alias, is_out_argument and is_mutable.
std::string alias_text(const std::optional<sc::alias_info>& a) {
  if (!a) return "null";
  auto set = [](const sc::alias_set& s) {
    std::string r = "[";
    // (Appended piece by piece: g++ 12's -Wrestrict misfires on "..." + std::string in Release builds.)
    for (std::size_t i = 0; i < s.count; ++i) {
      if (i != 0) r += ',';
      r += s.names[i];
    }
    r += ']';
    return r;
  };
  return set(a->before) + "->" + set(a->after) + (a->is_write ? " write" : "");
}
std::string alias_text(const json::value& v) {
  if (v.is_null()) return "null";
  auto set = [](const json::value& s) {
    std::string r = "[";
    for (std::size_t i = 0; i < s.size(); ++i) r += (i ? "," : "") + s[i].as_string();
    return r + "]";
  };
  return set(v["before"]) + "->" + set(v["after"]) + (v["is_write"].as_bool() ? " write" : "");
}

TEST(VariantsConformance, AliasInfoAgreesWithPyTorch) {
  std::size_t schemas = 0, values = 0, agree = 0, outs = 0;
  for (const json::value& v : read_jsonl("native_functions_1.13.jsonl")) {
    const std::string& text = v["schema"].as_string();
    const sc::parse_result p = sc::parse(text);
    ASSERT_TRUE(p) << text;
    const sc::runtime_schema& s = *p.schema;
    ++schemas;
    EXPECT_EQ(sc::is_mutable(*s), v["is_mutable"].as_bool()) << text;
    const json::value& args = v["arguments"];
    const json::value& rets = v["returns"];
    ASSERT_EQ(args.size(), s->arguments.size()) << text;
    ASSERT_EQ(rets.size(), s->returns.size()) << text;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string ours = alias_text(sc::argument_alias(s, i)), theirs = alias_text(args[i]["alias"]);
      const bool out = sc::is_out_argument(s, i);
      EXPECT_EQ(ours, theirs) << text << "\n  argument " << i;
      EXPECT_EQ(out, args[i]["is_out"].as_bool()) << text << "\n  argument " << i;
      ++values;
      agree += ours == theirs && out == args[i]["is_out"].as_bool();
      outs += out;
    }
    for (std::size_t i = 0; i < rets.size(); ++i) {
      const std::string ours = alias_text(sc::return_alias(s, i)), theirs = alias_text(rets[i]["alias"]);
      EXPECT_EQ(ours, theirs) << text << "\n  return " << i;
      ++values;
      agree += ours == theirs;
    }
  }
  EXPECT_EQ(schemas, 2493u);
  EXPECT_EQ(agree, values);
  std::cout << "[ alias    ] " << agree << " of " << values << " arguments and returns of " << schemas
            << " schemas agree; " << outs << " out= arguments\n";
}

}  // namespace
