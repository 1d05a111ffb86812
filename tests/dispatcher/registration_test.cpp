// Registration: errors for missing kernels, duplicate kernels (stacked, as
// in c10, or refused on request), schemas declared at
// run time (and their conflicts with compile-time ones), and RAII handles
// that remove exactly what they registered.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "dispatch/dispatcher/suggest.hpp"
#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Stack;
using opd::Tensor;

// ------------------------------------------------------------- no kernel --

struct err_op : opd::op<"t_reg_err::op(Tensor self) -> Tensor"> {};
struct err_empty : opd::op<"t_reg_err::empty(Tensor self) -> Tensor"> {};

TEST(DispatcherErrors, NoKernelNamesOperatorKeyAndTheKeysWithKernels) {
  auto h1 = opd::register_kernel<err_op>(DispatchKey::CPU, [](const Tensor& t) -> Tensor { return t; });
  auto h2 = opd::register_kernel<err_op>(DispatchKey::AutogradCPU, [](const Tensor& t) -> Tensor { return t; });
  auto h3 = opd::register_fallthrough<err_op>(DispatchKey::Tracer);  // a fallthrough is not listed as a kernel
  const std::string expected =
      "operator 't_reg_err::op' has no kernel for dispatch key CUDA (dispatch key set " +
      DispatchKeySet(DispatchKey::CUDA).str() + "); it has kernels for: CPU, AutogradCPU";
  const Tensor cuda = tensor_with_keys(DispatchKey::CUDA);
  EXPECT_EQ(message_of([&] { opd::call<err_op>(cuda); }), expected);
  EXPECT_THROW(opd::call<err_op>(cuda), opd::NotImplementedError);
  Stack s{cuda};
  EXPECT_EQ(message_of([&] { opd::call_boxed<err_op>(s); }), expected);
  // The key named is the highest one the call reached.
  const std::string msg = message_of([] {
    opd::call<err_op>(tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::CPU}));
  });
  EXPECT_NE(msg.find("no kernel for dispatch key PrivateUse1"), std::string::npos) << msg;
}

TEST(DispatcherErrors, NoKernelAtAllSaysNone) {
  const std::string msg = message_of([] { opd::call<err_empty>(cpu_floats({1.f})); });
  EXPECT_NE(msg.find("operator 't_reg_err::empty' has no kernel for dispatch key CPU"), std::string::npos) << msg;
  EXPECT_NE(msg.find("it has kernels for: (none)"), std::string::npos) << msg;
}

TEST(DispatcherErrors, KernelForTheWrongBackendCannotBeCalled) {
  auto h = opd::register_kernel<err_op>(DispatchKey::CPU, [](const Tensor& t) -> Tensor { return t; });
  EXPECT_NO_THROW(opd::call<err_op>(cpu_floats({1.f})));
  for (DispatchKey k : {DispatchKey::CUDA, DispatchKey::Meta, DispatchKey::PrivateUse1, DispatchKey::PrivateUse3}) {
    const std::string msg = message_of([&] { opd::call<err_op>(tensor_with_keys(k)); });
    EXPECT_NE(msg.find(std::string("dispatch key ") + std::string(opd::to_string(k))), std::string::npos) << msg;
  }
}

// ------------------------------------------------------------- duplicates --

struct dup_op : opd::op<"t_reg_dup::op(Tensor self) -> Tensor"> {};
Tensor dup_kernel(const Tensor& t) { return t; }

// Captures the dispatcher's warnings for a scope (and restores the handler).
std::vector<std::string>& captured_warnings() {
  static std::vector<std::string> w;
  return w;
}
struct capture_warnings {
  opd::WarningHandler saved;
  capture_warnings()
      : saved(opd::Dispatcher::singleton().set_warning_handler(
            [](std::string_view m) { captured_warnings().emplace_back(m); })) {
    captured_warnings().clear();
  }
  ~capture_warnings() { opd::Dispatcher::singleton().set_warning_handler(saved); }
};

