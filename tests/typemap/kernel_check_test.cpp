// check_kernel / kernel_matches_v: every accepted callable form, the leading
// DispatchKeySet, the strictness rules, and a few kernels called through the
// exact signature type (as the dispatcher will call them).
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "dispatch/core/tensor.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"
#include "dispatch/op.hpp"
#include "dispatch/schema/kernel_signature.hpp"

namespace {

using namespace opd;
using opd::schema::check_kernel;
using opd::schema::kernel_matches_v;
using opd::schema::takes_dispatch_key_set_v;

struct my_add : op<"myops::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};
struct my_add_ : op<"myops::add_(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"> {};
struct my_minmax : op<"myops::minmax(Tensor self) -> (Tensor min, Tensor max)"> {};
struct my_fill_ : op<"myops::fill_(Tensor(a!) self, float value) -> ()"> {};
struct my_sum : op<"myops::sum(Tensor[] tensors, int[] dims, bool[2] flags) -> Tensor"> {};
struct my_opt : op<"myops::opt(Tensor? bias, int? dim, str? mode) -> int"> {};

// ---- kernels ------------------------------------------------------------------

float item(const Tensor& t) { return to_vector<float>(t)[0]; }

Tensor add_fn(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  const auto a = to_vector<float>(self);
  const auto b = to_vector<float>(other);
  std::vector<float> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i] + static_cast<float>(alpha.to_double()) * b[i];
  return from_vector(out);
}
using add_noexcept = Tensor(const Tensor&, const Tensor&, const Scalar&) noexcept;
Tensor add_with_keys(DispatchKeySet, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_fn(self, other, alpha);
}

Tensor& add_inplace(Tensor& self, const Tensor& other, const Scalar& alpha) {
  float* p = self.data_ptr<float>();
  const auto b = to_vector<float>(other);
  for (std::size_t i = 0; i < b.size(); ++i) p[i] += static_cast<float>(alpha.to_double()) * b[i];
  return self;
}

struct add_functor {
  Tensor operator()(const Tensor& self, const Tensor& other, const Scalar& alpha) const {
    return add_fn(self, other, alpha);
  }
};
struct add_functor_mutable {
  int calls = 0;
  Tensor operator()(const Tensor& self, const Tensor& other, const Scalar& alpha) {
    ++calls;
    return add_fn(self, other, alpha);
  }
};
struct add_functor_qualified {
  Tensor operator()(const Tensor&, const Tensor&, const Scalar&) const& noexcept { return Tensor(); }
};

constexpr auto add_lambda = [](const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_fn(self, other, alpha);
};
constexpr auto add_lambda_with_keys = [](DispatchKeySet, const Tensor& self, const Tensor& other,
                                         const Scalar& alpha) -> Tensor { return add_fn(self, other, alpha); };
constexpr auto generic_lambda = [](const auto&...) { return Tensor(); };

std::tuple<Tensor, Tensor> minmax_fn(const Tensor& self) { return {self, self}; }
void fill_fn(Tensor& self, double value) {
  float* p = self.data_ptr<float>();
  for (std::int64_t i = 0; i < self.numel(); ++i) p[i] = static_cast<float>(value);
}
Tensor sum_fn(std::span<const Tensor> tensors, std::span<const std::int64_t> dims, std::array<bool, 2> flags) {
  float s = 0;
  for (const Tensor& t : tensors) s += item(t);
  s += static_cast<float>(dims.size());
  if (flags[1]) s = -s;
  return from_vector(std::vector<float>{s});
}
std::int64_t opt_fn(const std::optional<Tensor>& bias, std::optional<std::int64_t> dim,
                    std::optional<std::string_view> mode) {
  return (bias ? 100 : 0) + dim.value_or(-1) + (mode ? static_cast<std::int64_t>(mode->size()) * 10 : 0);
}

// ---- every accepted callable form ----------------------------------------------

