// Schemas that projects outside PyTorch core register for their own operators
// (tests/data/custom_ops.jsonl): all of them parse but the 3 that repeat an
// argument name (docs/schema-language.md, "Where opdispatch is stricter than
// PyTorch"). PyTorch 1.13 rejected 11 only because their custom classes were
// not registered in the process that parsed them; the schema language accepts
// custom class types, so do we.
#include <dispatch/schema.hpp>
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "schema_test_support.hpp"

namespace {

using opd::test::json::value;

bool has_custom_class(const opd::schema::dynamic_schema& s) {
  for (const auto& t : s.types)
    if (t.kind == opd::schema::type_kind::custom_class) return true;
  return false;
}

TEST(SchemaConformance, CustomOpsParse) {
  const std::vector<value> records = opd::test::read_jsonl("custom_ops.jsonl");
  ASSERT_EQ(records.size(), 1284u);
  std::size_t accepted = 0, ours = 0, stable = 0, custom_class_rejects = 0, repeated_names = 0, failures = 0;
  for (const value& r : records) {
    const std::string& text = r["schema"].as_string();
    const opd::schema::parse_result res = opd::schema::parse(text);
    if (r["accepted"].as_bool()) {
      ++accepted;
    } else {
      ++custom_class_rejects;
      EXPECT_NE(r["error"].as_string().find("Unknown custom class type"), std::string::npos) << text;
      if (res) {
        EXPECT_TRUE(has_custom_class(res.schema->value())) << "expected a custom_class type in: " << text;
      }
    }
    if (!res && res.code == opd::schema_error::repeated_argument_name) {
      ++repeated_names;  // vLLM's two q_seqlens, PyTorch/XLA's custom_op2(Tensor input, Tensor input)
      continue;
    }
    if (!res) {
      if (++failures <= 50) ADD_FAILURE() << "does not parse: " << text << "\n  " << res.message();
      continue;
    }
    ++ours;
    // Printing is canonical: what we print parses again and prints the same.
    const std::string printed = opd::schema::to_string(res.schema->value());
    const opd::schema::parse_result again = opd::schema::parse(printed);
    if (again && opd::schema::to_string(again.schema->value()) == printed) ++stable;
    else if (++failures <= 50) ADD_FAILURE() << "printing is not stable for: " << text << "\n  printed " << printed;
  }
  std::cout << "[custom_ops] " << records.size() << " schemas (" << accepted << " accepted by PyTorch 1.13, "
            << custom_class_rejects << " rejected for unregistered custom classes), " << ours
            << " parsed by opdispatch, " << repeated_names << " rejected for a repeated argument name, " << stable
            << " print stably\n";
  RecordProperty("schemas", static_cast<int>(records.size()));
  RecordProperty("parsed", static_cast<int>(ours));
  EXPECT_EQ(custom_class_rejects, 11u);
  EXPECT_EQ(repeated_names, 3u);
  EXPECT_EQ(ours + repeated_names, records.size());
  EXPECT_EQ(stable, ours);
}

TEST(SchemaConformance, CustomClassTypeKind) {
  const auto r = opd::schema::parse(
      "create(str serialized, __torch__.torch.classes.fbgemm.KVTensorWrapper[] w) -> "
      "__torch__.torch.classes.fbgemm.KVTensorWrapper");
  ASSERT_TRUE(r) << r.message();
  const auto& s = r.schema->value();
  const auto& list = s.type_of(s.arguments[1]);
  ASSERT_EQ(list.kind, opd::schema::type_kind::list);
  EXPECT_EQ(s.type(list.child).kind, opd::schema::type_kind::custom_class);
  EXPECT_EQ(s.type(list.child).name, "__torch__.torch.classes.fbgemm.KVTensorWrapper");
  const auto& ret = s.type_of(s.returns[0]);
  EXPECT_EQ(ret.kind, opd::schema::type_kind::custom_class);
  EXPECT_EQ(ret.name, "__torch__.torch.classes.fbgemm.KVTensorWrapper");
}

}  // namespace