// c10 (op_registration_test: OverwritingKernel / OverwritingKernelsDeregistering,
// OperatorEntry::registerKernel): a second kernel for the same key is
// accepted with a warning, the newest is called, and when either handle dies
// the other one is in effect.
Tensor dup_first(const Tensor&) { return cpu_floats({1.f}); }
Tensor dup_second(const Tensor&) { return cpu_floats({2.f}); }
float dup_value(const Tensor& t) { return opd::to_vector<float>(t)[0]; }

TEST(DispatcherDuplicates, SecondKernelWarnsAndOverridesTheFirst) {
  capture_warnings w;
  const int first_line = __LINE__ + 1;
  auto h1 = opd::register_kernel<dup_op, &dup_first>(DispatchKey::CPU);
  EXPECT_TRUE(captured_warnings().empty());
  const int second_line = __LINE__ + 1;
  auto h2 = opd::register_kernel<dup_op, &dup_second>(DispatchKey::CPU);
  ASSERT_EQ(captured_warnings().size(), 1u);
  const std::string& msg = captured_warnings()[0];
  for (const std::string& part : {std::string("overriding a previously registered kernel"), std::string("t_reg_dup::op"),
                                 std::string("dispatch key: CPU"),
                                 "registered at registration_test.cpp:" + std::to_string(first_line),
                                 "registered at registration_test.cpp:" + std::to_string(second_line)})
    EXPECT_NE(msg.find(part), std::string::npos) << part << " in " << msg;
  const Tensor x = cpu_floats({0.f});
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 2.f);
  Stack s{x};
  opd::call_boxed<dup_op>(s);
  EXPECT_EQ(dup_value(s[0].to_tensor()), 2.f);
  // Provenance is kept per stacked kernel.
  const auto& e = opd::Dispatcher::singleton().entry("t_reg_dup::op");
  EXPECT_EQ(e.num_registered(DispatchKey::CPU), 2u);
  EXPECT_EQ(e.registered_at(DispatchKey::CPU), "registration_test.cpp:" + std::to_string(second_line));
  EXPECT_EQ(e.registrations_at(DispatchKey::CPU),
            (std::vector<std::string>{"registration_test.cpp:" + std::to_string(first_line),
                                      "registration_test.cpp:" + std::to_string(second_line)}));
  // The newer one dies: the older one is back.
  h2.release();
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 1.f);
  EXPECT_EQ(e.registered_at(DispatchKey::CPU), "registration_test.cpp:" + std::to_string(first_line));
  h1.release();
  EXPECT_FALSE(e.has_kernel_for(DispatchKey::CPU));
  EXPECT_THROW(opd::call<dup_op>(x), opd::NotImplementedError);
}

TEST(DispatcherDuplicates, OlderHandleDyingLeavesTheNewerKernel) {
  capture_warnings w;
  const Tensor x = cpu_floats({0.f});
  auto h1 = opd::register_kernel<dup_op, &dup_first>(DispatchKey::CPU);
  auto h2 = opd::register_kernel<dup_op, &dup_second>(DispatchKey::CPU);
  h1.release();
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 2.f);
  h2.release();
  EXPECT_THROW(opd::call<dup_op>(x), opd::NotImplementedError);
}

TEST(DispatcherDuplicates, EveryKernelFormAndAliasKeysStack) {
  capture_warnings w;
  const Tensor x = cpu_floats({0.f});
  auto h = opd::register_kernel<dup_op, &dup_first>(DispatchKey::CPU);
  {
    auto l = opd::register_kernel<dup_op>(DispatchKey::CPU, [](const Tensor& t) -> Tensor { return dup_second(t); });
    EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 2.f);
    auto b = opd::register_boxed_kernel<dup_op>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack* st) {
      (*st)[0] = IValue(cpu_floats({3.f}));
    });
    EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 3.f);
    // A fallthrough stacked on top: the key passes the call on (nothing below CPU here).
    auto f = opd::register_fallthrough<dup_op>(DispatchKey::CPU);
    EXPECT_THROW(opd::call<dup_op>(x), opd::NotImplementedError);
  }
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 1.f);
  EXPECT_EQ(captured_warnings().size(), 3u);
  h.release();
  // Alias keys too.
  auto c1 = opd::register_kernel<dup_op, &dup_first>(DispatchKey::CompositeImplicitAutograd);
  auto c2 = opd::register_kernel<dup_op, &dup_second>(DispatchKey::CompositeImplicitAutograd);
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 2.f);
  c2.release();
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 1.f);
}

