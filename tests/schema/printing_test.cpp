// Printing: the canonical form is one line with normalised whitespace, and
// reading it back gives the same schema. Default values keep their spelling,
// so a string default must come back with the same characters.
#include <dispatch/schema.hpp>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace {

std::string printed(std::string_view text) {
  const opd::schema::parse_result r = opd::schema::parse(text);
  return r ? opd::schema::to_string(r.schema->value()) : "error: " + r.message();
}

TEST(SchemaPrinting, NormalisesWhitespaceAndDropsComments) {
  EXPECT_EQ(printed("  aten::add.Tensor( Tensor self ,Tensor other,*,Scalar alpha = 1 )->Tensor  "),
            "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  EXPECT_EQ(printed("f(Tensor x,  # the input\n  int[2] y=[1,\n 2]) -> (Tensor a, Tensor b)  # done"),
            "f(Tensor x, int[2] y=[1, 2]) -> (Tensor a, Tensor b)");
  EXPECT_EQ(printed("f(Tensor!? x, Tensor(a -> *) y, Tensor(a|b)[] z) -> Tensor(a)[]"),
            "f(Tensor!? x, Tensor(a -> *) y, Tensor(a|b)[] z) -> Tensor(a)[]");
  EXPECT_EQ(printed("f(...) -> ..."), "f(...) -> ...");
  EXPECT_EQ(printed("f(Tensor x) -> ()"), "f(Tensor x) -> ()");
  EXPECT_EQ(printed("f(Tensor x) -> (Tensor)"), "f(Tensor x) -> (Tensor)");
}

TEST(SchemaPrinting, KeepsDefaultSpellings) {
  // torchgen tells "[0,1]" from "[0, 1]", and 1e-05 from 0.00001.
  EXPECT_EQ(printed("f(int[] a=[0,1], int[] b=[0, 1], float c=0.00001, float d=1e-05) -> ()"),
            "f(int[] a=[0,1], int[] b=[0, 1], float c=0.00001, float d=1e-05) -> ()");
  EXPECT_EQ(printed("f(str a='x', str b=\"y\", str c='it\\'s') -> ()"), "f(str a='x', str b=\"y\", str c='it\\'s') -> ()");
}

// Known gap (reported to the lead): the printer squeezes every run of
// whitespace in a default's text into one space, also inside a string
// literal, which changes the value.
TEST(SchemaPrinting, StringDefaultKeepsItsWhitespace) {
  EXPECT_EQ(printed("f(str x='a  b') -> ()"), "f(str x='a  b') -> ()");
  // A line break inside a string literal: either the parser rejects it, or
  // the printed form reads back as the same string.
  const opd::schema::parse_result r = opd::schema::parse("f(str x='a\n b') -> ()");
  if (r) {
    const opd::schema::parse_result again = opd::schema::parse(opd::schema::to_string(r.schema->value()));
    ASSERT_TRUE(again);
    EXPECT_EQ(again.schema.value()->arguments[0].def.text, std::string_view("'a\n b'"));
  }
}

// Known gap (reported to the lead): a comment inside a list default written
// over several lines is kept in the default's text; printed on one line, the
// comment swallows the rest of the schema.
TEST(SchemaPrinting, CommentInsideAListDefaultDoesNotLeakIntoThePrintedForm) {
  const std::string p = printed("f(int[] x=[1, # one\n 2]) -> Tensor");
  EXPECT_EQ(p.find('#'), std::string::npos) << p;
  EXPECT_TRUE(opd::schema::parse(p)) << p;
}

}  // namespace
