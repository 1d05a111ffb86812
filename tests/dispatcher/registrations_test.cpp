// Registrations made in one statement (opd::registrations(), c10's
// RegisterOperators().op(...).op(...)): two kernels for one operator and key
// in the same statement are refused and the statement leaves nothing behind;
// separate statements stack as before.
#include <algorithm>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include <dispatch/dispatcher/registrations.hpp>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::Stack;
using opd::Tensor;

struct one_op : opd::op<"t_regs::one(Tensor self) -> Tensor"> {};
struct two_op : opd::op<"t_regs::two(Tensor self) -> Tensor"> {};
Tensor first(const Tensor&) { return cpu_floats({1.f}); }
Tensor second(const Tensor&) { return cpu_floats({2.f}); }
float value(const Tensor& t) { return opd::to_vector<float>(t)[0]; }

struct silence_warnings {
  opd::WarningHandler saved = opd::Dispatcher::singleton().set_warning_handler([](std::string_view) {});
  ~silence_warnings() { opd::Dispatcher::singleton().set_warning_handler(saved); }
};

TEST(Registrations, OneStatementRegistersEveryKernelAndTheSetUndoesThem) {
  const Tensor x = cpu_floats({0.f});
  {
    opd::RegistrationSet set = opd::registrations()
                                   .kernel<one_op, &first>(DispatchKey::CPU)
                                   .kernel<two_op>(DispatchKey::CPU, [](const Tensor&) { return cpu_floats({3.f}); })
                                   .kernel<one_op, &second>(DispatchKey::Meta)
                                   .boxed_kernel<two_op>(DispatchKey::Meta, [](const opd::OperatorEntry&, DispatchKeySet,
                                                                               Stack*) {});
    EXPECT_EQ(set.size(), 4u);
    EXPECT_EQ(value(opd::call<one_op>(x)), 1.f);
    EXPECT_EQ(value(opd::call<two_op>(x)), 3.f);
  }
  EXPECT_FALSE(opd::entry_for<one_op>().has_kernel_for(DispatchKey::CPU));
  EXPECT_FALSE(opd::entry_for<two_op>().has_kernel_for(DispatchKey::Meta));
}

TEST(Registrations, TwoKernelsForOneKeyInOneStatementAreRefused) {
  std::string message;
  try {
    opd::RegistrationSet set = opd::registrations()
                                   .kernel<one_op, &first>(DispatchKey::CPU)
                                   .kernel<two_op, &first>(DispatchKey::CPU)
                                   .kernel<one_op, &second>(DispatchKey::CPU);
    ADD_FAILURE() << "registered";
  } catch (const opd::Error& e) {
    message = e.what();
  }
  // (Both places: g++ gives each call of the chain its own line, two apart
  // here; clang 14 gives each the line where the statement starts.)
  std::smatch m;
  ASSERT_TRUE(std::regex_match(message, m,
                               std::regex("in one registration statement: tried to register multiple kernels with the "
                                          "same dispatch key CPU for operator 't_regs::one' \\(at "
                                          "registrations_test\\.cpp:([0-9]+) and registrations_test\\.cpp:([0-9]+)\\)")))
      << message;
#if defined(__clang__)
  EXPECT_EQ(std::stoi(m[2]) - std::stoi(m[1]), 0) << message;
#else
  EXPECT_EQ(std::stoi(m[2]) - std::stoi(m[1]), 2) << message;
#endif
  // Nothing of the refused statement stays registered.
  EXPECT_FALSE(opd::entry_for<one_op>().has_kernel_for(DispatchKey::CPU));
  EXPECT_FALSE(opd::entry_for<two_op>().has_kernel_for(DispatchKey::CPU));
}

TEST(Registrations, SeparateStatementsStack) {
  silence_warnings quiet;
  const Tensor x = cpu_floats({0.f});
  opd::RegistrationSet a = opd::registrations().kernel<one_op, &first>(DispatchKey::CPU);
  opd::RegistrationSet b = opd::registrations().kernel<one_op, &second>(DispatchKey::CPU);
  EXPECT_EQ(opd::entry_for<one_op>().num_registered(DispatchKey::CPU), 2u);
  EXPECT_EQ(value(opd::call<one_op>(x)), 2.f);
  b = opd::RegistrationSet();
  EXPECT_EQ(value(opd::call<one_op>(x)), 1.f);
}

// A boxed kernel under a name with no schema: registered, listed as
// dangling (c10's findDanglingImpls), callable once a schema is declared.
TEST(Registrations, ABoxedKernelByNameWithoutASchemaIsListedAsDangling) {
  const int line = __LINE__ + 1;
  opd::RegistrationSet set = opd::registrations().boxed_kernel("t_regs::later", DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {});
  const std::string listed = "t_regs::later: CPU [registered at registrations_test.cpp:" + std::to_string(line) + "]";
  std::vector<std::string> dangling = opd::Dispatcher::singleton().dangling_registrations();
  EXPECT_NE(std::find(dangling.begin(), dangling.end(), listed), dangling.end());
  auto schema = opd::declare("t_regs::later(Tensor self) -> ()");
  dangling = opd::Dispatcher::singleton().dangling_registrations();
  EXPECT_EQ(std::find(dangling.begin(), dangling.end(), listed), dangling.end());
  Stack s{cpu_floats({1.f})};
  EXPECT_NO_THROW(opd::call_boxed("t_regs::later", s));
}

}  // namespace