// Strictness on request: "already has a kernel" as before.
TEST(DispatcherDuplicates, StrictRegistrationRefusesASecondKernel) {
  capture_warnings w;
  auto& d = opd::Dispatcher::singleton();
  auto h = opd::register_kernel<dup_op, &dup_first>(DispatchKey::CPU);
  expect_throw_containing(
      [&] { (void)d.register_kernel_strict(opd::entry_for<dup_op>(), DispatchKey::CPU, opd::make_kernel<dup_op, &dup_second>()); },
      {"t_reg_dup::op", "already has a kernel for dispatch key CPU"});
  // The process-wide policy makes every form strict.
  const opd::DuplicateKernel old = d.set_duplicate_kernel_policy(opd::DuplicateKernel::error);
  EXPECT_EQ(old, opd::DuplicateKernel::warn);
  EXPECT_THROW((void)opd::register_kernel<dup_op>(DispatchKey::CPU, [](const Tensor& t) -> Tensor { return t; }), opd::Error);
  EXPECT_THROW((void)opd::register_boxed_kernel<dup_op>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {}),
               opd::Error);
  EXPECT_THROW((void)opd::register_fallthrough<dup_op>(DispatchKey::CPU), opd::Error);
  d.set_duplicate_kernel_policy(old);
  EXPECT_TRUE(captured_warnings().empty());
  // The failed attempts changed nothing.
  const Tensor x = cpu_floats({0.f});
  EXPECT_EQ(dup_value(opd::call<dup_op>(x)), 1.f);
  EXPECT_EQ(opd::Dispatcher::singleton().entry("t_reg_dup::op").num_registered(DispatchKey::CPU), 1u);
  // Once released, the key is free again.
  h.release();
  auto h2 = d.register_kernel_strict(opd::entry_for<dup_op>(), DispatchKey::CPU, opd::make_kernel<dup_op, &dup_second>());
  EXPECT_TRUE(h2);
}

TEST(DispatcherErrors, SentinelKeysCannotTakeKernels) {
  EXPECT_THROW((void)(opd::register_kernel<dup_op, &dup_kernel>(DispatchKey::Undefined)), opd::Error);
  EXPECT_THROW((void)(opd::register_kernel<dup_op, &dup_kernel>(DispatchKey::EndOfRuntimeKeys)), opd::Error);
  EXPECT_THROW((void)(opd::register_kernel<dup_op, &dup_kernel>(DispatchKey::EndOfAliasKeys)), opd::Error);
}

// ---------------------------------------------------- schemas at run time --

struct conflict_ct : opd::op<"t_reg_conflict::a(Tensor self) -> Tensor"> {};
struct conflict_rt_first : opd::op<"t_reg_conflict::b(Tensor self, int n) -> Tensor"> {};
struct same_rt_first : opd::op<"t_reg_same::a(Tensor self, int n=2) -> Tensor"> {};

TEST(DispatcherSchemas, RuntimeSchemaConflictingWithCompileTimeOneIsAnError) {
  (void)opd::entry_for<conflict_ct>();  // declares "t_reg_conflict::a(Tensor self) -> Tensor"
  expect_throw_containing([] { (void)opd::declare("t_reg_conflict::a(Tensor self, int x) -> Tensor"); },
                          {"t_reg_conflict::a", "conflicts with"});
  // The same schema again is accepted (no new registration: an empty handle).
  auto same = opd::declare("t_reg_conflict::a(Tensor self) -> Tensor");
  EXPECT_FALSE(same);
  EXPECT_NE(opd::Dispatcher::singleton().find_schema("t_reg_conflict::a"), nullptr);
}

