// Kernel errors name their operator: an opd::Error leaving a kernel through
// any dispatcher call (typed, boxed by type, entry or name, typed to a boxed
// kernel, to a fallback) reads "ns::op.overload: <the kernel's text>", keeps
// its type, and names the innermost operator once when a composite kernel
// calls another operator.
#include <stdexcept>
#include <string>

#include "test_support.hpp"
#include "all_kernels.hpp"
#include "error_of.hpp"

namespace {

using namespace opd_test;
using opd::Tensor;

struct throws_type : opd::op<"t_kernel_errors::throws_type(Tensor self) -> Tensor"> {};
Tensor throws_type_kernel(const Tensor& self) {
  OPD_CHECK_TYPE(self.dtype() == opd::ScalarType::Long, "expected scalar type Long but found ", self.dtype());
  return self;
}

template <class E>
std::string caught_as(auto&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (...) {
    return "<another type>";
  }
  return "<no error>";
}

TEST(KernelErrors, TypedAndBoxedCallsNameTheOperatorAndKeepTheType) {
  auto h = opd::register_kernel<throws_type, &throws_type_kernel>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  const std::string want = "t_kernel_errors::throws_type: expected scalar type Long but found Float";
  EXPECT_EQ(caught_as<opd::TypeError>([&] { (void)opd::call<throws_type>(x); }), want);
  opd::Stack stack{x};
  EXPECT_EQ(caught_as<opd::TypeError>([&] { opd::call_boxed<throws_type>(stack); }), want);
  stack = {x};
  EXPECT_EQ(caught_as<opd::TypeError>([&] { opd::call_boxed("t_kernel_errors::throws_type", stack); }), want);
  stack = {x};
  EXPECT_EQ(caught_as<opd::TypeError>([&] { opd::call_boxed(opd::entry_for<throws_type>(), stack); }), want);
  try {
    (void)opd::call<throws_type>(x);
  } catch (const opd::Error& e) {
    EXPECT_EQ(e.operator_name(), "t_kernel_errors::throws_type");
  }
}

// A boxed kernel reached from a typed call, and a typed call handed to a fallback.
void boxed_throwing(const opd::OperatorEntry&, DispatchKeySet, opd::Stack*) {
  throw opd::ValueError("boxed kernel refuses");
}
struct to_boxed : opd::op<"t_kernel_errors::to_boxed(Tensor self) -> Tensor"> {};
TEST(KernelErrors, TypedCallToABoxedKernelAndToAFallback) {
  auto h = opd::register_boxed_kernel<to_boxed>(DispatchKey::CPU, &boxed_throwing);
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(caught_as<opd::ValueError>([&] { (void)opd::call<to_boxed>(x); }),
            "t_kernel_errors::to_boxed: boxed kernel refuses");
  EXPECT_EQ(caught_as<opd::ValueError>([&] { (void)opd::call_fallback<&boxed_throwing, to_boxed>(x); }),
            "t_kernel_errors::to_boxed: boxed kernel refuses");
}

// A composite kernel that calls another operator: the innermost operator is
// named, once; the outer call leaves the error as it is.
struct inner : opd::op<"t_kernel_errors::inner(Tensor self) -> Tensor"> {};
struct outer : opd::op<"t_kernel_errors::outer.overload(Tensor self) -> Tensor"> {};
Tensor inner_kernel(const Tensor&) { OPD_FAIL("inner failed"); }
Tensor outer_kernel(const Tensor& self) { return opd::call<inner>(self); }
Tensor outer_own_error(const Tensor&) { OPD_FAIL("outer failed"); }

TEST(KernelErrors, ACompositeNamesTheInnermostOperatorOnce) {
  auto a = opd::register_kernel<inner, &inner_kernel>(DispatchKey::CPU);
  auto b = opd::register_kernel<outer, &outer_kernel>(DispatchKey::CompositeImplicitAutograd);
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(error_of([&] { (void)opd::call<outer>(x); }), "t_kernel_errors::inner: inner failed");
  opd::Stack stack{x};
  EXPECT_EQ(error_of([&] { opd::call_boxed("t_kernel_errors::outer.overload", stack); }),
            "t_kernel_errors::inner: inner failed");
}

TEST(KernelErrors, TheFullNameWithOverloadAndNoSecondPrefix) {
  auto b = opd::register_kernel<outer, &outer_own_error>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(error_of([&] { (void)opd::call<outer>(x); }), "t_kernel_errors::outer.overload: outer failed");
}

// A text that already starts with the operator's name keeps it as it is.
struct named : opd::op<"t_kernel_errors::named.Tensor(Tensor self) -> Tensor"> {};
Tensor named_in_full(const Tensor&) { OPD_FAIL("t_kernel_errors::named.Tensor: output with shape [1]"); }
Tensor named_short(const Tensor&) { OPD_FAIL("named(): expected something"); }
TEST(KernelErrors, ATextThatNamesItsOperatorIsNotPrefixedAgain) {
  const Tensor x = cpu_floats({1.f});
  {
    auto h = opd::register_kernel<named, &named_in_full>(DispatchKey::CPU);
    EXPECT_EQ(error_of([&] { (void)opd::call<named>(x); }), "t_kernel_errors::named.Tensor: output with shape [1]");
  }
  auto h = opd::register_kernel<named, &named_short>(DispatchKey::CPU);
  EXPECT_EQ(error_of([&] { (void)opd::call<named>(x); }), "named(): expected something");
}

// What is not an opd::Error passes unchanged; the dispatcher's own errors
// (no kernel for the key) are not kernel errors and are not prefixed.
struct throws_std : opd::op<"t_kernel_errors::throws_std(Tensor self) -> Tensor"> {};
Tensor throws_std_kernel(const Tensor&) { throw std::out_of_range("plain"); }
TEST(KernelErrors, OtherExceptionsAndDispatcherErrorsAreUnchanged) {
  const Tensor x = cpu_floats({1.f});
  const std::string no_kernel = error_of([&] { (void)opd::call<throws_std>(x); });
  EXPECT_EQ(no_kernel.rfind("operator 't_kernel_errors::throws_std' has no kernel", 0), 0u) << no_kernel;
  // The same from inside a composite kernel: the inner operator is named.
  auto outer_calls = opd::register_kernel<outer>(DispatchKey::CompositeImplicitAutograd,
                                                 [](const Tensor& t) { return opd::call<throws_std>(t); });
  try {
    (void)opd::call<outer>(x);
    ADD_FAILURE() << "no error";
  } catch (const opd::NotImplementedError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("operator 't_kernel_errors::throws_std' has no kernel", 0), 0u) << e.what();
    EXPECT_EQ(e.operator_name(), "t_kernel_errors::throws_std");
  }
  auto h = opd::register_kernel<throws_std, &throws_std_kernel>(DispatchKey::CPU);
  EXPECT_EQ(caught_as<std::out_of_range>([&] { (void)opd::call<throws_std>(x); }), "plain");
}

// The case, with the library's own kernel: aten::mm of Float and Long.
TEST(KernelErrors, AtenMmNamesItself) {
  auto kernels = register_all_kernels();
  opd::Stack stack{opd::from_vector<float>({1.f, 2.f, 3.f, 4.f}, std::vector<int64_t>{2, 2}),
                   opd::from_vector<int64_t>({1, 2, 3, 4}, std::vector<int64_t>{2, 2})};
  EXPECT_EQ(caught_as<opd::Error>([&] { opd::call_boxed("aten::mm", stack); }),
            "aten::mm: expected scalar type Float but found Long");
}

}  // namespace
