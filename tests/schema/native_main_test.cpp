// native_functions.yaml of a 2025 PyTorch (tests/data/native_functions_main.txt),
// in torchgen's canonical form: every schema parses and prints back exactly.
#include <dispatch/schema.hpp>
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "schema_test_support.hpp"

namespace {

TEST(SchemaConformance, NativeFunctionsMainParseAndPrintBack) {
  const std::vector<std::string> lines = opd::test::read_lines("native_functions_main.txt");
  ASSERT_EQ(lines.size(), 2590u);
  std::size_t parsed = 0, round_trips = 0, failures = 0;
  for (const std::string& text : lines) {
    const opd::schema::parse_result r = opd::schema::parse(text);
    if (!r) {
      if (++failures <= 50) ADD_FAILURE() << "does not parse: " << text << "\n  " << r.message();
      continue;
    }
    ++parsed;
    const std::string printed = opd::schema::to_string(r.schema->value());
    if (printed == text) ++round_trips;
    else if (++failures <= 50) ADD_FAILURE() << "prints back differently:\n  read    " << text << "\n  printed " << printed;
  }
  std::cout << "[native_functions_main] " << lines.size() << " schemas, " << parsed << " parsed, " << round_trips
            << " printed back exactly\n";
  RecordProperty("schemas", static_cast<int>(lines.size()));
  RecordProperty("round_trips", static_cast<int>(round_trips));
  EXPECT_EQ(parsed, lines.size());
  EXPECT_EQ(round_trips, lines.size());
}

}  // namespace
