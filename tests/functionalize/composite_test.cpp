// opd::functionalize_composite<Op> on the tracing backend of examples/lazy_trace:
// a composite operator of our own whose kernel takes a view and mutates it
// runs on a backend that refuses views and in-place operators, with the
// values the CPU computes eagerly.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <functionalize/composite.hpp>

#include "lazy_trace/trace_backend.hpp"
#include "all_kernels.hpp"

namespace {

using opd::Tensor;
namespace ops = opd::kernels::ops;

// 2 * the diagonal of a copy of x, the rest of x unchanged: clone, view, mutate.
struct doubled_diagonal : opd::op<"t_fzc::doubled_diagonal(Tensor self) -> Tensor"> {};
Tensor doubled_diagonal_kernel(const Tensor& self) {
  Tensor y = opd::call<ops::clone>(self, std::nullopt);
  Tensor d = opd::call<ops::diagonal>(y, 0, 0, 1);
  opd::call<ops::mul_scalar::inplace>(d, 2.0);
  return y;
}

Tensor square(int64_t n) {
  std::vector<float> v(static_cast<std::size_t>(n * n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i) - 4.0f;
  return opd::from_vector<float>(v, {n, n});
}

TEST(FunctionalizeComposite, CompositeWithViewsAndMutationRunsOnABackendWithoutThem) {
  auto cpu = opd_test::register_all_kernels();
  lazy::Backend backend;  // kernels for the operators declared so far
  auto composite = opd::register_kernel<doubled_diagonal, &doubled_diagonal_kernel>(
      opd::DispatchKey::CompositeExplicitAutograd);
  const Tensor x_cpu = square(3);
  const Tensor expected = opd::call<doubled_diagonal>(x_cpu);

  // Without it, the composite kernel hands the backend a view: refused.
  {
    const Tensor x = lazy::Backend::instance()->input(x_cpu);
    EXPECT_THROW((void)opd::call<doubled_diagonal>(x), opd::NotImplementedError);
  }
  backend.clear();
  auto fk = opd::register_boxed_kernel<doubled_diagonal>(lazy::kKey, &opd::functionalize_composite<doubled_diagonal>);
  const Tensor x = lazy::Backend::instance()->input(x_cpu);
  const Tensor out = opd::call<doubled_diagonal>(x);
  ASSERT_NE(lazy::trace_impl(out), nullptr);
  EXPECT_EQ(opd::to_vector<float>(lazy::trace_impl(out)->cpu()), opd::to_vector<float>(expected));
  EXPECT_EQ(opd::to_vector<float>(lazy::trace_impl(x)->cpu()), opd::to_vector<float>(x_cpu));
  const std::vector<std::string> ops_seen = backend.ops();
  EXPECT_NE(std::find(ops_seen.begin(), ops_seen.end(), "aten::diagonal_scatter"), ops_seen.end());
  for (const std::string& name : ops_seen) {
    const auto& facts = opd::Dispatcher::singleton().find_schema_or_throw(name).alias_facts();
    EXPECT_FALSE(facts.is_view()) << name;
    EXPECT_TRUE(facts.written.empty()) << name;
  }
}

}  // namespace