TEST(DispatcherSchemas, CompileTimeSchemaConflictingWithRuntimeOneIsAnError) {
  auto rt = opd::declare("t_reg_conflict::b(Tensor self) -> Tensor");
  // The compile-time operator declares its schema on first use: here, when
  // registering its kernel.
  expect_throw_containing([] {
    (void)opd::register_kernel<conflict_rt_first>(DispatchKey::CPU, [](const Tensor& t, int64_t) -> Tensor { return t; });
  }, {"t_reg_conflict::b", "already declared with schema 't_reg_conflict::b(Tensor self) -> Tensor'", "conflicts with",
      "int n"});
  // Nothing was registered; the runtime schema is unchanged.
  EXPECT_FALSE(opd::Dispatcher::singleton().entry("t_reg_conflict::b").has_kernel_for(DispatchKey::CPU));
  EXPECT_EQ(opd::schema::to_string(opd::Dispatcher::singleton().find_schema("t_reg_conflict::b")->schema().value()),
            "t_reg_conflict::b(Tensor self) -> Tensor");
}

TEST(DispatcherSchemas, DeclaringTheSameRuntimeSchemaTwiceIsAnError) {
  auto a = opd::declare("t_reg_twice::op(Tensor self) -> Tensor");
  expect_throw_containing([] { (void)opd::declare("t_reg_twice::op(Tensor self) -> Tensor"); },
                          {"t_reg_twice::op", "already declared"});
  a.release();
  auto b = opd::declare("t_reg_twice::op(Tensor self) -> Tensor");  // free again
  EXPECT_TRUE(b);
}

