// Dispatch semantics asserted as c10 behaves (issue 14): BackendSelect and
// ADInplaceOrView in every thread's default included set, the Undefined slot
// filled from composite kernels, AutogradOther with both composite kernels.
// Each test names the c10 source whose behaviour it asserts.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Stack;
using opd::Tensor;

std::vector<std::string>& trace() {
  static std::vector<std::string> t;
  return t;
}

// ---- default included keys (c10/core/impl/LocalDispatchKeySet.h) ----------

struct bs_op : opd::op<"t_par_bs::op(Tensor self) -> Tensor"> {};

// c10: default_included_set = {BackendSelect, ADInplaceOrView}; a kernel at
// BackendSelect runs first for a plain CPU call and can redispatch below itself.
TEST(C10ParityDefaultIncluded, BackendSelectKernelRunsFirstAndRedispatches) {
  trace().clear();
  auto cpu = opd::register_kernel<bs_op>(DispatchKey::CPU, [](opd::DispatchKeySet ks, const Tensor& t) -> Tensor {
    trace().push_back("cpu " + ks.str());
    return t;
  });
  auto bs = opd::register_kernel<bs_op>(DispatchKey::BackendSelect, [](opd::DispatchKeySet ks, const Tensor& t) -> Tensor {
    trace().push_back("backend_select " + ks.str());
    return opd::redispatch<bs_op>(ks & DispatchKeySet::full_after(DispatchKey::BackendSelect), t);
  });
  const Tensor x = cpu_floats({1.f});
  EXPECT_TRUE(opd::call<bs_op>(x).is_same(x));
  // Kernels receive the call's set masked with the non-fallthrough keys, as in
  // c10: ADInplaceOrView (a fallthrough here) is not in it.
  EXPECT_EQ(trace(), (std::vector<std::string>{"backend_select DispatchKeySet(CPU, BackendSelect)",
                                               "cpu DispatchKeySet(CPU)"}));
  trace().clear();
  Stack s{x};
  opd::call_boxed<bs_op>(s);
  EXPECT_EQ(trace().size(), 2u);
  EXPECT_EQ(trace()[0].rfind("backend_select", 0), 0u);
}

TEST(C10ParityDefaultIncluded, ADInplaceOrViewKernelRunsBeforeTheBackend) {
  trace().clear();
  auto cpu = opd::register_kernel<bs_op>(DispatchKey::CPU, [](const Tensor& t) -> Tensor {
    trace().push_back("cpu");
    return t;
  });
  auto iv = opd::register_kernel<bs_op>(DispatchKey::ADInplaceOrView, [](opd::DispatchKeySet ks, const Tensor& t) -> Tensor {
    trace().push_back("inplace_or_view");
    return opd::redispatch<bs_op>(ks & DispatchKeySet::full_after(DispatchKey::ADInplaceOrView), t);
  });
  (void)opd::call<bs_op>(cpu_floats({1.f}));
  EXPECT_EQ(trace(), (std::vector<std::string>{"inplace_or_view", "cpu"}));
  // Excluding the key (as c10's AutoDispatchBelowADInplaceOrView) skips it.
  trace().clear();
  opd::ExcludeDispatchKeyGuard below(DispatchKey::ADInplaceOrView);
  (void)opd::call<bs_op>(cpu_floats({1.f}));
  EXPECT_EQ(trace(), (std::vector<std::string>{"cpu"}));
}

// Without kernels there, the default keys are fallthroughs: a call goes
// straight to CPU and the kernel sees {CPU}.
TEST(C10ParityDefaultIncluded, WithoutKernelsTheDefaultKeysAreFallthroughs) {
  DispatchKeySet seen;
  auto cpu = opd::register_kernel<bs_op>(DispatchKey::CPU, [&seen](opd::DispatchKeySet ks, const Tensor& t) -> Tensor {
    seen = ks;
    return t;
  });
  (void)opd::call<bs_op>(cpu_floats({1.f}));
  EXPECT_EQ(seen, DispatchKeySet(DispatchKey::CPU));
  const auto& e = opd::Dispatcher::singleton().entry("t_par_bs::op");
  EXPECT_FALSE(e.non_fallthrough_keys().has(DispatchKey::BackendSelect));
  EXPECT_FALSE(e.non_fallthrough_keys().has(DispatchKey::ADInplaceOrView));
}

