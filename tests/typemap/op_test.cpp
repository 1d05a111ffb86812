// opd::op: the operator declaration struct.
#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dispatch/op.hpp"

namespace {

struct my_add : opd::op<"myops::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};
struct my_relu_ : opd::op<"myops::relu_(Tensor(a!) self) -> Tensor(a!)"> {};
struct no_namespace : opd::op<"sum(int[] values) -> int"> {};

static_assert(my_add::name == "myops::add");
static_assert(my_add::overload_name == "Tensor");
static_assert(my_add::schema_str == "myops::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
static_assert(my_add::schema.ns == "myops");
static_assert(my_add::schema.arguments.size() == 3);
static_assert(my_add::schema.arguments[2].kwarg_only);
static_assert(my_relu_::name == "myops::relu_");
static_assert(my_relu_::overload_name.empty());
static_assert(no_namespace::name == "sum");

static_assert(std::is_same_v<my_add::signature, opd::Tensor(const opd::Tensor&, const opd::Tensor&, const opd::Scalar&)>);
static_assert(std::is_same_v<my_add::return_type, opd::Tensor>);
static_assert(std::is_same_v<my_relu_::signature, opd::Tensor&(opd::Tensor&)>);
static_assert(std::is_same_v<no_namespace::signature, std::int64_t(std::span<const std::int64_t>)>);

// The derived struct and opd::op<S> itself name the same signature.
static_assert(std::is_same_v<my_add::signature, opd::schema::kernel_signature_t<my_add>>);
static_assert(std::is_same_v<opd::schema::kernel_signature_t<my_add>,
                             opd::schema::kernel_signature_t<opd::op<"myops::add.Tensor(Tensor self, Tensor other, *, "
                                                                     "Scalar alpha=1) -> Tensor">>>);

// The schema can be tested without failing to compile.
static_assert(opd::schema::is_valid_schema<"myops::add(Tensor a) -> Tensor">);
static_assert(!opd::schema::is_valid_schema<"myops::add(Tensor a) -> Tensor)">);

std::int64_t sum_kernel(std::span<const std::int64_t> values) {
  std::int64_t s = 0;
  for (std::int64_t v : values) s += v;
  return s;
}

TEST(Op, SignatureIsAFunctionPointerType) {
  no_namespace::signature* kernel = &sum_kernel;
  const std::vector<std::int64_t> values{1, 2, 3, 4};
  EXPECT_EQ(kernel(values), 10);
  EXPECT_EQ(std::string_view(my_add::schema.name), "add");
  EXPECT_EQ(my_add::schema.arguments[1].name, "other");
}

}  // namespace