TEST(DispatcherSchemas, MalformedRuntimeSchemaIsAnError) {
  EXPECT_THROW((void)opd::declare("t_reg_bad::op(Tensr self) -> Tensor"), opd::schema::syntax_error);
  EXPECT_THROW((void)opd::declare("t_reg_bad::op(Tensor self) ->"), opd::schema::syntax_error);
  // Every registration failure is an opd::Error, a malformed schema too; code and column stay.
  try {
    (void)opd::declare("t_reg_bad::op(Tensr self) -> Tensor");
    ADD_FAILURE() << "expected a syntax error";
  } catch (const opd::Error& e) {
    const auto* syntax = dynamic_cast<const opd::schema::syntax_error*>(&e);
    ASSERT_NE(syntax, nullptr);
    EXPECT_EQ(syntax->code(), opd::schema_error::unknown_type);
    EXPECT_EQ(syntax->column(), 15u);
    EXPECT_NE(std::string(e.what()).find("Tensr"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)opd::declare("t_reg_bad::op(Tensor self) ->"), opd::ValueError);
  EXPECT_THROW((void)opd::declare("t_reg_bad::op(Tensor self) ->"), std::exception);
  EXPECT_EQ(opd::Dispatcher::singleton().find_schema("t_reg_bad::op"), nullptr);
}

TEST(DispatcherSchemas, OverloadsAreDistinctOperators) {
  auto a = opd::declare("t_reg_ovl::op(Tensor self) -> str");
  auto b = opd::declare("t_reg_ovl::op.Scalar(Tensor self, Scalar other) -> str");
  auto ka = opd::register_boxed_kernel("t_reg_ovl::op", DispatchKey::CPU, [](const opd::OperatorEntry& op, DispatchKeySet, Stack* s) {
    s->back() = IValue(op.name());
  });
  auto kb = opd::register_boxed_kernel("t_reg_ovl::op.Scalar", DispatchKey::CPU,
                                       [](const opd::OperatorEntry& op, DispatchKeySet, Stack* s) {
                                         s->pop_back();
                                         s->back() = IValue(op.name());
                                       });
  Stack s1{cpu_floats({1.f})};
  opd::call_boxed("t_reg_ovl::op", s1);
  EXPECT_EQ(s1.at(0).to<std::string>(), "t_reg_ovl::op");
  Stack s2{cpu_floats({1.f}), opd::Scalar(int64_t{2})};
  opd::call_boxed("t_reg_ovl::op.Scalar", s2);
  EXPECT_EQ(s2.at(0).to<std::string>(), "t_reg_ovl::op.Scalar");
}

TEST(DispatcherSchemas, OperatorWithoutTensorInputsCanBeDeclared) {
  auto d = opd::declare("t_reg_notensor::op(int a, str b) -> int");
  auto k = opd::register_boxed_kernel("t_reg_notensor::op", DispatchKey::CPU,
                                      [](const opd::OperatorEntry&, DispatchKeySet ks, Stack* s) {
                                        EXPECT_EQ(ks, DispatchKeySet(DispatchKey::CPU));
                                        const int64_t a = (*s)[s->size() - 2].to_int();
                                        const auto n = static_cast<int64_t>((*s)[s->size() - 1].to<std::string>().size());
                                        s->resize(s->size() - 2);
                                        s->push_back(IValue(a + n));
                                      });
  Stack s{int64_t{40}, std::string("ab")};
  opd::call_boxed("t_reg_notensor::op", s);
  EXPECT_EQ(s.at(0).to_int(), 42);
}

TEST(DispatcherSchemas, KernelCanBeRegisteredBeforeOrAfterTheSchema) {
  auto echo = [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) { s->back() = IValue(int64_t{7}); };
  {
    // Schema first.
    auto d = opd::declare("t_reg_order::first(Tensor self) -> int");
    auto k = opd::register_boxed_kernel("t_reg_order::first", DispatchKey::CPU, echo);
    Stack s{cpu_floats({1.f})};
    opd::call_boxed("t_reg_order::first", s);
    EXPECT_EQ(s.at(0).to_int(), 7);
  }
  {
    // Kernel first: not callable by name until the schema exists.
    auto k = opd::register_boxed_kernel("t_reg_order::second", DispatchKey::CPU, echo);
    Stack s{cpu_floats({1.f})};
    expect_throw_containing([&] { opd::call_boxed("t_reg_order::second", s); },
                            {"operator 't_reg_order::second' has kernels (CPU) but no schema was declared"});
    // A kernel without a schema is visible (PyTorch: a dangling impl).
    auto& e = opd::Dispatcher::singleton().entry("t_reg_order::second");
    EXPECT_FALSE(e.has_schema());
    EXPECT_TRUE(e.has_kernel_for(DispatchKey::CPU));
    EXPECT_THROW(e.schema(), opd::Error);
    auto d = opd::declare("t_reg_order::second(Tensor self) -> int");
    opd::call_boxed("t_reg_order::second", s);
    EXPECT_EQ(s.at(0).to_int(), 7);
  }
}

// ------------------------------------------------------------ RAII handles --

struct raii_op : opd::op<"t_reg_raii::op(Tensor self) -> str"> {};

TEST(DispatcherHandles, DestroyingAKernelHandleRemovesOnlyThatKernel) {
  auto cpu = opd::register_kernel<raii_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  const auto& e = opd::entry_for<raii_op>();
  {
    auto pu1 = opd::register_kernel<raii_op>(DispatchKey::PrivateUse1, [](const Tensor&) -> std::string { return "pu1"; });
    EXPECT_EQ(opd::call<raii_op>(tensor_with_keys(DispatchKey::PrivateUse1)), "pu1");
    EXPECT_TRUE(e.has_kernel_for(DispatchKey::PrivateUse1));
  }
  EXPECT_FALSE(e.has_kernel_for(DispatchKey::PrivateUse1));
  EXPECT_TRUE(e.has_kernel_for(DispatchKey::CPU));
  EXPECT_THROW(opd::call<raii_op>(tensor_with_keys(DispatchKey::PrivateUse1)), opd::NotImplementedError);
  EXPECT_EQ(opd::call<raii_op>(cpu_floats({1.f})), "cpu");
  cpu.release();
  EXPECT_THROW(opd::call<raii_op>(cpu_floats({1.f})), opd::NotImplementedError);
  // The compile-time schema stays.
  EXPECT_TRUE(e.has_schema());
}

TEST(DispatcherHandles, MoveReleaseAndRegistrationSets) {
  opd::RegistrationHandle moved;
  EXPECT_FALSE(moved);
  {
    auto h = opd::register_kernel<raii_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
    moved = std::move(h);
    EXPECT_FALSE(h);  // NOLINT(bugprone-use-after-move): moved-from is empty
  }
  EXPECT_EQ(opd::call<raii_op>(cpu_floats({1.f})), "cpu");  // the moved-to handle keeps it
  moved.release();
  moved.release();  // idempotent
  EXPECT_THROW(opd::call<raii_op>(cpu_floats({1.f})), opd::NotImplementedError);
  {
    // Move-assigning over a live handle releases what it held.
    auto a = opd::register_kernel<raii_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "a"; });
    auto b = opd::register_kernel<raii_op>(DispatchKey::CUDA, [](const Tensor&) -> std::string { return "b"; });
    a = std::move(b);
    EXPECT_THROW(opd::call<raii_op>(cpu_floats({1.f})), opd::NotImplementedError);
    EXPECT_EQ(opd::call<raii_op>(tensor_with_keys(DispatchKey::CUDA)), "b");
  }
  EXPECT_THROW(opd::call<raii_op>(tensor_with_keys(DispatchKey::CUDA)), opd::NotImplementedError);
  {
    opd::RegistrationSet lib;
    lib.add(opd::register_kernel<raii_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; }));
    lib.add(opd::register_kernel<raii_op>(DispatchKey::Meta, [](const Tensor&) -> std::string { return "meta"; }));
    lib.add(opd::register_fallback(DispatchKey::PrivateUse3, [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
      s->back() = IValue(std::string("fb"));
    }));
    EXPECT_EQ(lib.size(), 3u);
    EXPECT_EQ(opd::call<raii_op>(tensor_with_keys(DispatchKey::Meta)), "meta");
    EXPECT_EQ(opd::call<raii_op>(tensor_with_keys(DispatchKey::PrivateUse3)), "fb");
  }
  EXPECT_THROW(opd::call<raii_op>(tensor_with_keys(DispatchKey::Meta)), opd::NotImplementedError);
  EXPECT_FALSE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse3));
}

