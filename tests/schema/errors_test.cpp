// Error reporting: each kind of malformed schema gets its own schema_error
// code, the 1-based column of the offending text, and a one-line message.
// The examples here are the ones docs/schema-language.md shows.
#include <dispatch/schema.hpp>
#include <dispatch/schema/typo.hpp>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace {

using opd::schema_error;

struct bad_schema {
  std::string_view text;
  schema_error code;
  std::size_t column;
  std::string_view message;
};

// One example per error code, with the exact message parse_result::message() gives.
const std::vector<bad_schema>& bad_schemas() {
  static const std::vector<bad_schema> cases = {
      {"", schema_error::empty_schema, 1, "column 1: the schema is empty"},
      {"f(Tensor $x) -> Tensor", schema_error::unexpected_character, 10, "column 10: unexpected character near '$'"},
      {"f(str s='abc) -> Tensor", schema_error::unterminated_string_literal, 9,
       "column 9: unterminated string literal near ''abc) -> Tensor'"},
      {"(Tensor x) -> Tensor", schema_error::expected_operator_name, 1, "column 1: expected an operator name near '('"},
      {"f(Tensor if) -> Tensor", schema_error::reserved_word_used_as_name, 10,
       "column 10: a reserved word cannot be used as a name near 'if'"},
      {"aten:add(Tensor self) -> Tensor", schema_error::expected_second_colon_in_namespace, 6,
       "column 6: expected '::' between namespace and name near 'add'"},
      {"add.(Tensor self) -> Tensor", schema_error::expected_overload_name_after_dot, 5,
       "column 5: expected an overload name after '.' near '('"},
      {"add", schema_error::missing_argument_list, 4,
       "column 4: only the operator name was given: expected '(' and an argument list at the end of the schema"},
      {"add(Tensor self", schema_error::expected_comma_or_close_paren, 16,
       "column 16: expected ',' or ')' at the end of the schema"},
      {"f(RRef() x) -> Tensor", schema_error::expected_type, 8, "column 8: expected a type near ')'"},
      {"aten::add(Tensor self, Tensr other) -> Tensor", schema_error::unknown_type, 24,
       "column 24: unknown type near 'Tensr'"},
      {"f(double x) -> Tensor", schema_error::use_float_instead_of_double, 3,
       "column 3: use 'float' instead of 'double' in a schema near 'double'"},
      {"f(Tensor x, Tensor) -> Tensor", schema_error::expected_argument_name, 19,
       "column 19: expected an argument name near ')'"},
      {"f(Tensor() self) -> Tensor", schema_error::expected_alias_set_name, 10,
       "column 10: expected an alias set name or '*' in the alias annotation near ')'"},
      {"f(Tensor(a self) -> Tensor", schema_error::expected_close_paren_of_alias_annotation, 12,
       "column 12: expected ')' to close the alias annotation near 'self'"},
      {"f(int[x] a) -> Tensor", schema_error::expected_list_size, 7, "column 7: expected a list size or ']' near 'x'"},
      {"f(int[2 a) -> Tensor", schema_error::expected_close_bracket, 9, "column 9: expected ']' near 'a'"},
      {"f(__torch__.foo.Bar x) -> Tensor", schema_error::expected_custom_class_path, 13,
       "column 13: expected a custom class path __torch__.torch.classes.<namespace>.<Class> near 'foo'"},
      {"f(Dict[int, int] x) -> Tensor", schema_error::expected_open_paren_after_container_type, 7,
       "column 7: expected '(' after a container type name near '['"},
      {"add(Tensor self) Tensor", schema_error::expected_arrow, 18,
       "column 18: expected '->' after the argument list near 'Tensor'"},
      {"f(Tensor x) -> Tensor(a!)(b)", schema_error::expected_end_of_schema, 26,
       "column 26: expected the end of the schema near '('"},
      {"f(..., int x) -> Tensor", schema_error::vararg_must_be_last, 8,
       "column 8: '...' must be the last element of its list near 'int'"},
      {"f(int x=1, ...) -> Tensor", schema_error::vararg_with_default_argument, 7,
       "column 7: a schema with '...' cannot have arguments with defaults near 'x'"},
      {"f(int x=) -> Tensor", schema_error::expected_default_value, 9, "column 9: expected a default value near ')'"},
      {"sum(Tensor self, bool keepdim=0x10) -> Tensor", schema_error::default_does_not_fit_type, 31,
       "column 31: the default value does not fit the argument's type near '0x10'"},
      {"f(int x=99999999999999999999) -> Tensor", schema_error::number_out_of_range, 9,
       "column 9: number out of range near '99999999999999999999'"},
      {"f(int reduction=Meen) -> Tensor", schema_error::unknown_symbolic_default, 17,
       "column 17: unknown symbolic default value near 'Meen'"},
      {"f(Tensor self, ScalarType dtype=int) -> Tensor", schema_error::invalid_numeric_default, 33,
       "column 33: invalid numeric default value (of the dtype names, PyTorch reads only 'long', 'float' and "
       "'complex') near 'int'"},
      {"f(Tensor self, Tensor self) -> Tensor", schema_error::repeated_argument_name, 23,
       "column 23: repeated argument name near 'self'"},
      {"f(Tensor self) -> (Tensor a, Tensor a)", schema_error::repeated_return_name, 37,
       "column 37: repeated return name near 'a'"},
  };
  return cases;
}

