// Where opdispatch is stricter than PyTorch 1.13 (docs/schema-language.md,
// "Where opdispatch is stricter than PyTorch"): one test per rule. Each rule
// shows schemas PyTorch 1.13 accepts and we reject, with the error we give,
// and schemas the rule leaves alone.
#include <dispatch/schema.hpp>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

using opd::schema_error;

struct rejected {
  std::string_view text;
  std::size_t column;  // of the default value
};

// Rule 1: a default value must fit its argument's type. PyTorch 1.13 checks a
// default only when it is used; we check it when the schema is parsed. Every
// schema below is accepted by torch._C.parse_schema in 1.13 (most of them come
// from tests/data/mutations_public.jsonl).
TEST(SchemaStrictness, DefaultValueMustFitItsType) {
  const rejected cases[] = {
      {"sum(Tensor self, bool keepdim=0x10) -> Tensor", 31},               // an int for a bool
      {"round.decimals(Tensor self, *, int decimals=1e3) -> Tensor", 45},  // a float for an int
      {"f(Tensor input, Tensor? weight='s') -> Tensor", 32},               // a string for a Tensor
      {"f(Tensor self, bool x=None) -> Tensor", 23},                       // None for a non-optional
      {"f(Tensor self, int reduction='s') -> Tensor", 30},                 // a string for an int
      {"f(Tensor self, *, bool beta=1) -> Tensor", 29},                    // 1 for a bool
      {"f(Tensor self, Layout out_int32=False) -> Tensor", 33},            // a bool for a Layout
      {"f(Tensor y, *, Dimname dx=1) -> Tensor", 27},                      // an int for a Dimname
      {"f(Tensor self, int? dim=True) -> Tensor", 25},                     // a bool for an int?
      {"f(Tensor self, ScalarType? dtype=True) -> Tensor", 34},            // a bool for a ScalarType?
      {"f(Tensor self, Tensor? keepdim=False) -> Tensor", 32},             // a bool for a Tensor?
      {"f(Tensor self, str mode=1.5) -> Tensor", 25},                      // a float for a str
      {"f(Tensor self, Layout UPLO=\"L\") -> Tensor", 28},                 // a string for a Layout
  };
  for (const rejected& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    const opd::schema::parse_result r = opd::schema::parse(c.text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.code, schema_error::default_does_not_fit_type);
    EXPECT_EQ(r.column, c.column);
    EXPECT_NE(r.message().find("the default value does not fit the argument's type"), std::string::npos);
  }

  // PyTorch converts list defaults eagerly, so it rejects these too; we give
  // the same error code as above.
  const rejected lists[] = {
      {"f(Tensor self, int[] dims=[1, 2.5]) -> Tensor", 31},  // a float inside an int list
      {"f(Tensor self, int[2] dims=0.5) -> Tensor", 28},      // a float repeated into an int list
  };
  for (const rejected& c : lists) {
    SCOPED_TRACE(std::string(c.text));
    const opd::schema::parse_result r = opd::schema::parse(c.text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.code, schema_error::default_does_not_fit_type);
    EXPECT_EQ(r.column, c.column);
  }

  // What fits: the defaults real schemas use.
  const std::string_view fitting[] = {
      "f(Tensor self, bool keepdim=False, int dim=-1, float eps=1e-05, float p=2) -> Tensor",
      "f(Tensor self, Scalar alpha=1, Scalar beta=0.5, Scalar? s=None, complex c=2j) -> Tensor",
      "f(Tensor self, int reduction=Mean, ScalarType dtype=long, MemoryFormat m=contiguous_format) -> Tensor",
      "f(Tensor self, str mode='linear', str? rounding_mode=None, Dimname d=\"N\", Device dev=\"cpu\") -> Tensor",
      "f(Tensor self, Tensor? weight=None, Generator? generator=None, int[]? size=None) -> Tensor",
      "f(Tensor self, int[2] stride=1, int[1] dim=[], int[2] padding=[0, 0], float[] scales=[1, 2.5]) -> Tensor",
      "f(Tensor self, SymInt[] size=[], SymInt n=0, bool[3] mask=[True, False, True], int mask2=0x2FFFFFF) -> Tensor",
      "f(Tensor self, int[2]? output_size=1) -> Tensor",
  };
  for (std::string_view text : fitting) {
    const opd::schema::parse_result r = opd::schema::parse(text);
    EXPECT_TRUE(r) << text << "\n  " << r.message();
  }
}

// Rule 2 (a limit): an alias set names at most opd::schema::max_alias_set (4)
// sets, e.g. Tensor(a|b|c|d). PyTorch has no limit; no real schema comes close.
TEST(SchemaStrictness, AliasSetNamesAtMostFourSets) {
  static_assert(opd::schema::max_alias_set == 4);
  EXPECT_TRUE(opd::schema::parse("f(Tensor(a|b|c|d) x) -> Tensor(a|b|c|d)"));
  const opd::schema::parse_result r = opd::schema::parse("f(Tensor(a|b|c|d|e) x) -> Tensor");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code, schema_error::schema_too_complex);
}

// Rule 3: argument names are not repeated, nor return names (keyword calls
// and boxed calls by name would be ambiguous). PyTorch 1.13 accepts the
// schemas below (the first from vLLM, the others from
// tests/data/mutations_public.jsonl) and aborts the process on others.
TEST(SchemaStrictness, NamesAreNotRepeated) {
  const rejected cases[] = {
      {"convert_vertical_slash_indexes(Tensor! block_count, Tensor q_seqlens, Tensor q_seqlens) -> ()", 78},
      {"pow.Tensor_Tensor_out(Tensor self, Tensor exponent,r exponent, *, Tensor(a!) out) -> Tensor(a!)", 54},
      {"median.names_dim_values(Tensor self, Dimname dim, be dim, bool keepdim=False) -> Tensor", 54},
  };
  for (const rejected& c : cases) {
    SCOPED_TRACE(std::string(c.text));
    const opd::schema::parse_result r = opd::schema::parse(c.text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.code, schema_error::repeated_argument_name);
    EXPECT_EQ(r.column, c.column);
  }
  const opd::schema::parse_result ret = opd::schema::parse("f(Tensor self) -> (Tensor(a) values, Tensor values)");
  ASSERT_FALSE(ret);
  EXPECT_EQ(ret.code, schema_error::repeated_return_name);
  EXPECT_EQ(ret.column, 45u);
}

// Rule 4: of the dtype names, only long, float and complex are default values
// (as PyTorch 1.13 reads them); PyTorch 2.x also reads the other lower-case
// dtype names for a ScalarType argument (`ScalarType dtype=int`).
TEST(SchemaStrictness, DtypeDefaultsAsPyTorch113ReadsThem) {
  const opd::schema::parse_result r = opd::schema::parse("f(Tensor self, ScalarType? dtype=int32) -> Tensor");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.code, schema_error::invalid_numeric_default);
  EXPECT_EQ(r.column, 34u);
  EXPECT_TRUE(opd::schema::parse("f(Tensor self, ScalarType? dtype=float) -> Tensor"));
}

}  // namespace