TEST(DispatcherHandles, DestroyingADeclareHandleRemovesTheSchema) {
  auto& d = opd::Dispatcher::singleton();
  {
    auto schema = opd::declare("t_reg_raii::declared(Tensor self) -> Tensor");
    EXPECT_NE(d.find_schema("t_reg_raii::declared"), nullptr);
    const auto names = d.operator_names();
    EXPECT_NE(std::find(names.begin(), names.end(), "t_reg_raii::declared"), names.end());
  }
  EXPECT_EQ(d.find_schema("t_reg_raii::declared"), nullptr);
  const auto names = d.operator_names();
  EXPECT_EQ(std::find(names.begin(), names.end(), "t_reg_raii::declared"), names.end());
  Stack s{cpu_floats({1.f})};
  EXPECT_THROW(opd::call_boxed("t_reg_raii::declared", s), opd::Error);
  // Kernels registered while it existed are removed by their own handles,
  // independently of the schema's.
  auto schema = opd::declare("t_reg_raii::declared(Tensor self) -> Tensor");
  auto k = opd::register_boxed_kernel("t_reg_raii::declared", DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {});
  schema.release();
  EXPECT_TRUE(d.entry("t_reg_raii::declared").has_kernel_for(DispatchKey::CPU));
  k.release();
  EXPECT_FALSE(d.entry("t_reg_raii::declared").has_kernel_for(DispatchKey::CPU));
}