TEST(SchemaErrors, EachCodeWithColumnAndMessage) {
  for (const bad_schema& c : bad_schemas()) {
    SCOPED_TRACE(std::string(c.text));
    const opd::schema::parse_result r = opd::schema::parse(c.text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.code, c.code) << opd::schema_error_message(r.code);
    EXPECT_EQ(r.column, c.column);
    EXPECT_EQ(r.message(), c.message);
  }
}

TEST(SchemaErrors, EveryCodeHasAnExample) {
  // schema_too_complex is a limit: strictness_test.cpp and robustness_test.cpp.
  std::vector<bool> seen(static_cast<std::size_t>(schema_error::schema_too_complex) + 1, false);
  for (const bad_schema& c : bad_schemas()) seen[static_cast<std::size_t>(c.code)] = true;
  for (std::size_t i = 1; i + 1 < seen.size(); ++i)
    EXPECT_TRUE(seen[i]) << "no example for " << opd::schema_error_message(static_cast<schema_error>(i));
}

TEST(SchemaErrors, ParseOrThrow) {
  try {
    (void)opd::schema::parse_or_throw("add(Tensr self) -> Tensor");
    FAIL() << "expected a syntax_error";
  } catch (const opd::schema::syntax_error& e) {
    EXPECT_EQ(e.code(), schema_error::unknown_type);
    EXPECT_EQ(e.column(), 5u);
    EXPECT_STREQ(e.what(), "column 5: unknown type near 'Tensr'");
  }
  EXPECT_NO_THROW((void)opd::schema::parse_or_throw("add(Tensor self) -> Tensor"));
}

TEST(SchemaErrors, ColumnsCountBytesAcrossLineBreaks) {
  const opd::schema::parse_result r = opd::schema::parse("f(Tensor a,\n  Tensr b) -> Tensor");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code, schema_error::unknown_type);
  EXPECT_EQ(r.column, 15u);
}

TEST(SchemaErrors, MessagesStayOnOneLinePrintable) {
  const opd::schema::parse_result r = opd::schema::parse(std::string("f(Tensor x) -> Tensor\n\x01\xff", 24));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code, schema_error::unexpected_character);
  EXPECT_EQ(r.column, 23u);
  EXPECT_EQ(r.message(), "column 23: unexpected character near '?'");
}