static_assert(check_kernel<my_add, decltype(add_fn)>());               // function type
static_assert(check_kernel<my_add, decltype(&add_fn)>());              // function pointer
static_assert(check_kernel<my_add, decltype(add_fn)&>());              // function reference
static_assert(check_kernel<my_add, add_noexcept>());                   // noexcept function type
static_assert(check_kernel<my_add, add_noexcept*>());                  // noexcept function pointer
static_assert(check_kernel<my_add, add_functor>());                    // functor, const operator()
static_assert(check_kernel<my_add, add_functor_mutable>());            // functor, non-const operator()
static_assert(check_kernel<my_add, add_functor_qualified>());          // const& noexcept operator()
static_assert(check_kernel<my_add, decltype(add_lambda)>());           // lambda
static_assert(check_kernel<my_add, const add_functor&>());             // cv-ref-qualified class type
static_assert(check_kernel<my_add, std::function<my_add::signature>>());  // std::function
static_assert(check_kernel<my_add>(add_fn));                           // the object forms
static_assert(check_kernel<my_add>(&add_fn));
static_assert(check_kernel<my_add>(add_lambda));
static_assert(check_kernel<my_add>(add_functor{}));

// A leading DispatchKeySet (by value) is not part of the schema.
static_assert(check_kernel<my_add, decltype(add_with_keys)>());
static_assert(check_kernel<my_add, decltype(add_lambda_with_keys)>());
static_assert(takes_dispatch_key_set_v<decltype(add_with_keys)>);
static_assert(takes_dispatch_key_set_v<decltype(add_lambda_with_keys)>);
static_assert(!takes_dispatch_key_set_v<decltype(add_fn)>);
static_assert(!takes_dispatch_key_set_v<decltype(generic_lambda)>);
static_assert(!takes_dispatch_key_set_v<Tensor()>);
static_assert(takes_dispatch_key_set_v<Tensor (*)(DispatchKeySet)>);

struct my_make : op<"myops::make() -> Tensor"> {};
static_assert(check_kernel<my_make, Tensor()>());
static_assert(check_kernel<my_make, Tensor(DispatchKeySet)>());
static_assert(!kernel_matches_v<my_make, Tensor(const DispatchKeySet&)>);

static_assert(check_kernel<my_add_, decltype(add_inplace)>());
static_assert(check_kernel<my_minmax, decltype(minmax_fn)>());
static_assert(check_kernel<my_fill_, decltype(fill_fn)>());
static_assert(check_kernel<my_sum, decltype(sum_fn)>());
static_assert(check_kernel<my_opt, decltype(opt_fn)>());

// ---- what is rejected (kernel_matches_v says so without a compile error) -------

static_assert(kernel_matches_v<my_add, decltype(add_fn)>);
static_assert(kernel_matches_v<my_add, decltype(add_lambda_with_keys)>);
static_assert(!kernel_matches_v<my_add, decltype(generic_lambda)>);
static_assert(!kernel_matches_v<my_add, int>);
static_assert(!kernel_matches_v<my_add, Tensor (add_functor::*)(const Tensor&, const Tensor&, const Scalar&) const>);
struct add_functor_rvalue {
  Tensor operator()(const Tensor&, const Tensor&, const Scalar&) &&;  // not callable on the stored kernel
};
static_assert(!kernel_matches_v<my_add, add_functor_rvalue>);
// Exact types only, but for c10's accepted forms (a Tensor by value:
// tests/dispatcher/kernel_forms_test.cpp); a cheap type by const& is rejected.
static_assert(kernel_matches_v<my_add, Tensor (*)(Tensor, const Tensor&, const Scalar&)>);
static_assert(!kernel_matches_v<my_add, Tensor (*)(const Tensor&, const Tensor&, Scalar&)>);
static_assert(!kernel_matches_v<my_add, Tensor (*)(const Tensor&, const Tensor&, Scalar)>);
static_assert(!kernel_matches_v<my_opt, std::int64_t (*)(const std::optional<Tensor>&, const std::optional<std::int64_t>&,
                                                         std::optional<std::string_view>)>);