TEST(DispatcherHandles, KernelRunningOutOfScopeCannotBeCalledAnymore) {
  {
    auto h = opd::register_kernel<raii_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
    EXPECT_EQ(opd::call<raii_op>(cpu_floats({1.f})), "cpu");
  }
  EXPECT_THROW(opd::call<raii_op>(cpu_floats({1.f})), opd::NotImplementedError);
  Stack s{cpu_floats({1.f})};
  EXPECT_THROW(opd::call_boxed<raii_op>(s), opd::NotImplementedError);
}

struct same_schema_op : opd::op<"t_reg_perm::op(Tensor self) -> str"> {};

// Regression: a runtime declare() of the schema that a compile-time operator
// also declares used to hand out a handle that, when destroyed, removed the
// compile-time ("permanent") schema too, after which boxed calls of the
// operator failed with "has kernels but no schema was declared".
TEST(DispatcherHandles, RuntimeDeclareHandleDoesNotRemoveACompileTimeSchema) {
  auto& d = opd::Dispatcher::singleton();
  {
    auto rt = opd::declare("t_reg_perm::op(Tensor self) -> str");  // first: a removable declaration
    (void)opd::entry_for<same_schema_op>();                          // the compile-time op: same schema
  }
  EXPECT_NE(d.find_schema("t_reg_perm::op"), nullptr);
  auto k = opd::register_kernel<same_schema_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  Stack s{cpu_floats({1.f})};
  EXPECT_NO_THROW(opd::call_boxed<same_schema_op>(s));
}

// A boxed call by a misspelt name suggests the nearest declared names.
TEST(DispatcherRegistration, MisspeltNameSuggestsTheNearest) {
  auto a = opd::declare("t_suggest::add.Tensor(Tensor self, Tensor other) -> Tensor");
  auto b = opd::declare("t_suggest::add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  auto c = opd::declare("t_suggest::mul.Tensor(Tensor self, Tensor other) -> Tensor");
  Stack s{cpu_floats({1.f}), cpu_floats({2.f})};
  expect_throw_containing([&] { opd::call_boxed("t_suggest::ad.Tensor", s); },
                          {"no operator named 't_suggest::ad.Tensor' has been declared; did you mean "
                           "'t_suggest::add.Tensor'?"});
  expect_throw_containing([&] { opd::call_boxed("t_suggest::Add.Tensr", s); },
                          {"did you mean 't_suggest::add.Tensor'?"});
  // Nothing near enough: no suggestion.
  try {
    opd::call_boxed("t_suggest::convolution", s);
    ADD_FAILURE() << "expected an opd::Error";
  } catch (const opd::Error& e) {
    EXPECT_EQ(std::string(e.what()).find("did you mean"), std::string::npos) << e.what();
  }
}

TEST(DispatcherRegistration, SuggestNames) {
  const std::vector<std::string> names = {"aten::add.Tensor", "aten::add.out", "aten::sub.Tensor", "aten::mul.Tensor",
                                          "aten::div.Tensor"};
  EXPECT_EQ(opd::suggest_names("aten::ad.Tensor", names), "; did you mean 'aten::add.Tensor'?");
  EXPECT_EQ(opd::suggest_names("ATEN::ADD.TENSOR", names), "; did you mean 'aten::add.Tensor'?");  // case aside
  // ties: all of the nearest, sorted, at most three
  EXPECT_EQ(opd::suggest_names("aten::xxx.Tensor", names),
            "; did you mean 'aten::add.Tensor', 'aten::div.Tensor' or 'aten::mul.Tensor'?");
  EXPECT_EQ(opd::suggest_names("aten::aed.Tensor", {"aten::and.Tensor", "aten::add.Tensor", "aten::sub.Tensor"}),
            "; did you mean 'aten::add.Tensor' or 'aten::and.Tensor'?");
  EXPECT_EQ(opd::suggest_names("aten::convolution", names), "");
  EXPECT_EQ(opd::suggest_names("x", {}), "");
}

}  // namespace

// ------------------------------------------------------- provenance --