// ---- an empty key set (OperatorEntry.cpp: the Undefined slot) -------------

struct opt_op : opd::op<"t_par_opt::op(Tensor? self) -> int"> {};

// c10 fills the Undefined entry from CompositeExplicitAutograd, else from
// CompositeImplicitAutograd: an op whose only tensor is absent reaches it.
TEST(C10ParityUndefined, AbsentOptionalTensorReachesTheCompositeImplicitKernel) {
  auto cia = opd::register_kernel<opt_op>(DispatchKey::CompositeImplicitAutograd,
                                          [](const std::optional<Tensor>& t) -> int64_t { return t ? 1 : 2; });
  EXPECT_EQ(opd::call<opt_op>(std::nullopt), 2);
  EXPECT_EQ(opd::call<opt_op>(cpu_floats({1.f})), 1);  // CPU: the composite kernel too
  Stack s{IValue()};
  opd::call_boxed<opt_op>(s);
  EXPECT_EQ(s[0].to_int(), 2);
  Stack s2{IValue()};
  opd::call_boxed(opd::Dispatcher::singleton().entry("t_par_opt::op"), s2);
  EXPECT_EQ(s2[0].to_int(), 2);
}

TEST(C10ParityUndefined, CompositeExplicitWinsOverImplicitForAnEmptySet) {
  auto cia = opd::register_kernel<opt_op>(DispatchKey::CompositeImplicitAutograd,
                                          [](const std::optional<Tensor>&) -> int64_t { return 1; });
  auto cea = opd::register_kernel<opt_op>(DispatchKey::CompositeExplicitAutograd,
                                          [](const std::optional<Tensor>&) -> int64_t { return 3; });
  EXPECT_EQ(opd::call<opt_op>(std::nullopt), 3);
  Stack s{IValue()};
  opd::call_boxed<opt_op>(s);
  EXPECT_EQ(s[0].to_int(), 3);
  cea.release();
  EXPECT_EQ(opd::call<opt_op>(std::nullopt), 1);
}

TEST(C10ParityUndefined, BackendKernelsDoNotServeAnEmptySet) {
  auto cpu = opd::register_kernel<opt_op>(DispatchKey::CPU, [](const std::optional<Tensor>&) -> int64_t { return 4; });
  EXPECT_EQ(opd::call<opt_op>(cpu_floats({1.f})), 4);
  expect_throw_containing([] { (void)opd::call<opt_op>(std::nullopt); },
                          {"t_par_opt::op", "no kernel for dispatch key Undefined"});
}

// ---- AutogradOther and the two composite kernels (OperatorEntry.cpp) -----

struct ao_op : opd::op<"t_par_ao::op(Tensor self) -> int"> {};

// c10: AutogradOther takes the CompositeImplicitAutograd kernel only when no
// CompositeExplicitAutograd kernel exists (has_backend_kernel includes it).
TEST(C10ParityAutogradOther, ExplicitKernelKeepsTheImplicitOneOffAutogradOther) {
  auto cia = opd::register_kernel<ao_op>(DispatchKey::CompositeImplicitAutograd, [](const Tensor&) -> int64_t { return 1; });
  const Tensor t = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::AutogradOther});
  EXPECT_EQ(opd::call<ao_op>(t), 1);  // implicit only: AutogradOther runs it
  auto cea = opd::register_kernel<ao_op>(DispatchKey::CompositeExplicitAutograd, [](const Tensor&) -> int64_t { return 2; });
  // AutogradOther falls through to the backend, which runs the explicit kernel.
  EXPECT_EQ(opd::call<ao_op>(t), 2);
  Stack s{t};
  opd::call_boxed<ao_op>(s);
  EXPECT_EQ(s[0].to_int(), 2);
  EXPECT_EQ(opd::call<ao_op>(tensor_with_keys(DispatchKey::AutogradOther)), 2)
      << "AutogradOther alone (no backend key): falls through to Undefined, which c10 fills from the explicit kernel";
}