// A written tensor must be Tensor&, and returned as Tensor&.
static_assert(!kernel_matches_v<my_add_, Tensor& (*)(const Tensor&, const Tensor&, const Scalar&)>);
static_assert(!kernel_matches_v<my_add_, Tensor (*)(Tensor&, const Tensor&, const Scalar&)>);
// Arity, return type, and a DispatchKeySet anywhere but first.
static_assert(!kernel_matches_v<my_add, Tensor (*)(const Tensor&, const Tensor&)>);
static_assert(!kernel_matches_v<my_add, void (*)(const Tensor&, const Tensor&, const Scalar&)>);
static_assert(!kernel_matches_v<my_add, Tensor (*)(const Tensor&, DispatchKeySet, const Tensor&, const Scalar&)>);
static_assert(!kernel_matches_v<my_add, Tensor (*)(const DispatchKeySet&, const Tensor&, const Tensor&, const Scalar&)>);
// Lists: std::span<const T> exactly (not std::vector, not a mutable span).
static_assert(!kernel_matches_v<my_sum, Tensor (*)(const std::vector<Tensor>&, std::span<const std::int64_t>,
                                                   std::array<bool, 2>)>);
static_assert(!kernel_matches_v<my_sum, Tensor (*)(std::span<Tensor>, std::span<const std::int64_t>,
                                                   std::array<bool, 2>)>);

// ---- called through the exact signature ---------------------------------------

TEST(KernelCheck, FunctionThroughSignaturePointer) {
  my_add::signature* kernel = &add_fn;
  const Tensor r = kernel(from_vector(std::vector<float>{1, 2}), from_vector(std::vector<float>{10, 20}), Scalar(2));
  EXPECT_EQ(to_vector<float>(r), (std::vector<float>{21, 42}));
}

TEST(KernelCheck, LambdaAndFunctor) {
  const Tensor a = from_vector(std::vector<float>{1});
  const Tensor b = from_vector(std::vector<float>{2});
  my_add::signature* from_lambda = add_lambda;  // captureless: converts to the function pointer
  EXPECT_EQ(item(from_lambda(a, b, Scalar(1))), 3.0f);

  add_functor_mutable f;
  std::function<my_add::signature> wrapped = std::ref(f);
  EXPECT_EQ(item(wrapped(a, b, Scalar(3))), 7.0f);
  EXPECT_EQ(f.calls, 1);
}

TEST(KernelCheck, MutableTensorIsWrittenAndReturnedByReference) {
  Tensor self = from_vector(std::vector<float>{1, 1});
  my_add_::signature* kernel = &add_inplace;
  Tensor& out = kernel(self, from_vector(std::vector<float>{1, 2}), Scalar(1));
  EXPECT_EQ(&out, &self);
  EXPECT_EQ(to_vector<float>(self), (std::vector<float>{2, 3}));

  my_fill_::signature* fill = &fill_fn;
  fill(self, 5.0);
  EXPECT_EQ(to_vector<float>(self), (std::vector<float>{5, 5}));
}

TEST(KernelCheck, DispatchKeySetIsPassedFirst) {
  Tensor (*kernel)(DispatchKeySet, const Tensor&, const Tensor&, const Scalar&) = &add_with_keys;
  const Tensor r = kernel(DispatchKeySet(), from_vector(std::vector<float>{1}), from_vector(std::vector<float>{1}),
                          Scalar(1));
  EXPECT_EQ(item(r), 2.0f);
}

TEST(KernelCheck, ListsAndOptionals) {
  const std::vector<Tensor> tensors{from_vector(std::vector<float>{1}), from_vector(std::vector<float>{2})};
  const std::vector<std::int64_t> dims{0, 1, 2};
  my_sum::signature* sum = &sum_fn;
  EXPECT_EQ(item(sum(tensors, dims, {false, false})), 6.0f);
  EXPECT_EQ(item(sum(tensors, dims, {false, true})), -6.0f);

  my_opt::signature* opt = &opt_fn;
  EXPECT_EQ(opt(std::nullopt, std::nullopt, std::nullopt), -1);
  EXPECT_EQ(opt(tensors[0], 2, "abc"), 132);

  my_minmax::signature* minmax = &minmax_fn;
  auto [lo, hi] = minmax(tensors[1]);
  EXPECT_TRUE(lo.is_same(tensors[1]));
  EXPECT_TRUE(hi.is_same(tensors[1]));
}

}  // namespace
