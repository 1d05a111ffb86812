// dispatch/schema/queries.hpp: PyTorch's view of an argument's alias
// annotation (c10::Argument::alias_info), is_out and is_mutable, at run time
// and at compile time.
#include <dispatch/schema.hpp>
#include <dispatch/schema/queries.hpp>
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

namespace {

using opd::schema::alias_info;
using opd::schema::top_level_alias;

std::string describe(const std::optional<alias_info>& a) {
  if (!a) return "none";
  std::string out = "{";
  // (Appended piece by piece: g++ 12's -Wrestrict misfires on "..." + std::string in Release builds.)
  for (std::size_t i = 0; i < a->before.count; ++i) {
    if (i != 0) out += '|';
    out += a->before.names[i];
  }
  out += " -> ";
  for (std::size_t i = 0; i < a->after.count; ++i) {
    if (i != 0) out += '|';
    out += a->after.names[i];
  }
  out += a->is_write ? " write}" : "}";
  return out;
}

std::string alias_of_first_argument(std::string_view text) {
  const opd::schema::parse_result r = opd::schema::parse(text);
  if (!r) return r.message();
  const auto& s = r.schema->value();
  return describe(top_level_alias(s, s.arguments.at(0)));
}

TEST(SchemaQueries, TopLevelAliasFollowsPyTorch) {
  EXPECT_EQ(alias_of_first_argument("f(Tensor x) -> ()"), "none");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a) x) -> ()"), "{a -> a}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a!) x) -> ()"), "{a -> a write}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a -> *) x) -> ()"), "{a -> *}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a!)? x) -> ()"), "{a -> a write}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a!)[] x) -> ()"), "{ ->  write}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a)[] x) -> ()"), "{ -> }");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a)?[] x) -> ()"), "{ -> }");
  EXPECT_EQ(alias_of_first_argument("f(Tensor[] x) -> ()"), "none");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a)[](b!) x) -> ()"), "{b -> b write}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a)[2] x) -> ()"), "none");
  EXPECT_EQ(alias_of_first_argument("f(Tensor[2](b) x) -> ()"), "{b -> b}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor(a|b) x) -> ()"), "{a|b -> a|b}");
  EXPECT_EQ(alias_of_first_argument("f(Tensor! x) -> ()"), "{ ->  write}");
}

TEST(SchemaQueries, IsOutAndIsMutable) {
  const opd::schema::parse_result r =
      opd::schema::parse("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  ASSERT_TRUE(r);
  const auto& s = r.schema->value();
  EXPECT_FALSE(opd::schema::is_out(s, s.arguments[0]));
  EXPECT_FALSE(opd::schema::is_out(s, s.arguments[2]));
  EXPECT_TRUE(opd::schema::is_out(s, s.arguments[3]));
  EXPECT_FALSE(opd::schema::is_out(s, s.returns[0]));  // not kwarg-only
  EXPECT_TRUE(opd::schema::is_write(s, s.returns[0]));
  EXPECT_TRUE(opd::schema::is_mutable(s));

  const opd::schema::parse_result inplace = opd::schema::parse("add_(Tensor(a!) self, Tensor other) -> Tensor(a!)");
  ASSERT_TRUE(inplace);
  EXPECT_FALSE(opd::schema::is_out(*inplace.schema.value(), inplace.schema.value()->arguments[0]));
  EXPECT_TRUE(opd::schema::is_mutable(*inplace.schema.value()));

  const opd::schema::parse_result view = opd::schema::parse("view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  ASSERT_TRUE(view);
  EXPECT_FALSE(opd::schema::is_mutable(*view.schema.value()));
}

// The same questions at compile time.
constexpr const auto& split_out =
    opd::schema::schema_of<"split_copy.Tensor_out(Tensor self, SymInt split_size, int dim=0, *, Tensor(a!)[] out) -> ()">();
static_assert(opd::schema::is_out(split_out, split_out.arguments[3]));
static_assert(!opd::schema::is_out(split_out, split_out.arguments[0]));
static_assert(opd::schema::is_mutable(split_out));
static_assert(opd::schema::top_level_alias(split_out, split_out.arguments[3])->before.count == 0);
static_assert(opd::schema::top_level_alias(split_out, split_out.arguments[3])->is_write);
static_assert(!opd::schema::top_level_alias(split_out, split_out.arguments[1]).has_value());

}  // namespace