struct prov_op : opd::op<"t_reg_prov::op(Tensor self) -> Tensor"> {};
struct prov_composite : opd::op<"t_reg_prov::composite(Tensor self) -> Tensor"> {};
Tensor prov_kernel(const Tensor& t) { return t; }

TEST(DispatcherProvenance, StrictSecondKernelErrorSaysWhereTheFirstWasRegistered) {
  const int line = __LINE__ + 1;
  auto first = opd::register_kernel<prov_op, &prov_kernel>(DispatchKey::CPU);
  const std::string msg = message_of([] {
    (void)opd::Dispatcher::singleton().register_kernel_strict(opd::entry_for<prov_op>(), DispatchKey::CPU,
                                                               opd::make_kernel<prov_op, &prov_kernel>());
  });
  EXPECT_NE(msg.find("already has a kernel for dispatch key CPU (registered at registration_test.cpp:" +
                     std::to_string(line) + "; this one at registration_test.cpp:"),
            std::string::npos)
      << msg;
  EXPECT_EQ(opd::Dispatcher::singleton().entry("t_reg_prov::op").registered_at(DispatchKey::CPU),
            "registration_test.cpp:" + std::to_string(line));
}

TEST(DispatcherProvenance, DumpComputedTableGivesTheReasonForEachEntry) {
  const int kernel_line = __LINE__ + 1;
  auto cpu = opd::register_kernel<prov_composite, &prov_kernel>(DispatchKey::CPU);
  const int composite_line = __LINE__ + 1;
  auto cea = opd::register_kernel<prov_composite, &prov_kernel>(DispatchKey::CompositeExplicitAutograd);
  auto tracer = opd::register_fallthrough<prov_composite>(DispatchKey::Tracer);
  const int fallback_line = __LINE__ + 1;
  auto fallback = opd::register_fallback(DispatchKey::PrivateUse2, [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {});
  const std::string table = opd::Dispatcher::singleton().dump_computed_table("t_reg_prov::composite");
  const auto has_line = [&](const std::string& line) { return table.find(line + "\n") != std::string::npos; };
  EXPECT_TRUE(has_line("CPU: kernel [registered at registration_test.cpp:" + std::to_string(kernel_line) + "]")) << table;
  // A backend without its own kernel takes the CompositeExplicitAutograd one...
  EXPECT_TRUE(has_line("CUDA: kernel from CompositeExplicitAutograd [registered at registration_test.cpp:" +
                       std::to_string(composite_line) + "]"))
      << table;
  // ... even where it has a backend fallback: the operator's own kernel wins.
  EXPECT_TRUE(has_line("PrivateUse2: kernel from CompositeExplicitAutograd [registered at registration_test.cpp:" +
                       std::to_string(composite_line) + "]"))
      << table;
  EXPECT_NE(table.find("Tracer: fallthrough [registered at registration_test.cpp:"), std::string::npos) << table;
  // Layers with nothing registered pass through, listed only when asked for.
  EXPECT_EQ(table.find("AutogradCPU:"), std::string::npos) << table;
  const std::string all = opd::Dispatcher::singleton().dump_computed_table("t_reg_prov::composite", true);
  EXPECT_NE(all.find("AutogradCPU: fallthrough (no kernel at this layer)\n"), std::string::npos) << all;

  // An operator with no kernel: backends are missing, or reach a backend fallback.
  (void)opd::entry_for<prov_op>();  // declared here too: ctest runs each test in a process of its own
  const std::string bare = opd::Dispatcher::singleton().dump_computed_table("t_reg_prov::op");
  EXPECT_TRUE(bare.find("CPU: missing\n") != std::string::npos) << bare;
  EXPECT_TRUE(bare.find("PrivateUse2: backend fallback [registered at registration_test.cpp:" +
                        std::to_string(fallback_line) + "]\n") != std::string::npos)
      << bare;
  EXPECT_THROW(opd::Dispatcher::singleton().dump_computed_table("t_reg_prov::nope"), opd::Error);
}
