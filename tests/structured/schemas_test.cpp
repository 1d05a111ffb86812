// The schemas a structured family derives from its out= schema, at compile
// time: texts, overload-name rules, the in-place variant's presence, and that
// the three variants form one torchgen family.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include <dispatch/schema/variants.hpp>
#include <structured/structured.hpp>

#include "toy_ops.hpp"

namespace {

using opd::schema::family_key_of;

struct mul_family : opd::structured<"mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {};
static_assert(mul_family::out::schema_str == "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
static_assert(mul_family::functional::schema_str == "mul.Tensor(Tensor self, Tensor other) -> Tensor");
static_assert(mul_family::inplace::schema_str == "mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
static_assert(mul_family::has_inplace);
static_assert(mul_family::functional::name == "mul" && mul_family::functional::overload_name == "Tensor");
static_assert(mul_family::inplace::name == "mul_" && mul_family::inplace::overload_name == "Tensor");

// Default overload names: "out" -> "", kwargs with defaults kept.
struct add_family
    : opd::structured<"add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)"> {};
static_assert(add_family::functional::schema_str == "add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
static_assert(add_family::inplace::schema_str ==
              "add_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");

// "<X>_out" -> "<X>"; namespaces, lists and optionals survive.
struct sum_family : opd::structured<"myops::sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, "
                                    "ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)"> {};
static_assert(sum_family::functional::schema_str ==
              "myops::sum.IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor");
static_assert(sum_family::inplace::schema_str ==
              "myops::sum_.IntList(Tensor(a!) self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> "
              "Tensor(a!)");

// An explicit empty overload name.
struct pow_family
    : opd::structured<"pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)", ""> {};
static_assert(pow_family::functional::schema_str == "pow(Tensor self, Scalar exponent) -> Tensor");

// No leading `Tensor self`: no in-place variant.
struct cat_family : opd::structured<"cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)"> {};
static_assert(cat_family::functional::schema_str == "cat(Tensor[] tensors, int dim=0) -> Tensor");
static_assert(!cat_family::has_inplace);
static_assert(!toy::toy_outer::has_inplace);

// The three variants are one family for torchgen, and torchgen derives the
// out= schema back from the functional one when the overload is the default.
template <class A, class B>
constexpr bool same_family = family_key_of<A>::text.view() == family_key_of<B>::text.view();
static_assert(same_family<mul_family::functional, mul_family::out>);
static_assert(same_family<mul_family::inplace, mul_family::out>);
static_assert(same_family<add_family::functional, add_family::out>);
static_assert(same_family<add_family::inplace, add_family::out>);
static_assert(same_family<sum_family::inplace, sum_family::out>);
static_assert(opd::schema::out_variant_of<add_family::functional>::text.view() == add_family::out::schema_str);
static_assert(opd::schema::out_variant_of<add_family::inplace>::text.view() == add_family::out::schema_str);
static_assert(opd::schema::kind_of(mul_family::inplace::schema) == opd::schema::schema_kind::inplace);
static_assert(opd::schema::kind_of(mul_family::functional::schema) == opd::schema::schema_kind::functional);

// The kernel types the family's meta() and impl() are written against.
static_assert(std::is_same_v<opd::schema::arg_types_t<add_family::functional>,
                             boost::mp11::mp_list<const opd::Tensor&, const opd::Tensor&, const opd::Scalar&>>);
static_assert(std::is_same_v<opd::schema::arg_types_t<add_family::inplace>,
                             boost::mp11::mp_list<opd::Tensor&, const opd::Tensor&, const opd::Scalar&>>);
static_assert(std::is_same_v<opd::schema::return_type_t<add_family::inplace>, opd::Tensor&>);

// PyTorch's canCast.
using opd::structured_detail::can_cast;
static_assert(can_cast(opd::ScalarType::Long, opd::ScalarType::Float));
static_assert(can_cast(opd::ScalarType::Double, opd::ScalarType::Float));
static_assert(can_cast(opd::ScalarType::Bool, opd::ScalarType::Long));
static_assert(can_cast(opd::ScalarType::Float, opd::ScalarType::ComplexFloat));
static_assert(!can_cast(opd::ScalarType::Float, opd::ScalarType::Long));
static_assert(!can_cast(opd::ScalarType::Long, opd::ScalarType::Bool));
static_assert(!can_cast(opd::ScalarType::Float, opd::ScalarType::Bool));
static_assert(!can_cast(opd::ScalarType::ComplexFloat, opd::ScalarType::Double));

TEST(StructuredSchemas, DerivedSchemasParseAtRunTimeToTheSameText) {
  // What the Dispatcher declares for each variant is what was derived.
  for (std::string_view text : {mul_family::functional::schema_str, mul_family::inplace::schema_str,
                                sum_family::functional::schema_str, sum_family::inplace::schema_str})
    EXPECT_EQ(opd::schema::to_string(*opd::schema::parse_or_throw(text)), text);
  EXPECT_EQ(opd::schema::functional_variant_text(*opd::schema::parse_or_throw(mul_family::out::schema_str)),
            "mul.out(Tensor self, Tensor other) -> Tensor");  // torchgen keeps the overload; the family renames it
}

TEST(StructuredSchemas, VariantsAreDeclaredWithTheDispatcher) {
  EXPECT_EQ(opd::entry_for<toy::toy_mul::functional>().name(), "toy::mul.Tensor");
  EXPECT_EQ(opd::entry_for<toy::toy_mul::inplace>().name(), "toy::mul_.Tensor");
  EXPECT_EQ(opd::entry_for<toy::toy_mul::out>().name(), "toy::mul.out");
  EXPECT_EQ(opd::schema::to_string(opd::entry_for<toy::toy_mul::inplace>().schema().value()),
            "toy::mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)");
}

}  // namespace
