// The tests' JSON reader (tests/support/json.hpp).
#include <gtest/gtest.h>

#include <string>

#include "../support/json.hpp"

namespace {

namespace json = opd::test::json;

TEST(TestJsonReader, ReadsEveryKindOfValue) {
  const json::value v = json::parse(
      R"( {"s": "a\"b\\c\/\b\f\n\r\t", "n": -12.5e1, "i": 42, "t": true, "f": false, "z": null,
           "a": [1, [], {}, "x"], "o": {"k": {"deep": [null]}}, "empty": ""} )");
  ASSERT_TRUE(v.is_object());
  EXPECT_EQ(v["s"].as_string(), "a\"b\\c/\b\f\n\r\t");
  EXPECT_EQ(v["n"].as_double(), -125.0);
  EXPECT_EQ(v["n"].number_text(), "-12.5e1");
  EXPECT_EQ(v["i"].as_int(), 42);
  EXPECT_TRUE(v["t"].as_bool());
  EXPECT_FALSE(v["f"].as_bool());
  EXPECT_TRUE(v["z"].is_null());
  ASSERT_EQ(v["a"].size(), 4u);
  EXPECT_TRUE(v["a"][1].is_array());
  EXPECT_TRUE(v["a"][2].is_object());
  EXPECT_EQ(v["a"][3].as_string(), "x");
  EXPECT_TRUE(v["o"]["k"]["deep"][0].is_null());
  EXPECT_EQ(v["empty"].as_string(), "");
  EXPECT_EQ(v.keys().front(), "s");
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_THROW((void)v["missing"], std::out_of_range);
  EXPECT_THROW((void)v["s"].as_int(), std::logic_error);
}

TEST(TestJsonReader, UnicodeEscapesBecomeUtf8) {
  EXPECT_EQ(json::parse(R"("\u0041\u00e9\u20ac\ud83d\ude00\u0000")").as_string(),
            std::string("A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\0", 11));
  EXPECT_EQ(json::parse("\"caf\xc3\xa9\"").as_string(), "caf\xc3\xa9");  // raw UTF-8 passes through
}

TEST(TestJsonReader, RejectsMalformedInput) {
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83d\"",
                          "\"\\ude00\"", "01x", "-", "1.", "1e", "tru", "nul", "[1] 2", "\"a\nb\"", "{1: 2}"}) {
    EXPECT_THROW((void)json::parse(bad), json::error) << bad;
  }
  EXPECT_THROW((void)json::parse(std::string(100000, '[')), json::error);  // too deep, not a stack overflow
}

}  // namespace
