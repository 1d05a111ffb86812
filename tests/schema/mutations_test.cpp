// Differential test against PyTorch 1.13's verdicts on mutated schemas
// (tests/data/mutations_public.jsonl). Every schema PyTorch rejects, we reject.
// Every schema PyTorch accepts, we accept, unless a documented strictness rule
// (docs/schema-language.md, "Where opdispatch is stricter than PyTorch") rejects
// it: "a default value must fit its argument's type" (default_does_not_fit_type)
// and "names are not repeated" (repeated_argument_name, repeated_return_name).
// Any other extra rejection is a failure.
#include <dispatch/schema.hpp>
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "schema_test_support.hpp"

namespace {

using opd::test::json::value;

TEST(SchemaConformance, MutationsAgreeWithPyTorch) {
  const std::vector<value> records = opd::test::read_jsonl("mutations_public.jsonl");
  ASSERT_EQ(records.size(), 2000u);
  std::size_t torch_accepted = 0, torch_rejected = 0, agreed = 0, stricter = 0, repeated = 0, failures = 0;
  for (const value& r : records) {
    const std::string& text = r["schema"].as_string();
    const opd::schema::parse_result res = opd::schema::parse(text);
    const bool theirs = r["accepted"].as_bool();
    (theirs ? torch_accepted : torch_rejected) += 1;
    if (theirs == static_cast<bool>(res)) {
      ++agreed;
      continue;
    }
    if (theirs && res.code == opd::schema_error::default_does_not_fit_type) {
      ++stricter;
      continue;
    }
    if (theirs && (res.code == opd::schema_error::repeated_argument_name ||
                   res.code == opd::schema_error::repeated_return_name)) {
      ++repeated;
      continue;
    }
    if (++failures > 50) continue;
    if (theirs) {
      ADD_FAILURE() << "PyTorch accepts, we reject: " << text << "\n  " << res.message();
    } else {
      ADD_FAILURE() << "PyTorch rejects (" << r["error"].as_string() << "), we accept: " << text;
    }
  }
  std::cout << "[mutations_public] " << records.size() << " schemas: PyTorch accepted " << torch_accepted
            << ", rejected " << torch_rejected << "; opdispatch agreed on " << agreed << ", rejected " << stricter
            << " more under the rule 'a default value must fit its argument's type' and " << repeated
            << " under 'names are not repeated'\n";
  RecordProperty("accepted", static_cast<int>(torch_accepted));
  RecordProperty("rejected", static_cast<int>(torch_rejected));
  RecordProperty("agreed", static_cast<int>(agreed));
  RecordProperty("stricter", static_cast<int>(stricter));
  RecordProperty("repeated", static_cast<int>(repeated));
  EXPECT_EQ(agreed + stricter + repeated, records.size());
}

}  // namespace
