// Every accepted kernel form: function, function pointer, function reference,
// noexcept function, lambda, mutable lambda, functor, std::function, and each
// with a leading DispatchKeySet.
#include <functional>

#include <dispatch/op.hpp>

struct my_add : opd::op<"myops::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};

using opd::DispatchKeySet;
using opd::Scalar;
using opd::Tensor;

Tensor add_fn(const Tensor& self, const Tensor&, const Scalar&) { return self; }
Tensor add_noexcept(const Tensor& self, const Tensor&, const Scalar&) noexcept { return self; }
Tensor add_keys(DispatchKeySet, const Tensor& self, const Tensor&, const Scalar&) { return self; }

struct add_functor {
  Tensor operator()(const Tensor& self, const Tensor&, const Scalar&) const { return self; }
};
struct add_functor_keys {
  Tensor operator()(DispatchKeySet, const Tensor& self, const Tensor&, const Scalar&) { return self; }
};

constexpr auto add_lambda = [](const Tensor& self, const Tensor&, const Scalar&) { return self; };
constexpr auto add_lambda_keys = [](DispatchKeySet, const Tensor& self, const Tensor&, const Scalar&) {
  return self;
};

static_assert(opd::schema::check_kernel<my_add, decltype(add_fn)>());
static_assert(opd::schema::check_kernel<my_add, decltype(&add_fn)>());
static_assert(opd::schema::check_kernel<my_add, decltype(add_fn)&>());
static_assert(opd::schema::check_kernel<my_add, decltype(add_noexcept)>());
static_assert(opd::schema::check_kernel<my_add, decltype(&add_keys)>());
static_assert(opd::schema::check_kernel<my_add, add_functor>());
static_assert(opd::schema::check_kernel<my_add, add_functor_keys>());
static_assert(opd::schema::check_kernel<my_add, decltype(add_lambda)>());
static_assert(opd::schema::check_kernel<my_add, decltype(add_lambda_keys)>());
static_assert(opd::schema::check_kernel<my_add, std::function<my_add::signature>>());
static_assert(opd::schema::check_kernel<my_add>(add_fn));
static_assert(opd::schema::check_kernel<my_add>(add_lambda));
static_assert(opd::schema::check_kernel<my_add>(add_functor{}));

int main() {
  // In a function too, on local kernels.
  auto local = [](const Tensor& self, const Tensor&, const Scalar&) { return self; };
  static_assert(opd::schema::check_kernel<my_add>(local));
  auto counting = [n = 0](const Tensor& self, const Tensor&, const Scalar&) mutable {
    ++n;
    return self;
  };
  static_assert(opd::schema::check_kernel<my_add, decltype(counting)>());  // non-const operator()
  counting(Tensor(), Tensor(), Scalar(1));
  my_add::signature* fp = local;
  return fp == nullptr;
}