// ---- kernels without a schema (c10: Dispatcher::findDanglingImpls) -------

// c10 accepts an impl before its def (static initialisation order across
// files) and lists impls still without a def; a boxed call names the problem.
TEST(C10ParityDangling, KernelsWithoutASchemaAreListedAndBecomeCallableOnceDeclared) {
  auto& d = opd::Dispatcher::singleton();
  auto noop = [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {};
  const int line = __LINE__ + 1;
  auto k = opd::register_boxed_kernel("t_par_dangling::op", DispatchKey::CPU, noop);
  const std::string listed =
      "t_par_dangling::op: CPU [registered at c10_parity_test.cpp:" + std::to_string(line) + "]";
  auto dangling = d.dangling_registrations();
  EXPECT_NE(std::find(dangling.begin(), dangling.end(), listed), dangling.end());
  Stack s{cpu_floats({1.f})};
  expect_throw_containing([&] { opd::call_boxed("t_par_dangling::op", s); },
                          {"operator 't_par_dangling::op' has kernels (CPU) but no schema was declared"});
  {
    auto def = opd::declare("t_par_dangling::op(Tensor self) -> ()");
    dangling = d.dangling_registrations();
    EXPECT_EQ(std::find(dangling.begin(), dangling.end(), listed), dangling.end());
    Stack s2{cpu_floats({1.f})};
    EXPECT_NO_THROW(opd::call_boxed("t_par_dangling::op", s2));
  }
  dangling = d.dangling_registrations();  // the schema's handle died: dangling again
  EXPECT_NE(std::find(dangling.begin(), dangling.end(), listed), dangling.end());
  k.release();
  dangling = d.dangling_registrations();
  EXPECT_EQ(std::find(dangling.begin(), dangling.end(), listed), dangling.end());
}

// ---- deliberate divergences (docs/dispatcher.md) ---------------------------

// c10 rejects the overload names `default` and `__name__` (they clash with
// Python's torch.ops attribute access); without Python there is no clash, and
// this library accepts them.
TEST(C10Divergence, OverloadNamesDefaultAndDunderNameAreAccepted) {
  auto a = opd::declare("t_par_ovl::op.default(Tensor self) -> Tensor");
  auto b = opd::declare("t_par_ovl::op.__name__(Tensor self) -> Tensor");
  EXPECT_NE(opd::Dispatcher::singleton().find_schema("t_par_ovl::op.default"), nullptr);
  EXPECT_NE(opd::Dispatcher::singleton().find_schema("t_par_ovl::op.__name__"), nullptr);
}

// The flat DispatchKeySet: exactly the keys put in (c10's functionality x
// backend product would also contain CUDA and AutogradCPU here), iterated
// highest priority first (c10: lowest first), equal only to the same keys.
TEST(C10Divergence, FlatKeySetHasNoCrossProductAndIteratesHighestFirst) {
  const DispatchKeySet ks{DispatchKey::CPU, DispatchKey::AutogradCUDA};
  EXPECT_FALSE(ks.has(DispatchKey::CUDA));
  EXPECT_FALSE(ks.has(DispatchKey::AutogradCPU));
  EXPECT_NE(ks, (DispatchKeySet{DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::AutogradCPU, DispatchKey::AutogradCUDA}));
  std::vector<DispatchKey> order(ks.begin(), ks.end());
  EXPECT_EQ(order, (std::vector<DispatchKey>{DispatchKey::AutogradCUDA, DispatchKey::CPU}));
}

}  // namespace