// Repeated names are rejected (keyword calls and boxed calls by name would be
// ambiguous), with the column of the second one; PyTorch 1.13 accepts some of
// these and aborts the process on others. Unnamed returns are not names.
TEST(SchemaErrors, RepeatedNamesAreRejected) {
  const opd::schema::parse_result r = opd::schema::parse("f(Tensor self, str? norm, str? norm=None) -> Tensor");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code, schema_error::repeated_argument_name);
  EXPECT_EQ(r.column, 32u);
  EXPECT_EQ(r.message(), "column 32: repeated argument name near 'norm'");
  // kwarg-only and out= arguments share the names of the positional ones
  const opd::schema::parse_result out = opd::schema::parse("f(Tensor a, *, Tensor(a!) a) -> Tensor(a!)");
  ASSERT_FALSE(out);
  EXPECT_EQ(out.code, schema_error::repeated_argument_name);
  EXPECT_EQ(out.column, 27u);
  // a return may be named like an argument; unnamed returns repeat nothing
  EXPECT_TRUE(opd::schema::parse("f(Tensor values) -> (Tensor values, Tensor indices)"));
  EXPECT_TRUE(opd::schema::parse("f(Tensor self) -> (Tensor, Tensor, Tensor)"));
}

// Of the dtype names, PyTorch 1.13 reads only long, float and complex as
// default values; `int` and the others are "invalid numeric default value".
TEST(SchemaErrors, DtypeDefaultsPyTorchReads) {
  EXPECT_TRUE(opd::schema::parse("f(Tensor self, ScalarType dtype=long, ScalarType d2=float, ScalarType d3=complex) "
                                 "-> Tensor"));
  for (std::string_view name : {"int", "Int", "int64", "double", "bool", "half", "bfloat16"}) {
    const std::string text = "f(Tensor self, ScalarType dtype=" + std::string(name) + ") -> Tensor";
    const opd::schema::parse_result r = opd::schema::parse(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.code, schema_error::invalid_numeric_default) << text;
    EXPECT_EQ(r.column, 33u);
  }
}

// Lower-case typos of a type are legal type variables; typo.hpp says what was
// probably meant (the kernel check and opd-schema use it).
TEST(SchemaErrors, TypeVariableTypoSuggestions) {
  using opd::schema::type_variable_suggestion;
  EXPECT_EQ(type_variable_suggestion("tensor"), "Tensor");
  EXPECT_EQ(type_variable_suggestion("scalar"), "Scalar");
  EXPECT_EQ(type_variable_suggestion("int64"), "int");
  EXPECT_EQ(type_variable_suggestion("string"), "str");
  EXPECT_EQ(type_variable_suggestion("scalr"), "Scalar");      // one edit
  EXPECT_EQ(type_variable_suggestion("tesnor"), "Tensor");     // a transposition
  EXPECT_EQ(type_variable_suggestion("t"), "");                // real type variables
  EXPECT_EQ(type_variable_suggestion("t1"), "");
  EXPECT_EQ(type_variable_suggestion("tval"), "");
  EXPECT_EQ(opd::schema::edit_distance_ignoring_case("kitten", "sitting"), 3u);
  const opd::schema::parse_result r = opd::schema::parse("f(t[] a, tensor self) -> t");
  ASSERT_TRUE(r) << r.message();  // the grammar is kept
  const std::int16_t i = opd::schema::first_suspicious_type_variable(r.schema->value());
  ASSERT_NE(i, opd::schema::no_index);
  EXPECT_EQ(r.schema->value().types[static_cast<std::size_t>(i)].name, "tensor");
  static_assert(opd::schema::type_variable_suggestion("tensor") == "Tensor");  // usable at compile time
}

// Compile time reports the same error, code and column as run time.
using bad = opd::schema::compiled<"aten::add(Tensor self, Tensr other) -> Tensor">;
static_assert(!opd::schema::is_valid_schema<"aten::add(Tensor self, Tensr other) -> Tensor">);
static_assert(bad::value.error.code == schema_error::unknown_type);
static_assert(bad::value.error.column == 24);
static_assert(bad::near == "Tensr");

}  // namespace
