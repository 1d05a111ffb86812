// Ports of PyTorch's op_registration_test scenarios (OperatorRegistrationTest.*,
// NewOperatorRegistrationTest.*) and extension_backend_test that the other
// files do not already cover. See tests/PEER_PARITY.md for the full mapping.
#include <algorithm>
#include <complex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Scalar;
using opd::Stack;
using opd::Tensor;

template <class Op>
opd::RegistrationHandle answer(DispatchKey key, std::string name) {
  return opd::register_kernel<Op>(key, [name](const Tensor&) -> std::string { return name; });
}

template <class Op>
opd::RegistrationHandle answer2(DispatchKey key, std::string name) {
  return opd::register_kernel<Op>(key, [name](const Tensor&, const Tensor&) -> std::string { return name; });
}

// givenOpWithDispatchedKernelOutOfScope_whenRegisteringCatchallKernelAndCallingOp_thenCallsCatchallKernel
// givenOpWithCatchallKernelOutOfScope_whenRegisteringDispatchedKernelAndCallingOp_thenCallsCatchallKernel
struct pr_scope : opd::op<"t_peer_reg::scope(Tensor self) -> str"> {};
TEST(PeerOpRegistration, KernelsOutOfScopeThenTheOtherKindRegistered) {
  const Tensor x = cpu_floats({1.f});
  {
    auto cpu = answer<pr_scope>(DispatchKey::CPU, "cpu");
    EXPECT_EQ(opd::call<pr_scope>(x), "cpu");
  }
  {
    auto catchall = answer<pr_scope>(DispatchKey::CompositeImplicitAutograd, "catchall");
    EXPECT_EQ(opd::call<pr_scope>(x), "catchall");
  }
  auto cpu = answer<pr_scope>(DispatchKey::CPU, "cpu");
  EXPECT_EQ(opd::call<pr_scope>(x), "cpu");
}

// givenOpWithoutKernels_whenRegisteringWithSchema_thenOnlyRegistersSchema
// NewOperatorRegistrationTest.testBasics (schemas exist without impls; impls on several keys)
TEST(PeerOpRegistration, SchemaWithoutKernelsIsDeclaredButNotCallable) {
  auto& d = opd::Dispatcher::singleton();
  auto s1 = opd::declare("t_peer_reg::dummy(Tensor self) -> Tensor");
  auto s2 = opd::declare("t_peer_reg::dummy1(Tensor self) -> Tensor");
  auto s3 = opd::declare("t_peer_reg::dummy2(Tensor self, Tensor other) -> Tensor");
  auto ident = [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) { s->resize(s->size() - 1); };
  auto k1 = opd::register_boxed_kernel("t_peer_reg::dummy", DispatchKey::CPU, ident);
  auto k2 = opd::register_boxed_kernel("t_peer_reg::dummy", DispatchKey::PrivateUse1, ident);
  auto k3 = opd::register_boxed_kernel("t_peer_reg::dummy", DispatchKey::PrivateUse2, ident);
  for (const char* n : {"t_peer_reg::dummy", "t_peer_reg::dummy1", "t_peer_reg::dummy2"})
    EXPECT_NE(d.find_schema(n), nullptr) << n;
  EXPECT_EQ(d.find_schema("t_peer_reg::dummy3"), nullptr);
  const auto& e1 = *d.find_schema("t_peer_reg::dummy1");
  EXPECT_EQ(e1.registered_keys(), "(none)");
  Stack s{cpu_floats({1.f})};
  expect_throw_containing<opd::NotImplementedError>([&] { opd::call_boxed("t_peer_reg::dummy1", s); },
                                                    {"t_peer_reg::dummy1", "(none)"});
  EXPECT_EQ(d.find_schema("t_peer_reg::dummy")->registered_keys(), "CPU, PrivateUse1, PrivateUse2");
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::PrivateUse1, DispatchKey::PrivateUse2}) {
    Stack st{tensor_with_keys(k)};
    opd::call_boxed("t_peer_reg::dummy", st);
    EXPECT_TRUE(st.empty());
  }
}

// NewOperatorRegistrationTest.schema: the declared schema can be read back.
struct pr_schema : opd::op<"t_peer_reg::ct(Tensor(a!) self, int[2] size=[1, 2], *, Scalar alpha=1) -> Tensor(a!)"> {};
TEST(PeerOpRegistration, DeclaredSchemasCanBeReadBack) {
  auto rt = opd::declare("t_peer_reg::rt.overload(Tensor self, Tensor? w=None, *, str mode=\"x\") -> (Tensor, Tensor)");
  const auto* e = opd::Dispatcher::singleton().find_schema("t_peer_reg::rt.overload");
  ASSERT_NE(e, nullptr);
  const auto& s = e->schema().value();
  EXPECT_EQ(s.name, "rt");
  EXPECT_EQ(s.overload, "overload");
  ASSERT_EQ(s.arguments.size(), 3u);
  EXPECT_EQ(s.arguments[1].name, "w");
  EXPECT_TRUE(s.arguments[2].kwarg_only);
  EXPECT_EQ(s.returns.size(), 2u);
  EXPECT_EQ(e->tensor_argument_positions(), (std::vector<std::size_t>{0, 1}));
  // A compile-time operator's schema is declared on first use, as printed.
  const auto& ct = opd::entry_for<pr_schema>();
  EXPECT_EQ(opd::schema::to_string(ct.schema().value()), opd::schema::to_string(pr_schema::schema));
  EXPECT_EQ(pr_schema::name, "t_peer_reg::ct");
  EXPECT_EQ(ct.name(), "t_peer_reg::ct");
}

// NewOperatorRegistrationTest.overload: overloads are separate operators.
struct pr_fn : opd::op<"t_peer_reg::fn(Tensor self) -> str"> {};
struct pr_fn_ov1 : opd::op<"t_peer_reg::fn.overload1(Tensor self, Tensor other) -> str"> {};
struct pr_fn_ov2 : opd::op<"t_peer_reg::fn.overload2(Tensor self, Tensor other, Tensor alpha) -> str"> {};
TEST(PeerOpRegistration, OverloadsAreSeparateOperators) {
  static_assert(pr_fn_ov1::overload_name == "overload1");
  static_assert(pr_fn::overload_name.empty());
  auto a = opd::register_kernel<pr_fn>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "fn"; });
  auto b = opd::register_kernel<pr_fn_ov1>(DispatchKey::CPU,
                                           [](const Tensor&, const Tensor&) -> std::string { return "overload1"; });
  auto c = opd::register_kernel<pr_fn_ov2>(
      DispatchKey::CPU, [](const Tensor&, const Tensor&, const Tensor&) -> std::string { return "overload2"; });
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(opd::call<pr_fn>(x), "fn");
  EXPECT_EQ(opd::call<pr_fn_ov1>(x, x), "overload1");
  EXPECT_EQ(opd::call<pr_fn_ov2>(x, x, x), "overload2");
  Stack s{x, x};
  opd::call_boxed("t_peer_reg::fn.overload1", s);
  EXPECT_EQ(s.at(0).to<std::string>(), "overload1");
  EXPECT_NE(&opd::entry_for<pr_fn>(), &opd::entry_for<pr_fn_ov1>());
}

// whenRegisteringBackendFallbackKernelAndRegularKernelForDifferentBackend_then{Regular,Fallback}KernelCanBeCalled
struct pr_fb : opd::op<"t_peer_reg::fb(Tensor dummy, str input) -> str"> {};
TEST(PeerOpRegistration, BackendFallbackAndRegularKernelForDifferentBackends) {
  auto fb = opd::register_fallback(DispatchKey::PrivateUse2, [](const opd::OperatorEntry& op, DispatchKeySet, Stack* s) {
    std::string r = s->back().to<std::string>() + op.name();
    s->resize(s->size() - 2);
    s->push_back(IValue(r));
  });
  auto cpu = opd::register_kernel<pr_fb>(DispatchKey::CPU, [](const Tensor&, std::string_view in) -> std::string {
    return std::string(in) + "cpu";
  });
  EXPECT_EQ(opd::call<pr_fb>(cpu_floats({1.f}), std::string_view("hello ")), "hello cpu");
  EXPECT_EQ(opd::call<pr_fb>(tensor_with_keys(DispatchKey::PrivateUse2), std::string_view("hello ")),
            "hello t_peer_reg::fb");
}

// NewOperatorRegistrationTest.dispatchMultipleTensors: the key comes from
// every tensor-bearing argument (Tensor, Tensor?, Tensor[], Tensor?[]).
struct pr_multi : opd::op<"t_peer_reg::multi(Tensor a, Tensor b, Tensor? c, Tensor[] d, Tensor?[] e) -> str"> {};
std::string multi_name(DispatchKey k) { return std::string(opd::to_string(k)); }
TEST(PeerOpRegistration, DispatchOnMultipleTensors) {
  opd::RegistrationSet lib;
  for (DispatchKey k : {DispatchKey::CPU, DispatchKey::CUDA, DispatchKey::PrivateUse1, DispatchKey::AutogradCPU}) {
    lib.add(opd::register_kernel<pr_multi>(
        k, [k](const Tensor&, const Tensor&, const std::optional<Tensor>&, std::span<const Tensor>,
               std::span<const std::optional<Tensor>>) -> std::string { return multi_name(k); }));
  }
  const Tensor cpu = tensor_with_keys(DispatchKey::CPU), cuda = tensor_with_keys(DispatchKey::CUDA),
               pu1 = tensor_with_keys(DispatchKey::PrivateUse1), grad = cpu_requires_grad();
  const std::vector<Tensor> none;
  const std::vector<std::optional<Tensor>> onone;
  auto call = [&](const Tensor& a, const Tensor& b, std::optional<Tensor> c, const std::vector<Tensor>& d,
                  const std::vector<std::optional<Tensor>>& e) {
    return opd::call<pr_multi>(a, b, c, std::span<const Tensor>(d), std::span<const std::optional<Tensor>>(e));
  };
  EXPECT_EQ(call(cpu, cpu, std::nullopt, none, onone), "CPU");
  EXPECT_EQ(call(cpu, cuda, std::nullopt, none, onone), "CUDA");
  EXPECT_EQ(call(cuda, cpu, std::nullopt, none, onone), "CUDA");
  EXPECT_EQ(call(cpu, cpu, pu1, none, onone), "PrivateUse1");
  EXPECT_EQ(call(cpu, cpu, std::nullopt, std::vector<Tensor>{cpu, cuda}, onone), "CUDA");
  EXPECT_EQ(call(cpu, cpu, std::nullopt, none, std::vector<std::optional<Tensor>>{std::nullopt, pu1}), "PrivateUse1");
  EXPECT_EQ(call(cpu, grad, std::nullopt, none, onone), "AutogradCPU");
  // Boxed calls extract the same keys.
  Stack s{cpu, cpu, IValue(), std::vector<Tensor>{cuda}, std::vector<std::optional<Tensor>>{std::nullopt, pu1}};
  opd::call_boxed<pr_multi>(s);
  EXPECT_EQ(s.at(0).to<std::string>(), "PrivateUse1");
  Stack s2{cpu, cuda, IValue(), std::vector<Tensor>{}, std::vector<std::optional<Tensor>>{}};
  opd::call_boxed<pr_multi>(s2);
  EXPECT_EQ(s2.at(0).to<std::string>(), "CUDA");
}

// NewOperatorRegistrationTest.dispatchMultipleTensors, as c10 1.12 and later
// assert it: with a fallthrough (backend fallback) at AutogradPrivateUse1,
// a PrivateUse1 and a CPU tensor, both with autograd keys, reach the
// PrivateUse1 kernel (c10 masks fallthroughs per backend; before 1.12 the
// call went on to AutogradCPU and ran the catch-all kernel).
struct pr_mt : opd::op<"t_peer_reg::mt(Tensor x, Tensor y) -> Tensor"> {};
TEST(PeerOpRegistration, DispatchMultipleTensorsWithAnAutogradFallthrough) {
  bool privateuse1_called = false, catchall_called = false;
  auto fallthrough = opd::register_fallthrough_fallback(DispatchKey::AutogradPrivateUse1);
  auto pu1 = opd::register_kernel<pr_mt>(DispatchKey::PrivateUse1, [&](const Tensor& x, const Tensor&) {
    privateuse1_called = true;
    return x;
  });
  auto catchall = opd::register_kernel<pr_mt>(DispatchKey::CompositeImplicitAutograd, [&](const Tensor& x, const Tensor&) {
    catchall_called = true;
    return x;
  });
  const Tensor pu1_t = tensor_with_keys(DispatchKey::PrivateUse1), cpu_t = tensor_with_keys(DispatchKey::CPU);
  const Tensor pu1_grad = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1});
  const Tensor cpu_grad = cpu_requires_grad();

  (void)opd::call<pr_mt>(pu1_t, cpu_t);
  EXPECT_TRUE(privateuse1_called);
  EXPECT_FALSE(catchall_called);
  (void)opd::call<pr_mt>(cpu_t, cpu_t);
  EXPECT_TRUE(catchall_called);
  catchall_called = false;
  (void)opd::call<pr_mt>(cpu_grad, cpu_grad);
  EXPECT_TRUE(catchall_called);

  // The per-backend fallthrough: typed and boxed, in either argument order.
  for (const bool pu1_first : {true, false}) {
    privateuse1_called = catchall_called = false;
    (void)(pu1_first ? opd::call<pr_mt>(pu1_grad, cpu_grad) : opd::call<pr_mt>(cpu_grad, pu1_grad));
    EXPECT_TRUE(privateuse1_called) << pu1_first;
    EXPECT_FALSE(catchall_called) << pu1_first;
  }
  privateuse1_called = catchall_called = false;
  Stack s{pu1_grad, cpu_grad};
  opd::call_boxed<pr_mt>(s);
  EXPECT_TRUE(privateuse1_called);
  EXPECT_FALSE(catchall_called);

  // A kernel at AutogradPrivateUse1 itself then runs first.
  bool autograd_pu1_called = false;
  auto agpu1 = opd::register_kernel<pr_mt>(DispatchKey::AutogradPrivateUse1, [&](const Tensor& x, const Tensor&) {
    autograd_pu1_called = true;
    return x;
  });
  privateuse1_called = false;
  (void)opd::call<pr_mt>(pu1_grad, cpu_grad);
  EXPECT_TRUE(autograd_pu1_called);
  EXPECT_FALSE(privateuse1_called);
}

// The same mask with an autograd kernel below the fallthrough: a CPU
// autograd kernel is not run for a call whose backend is PrivateUse1, and
// still runs for CPU tensors alone; an error names the key the call ended at.
struct pr_mt2 : opd::op<"t_peer_reg::mt2(Tensor x, Tensor y) -> str"> {};
TEST(PeerOpRegistration, AutogradFallthroughOfTheCallsBackendSkipsOtherBackendsAutogradKernels) {
  auto agcpu = answer2<pr_mt2>(DispatchKey::AutogradCPU, "autograd_cpu");
  auto cpu = answer2<pr_mt2>(DispatchKey::CPU, "cpu");
  auto pu1 = answer2<pr_mt2>(DispatchKey::PrivateUse1, "pu1");
  const Tensor pu1_grad = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1});
  const Tensor cpu_grad = cpu_requires_grad();
  EXPECT_TRUE(falls_through(opd::entry_for<pr_mt2>(), DispatchKey::AutogradPrivateUse1));
  EXPECT_EQ(opd::call<pr_mt2>(pu1_grad, cpu_grad), "pu1");
  EXPECT_EQ(opd::call<pr_mt2>(cpu_grad, cpu_grad), "autograd_cpu");
  pu1 = opd::RegistrationHandle();
  expect_throw_containing([&] { (void)opd::call<pr_mt2>(pu1_grad, cpu_grad); },
                          {"t_peer_reg::mt2", "no kernel for dispatch key PrivateUse1"});
}

// AutogradXLAOverridesAutogradKernel (XLA played by PrivateUse1)
struct pr_agx : opd::op<"t_peer_reg::agx(Tensor self) -> str"> {};
TEST(PeerOpRegistration, AutogradPrivateUse1OverridesTheAutogradAlias) {
  auto ag = answer<pr_agx>(DispatchKey::Autograd, "autograd");
  auto agpu1 = answer<pr_agx>(DispatchKey::AutogradPrivateUse1, "autograd_pu1");
  EXPECT_EQ(opd::call<pr_agx>(tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1})),
            "autograd_pu1");
  EXPECT_EQ(opd::call<pr_agx>(cpu_requires_grad()), "autograd");
}

// whenRegisterWith{XLA,Lazy}KernelAndCatchAll_Autograd{XLA,Lazy}IsNotFilled
// (XLA and Lazy played by PrivateUse1 and PrivateUse2)
struct pr_notfilled : opd::op<"t_peer_reg::notfilled(Tensor self) -> str"> {};
TEST(PeerOpRegistration, AutogradKeysOfBackendsWithOwnKernelsAreNotFilledByCatchAll) {
  auto catchall = answer<pr_notfilled>(DispatchKey::CompositeImplicitAutograd, "catchall");
  auto pu1 = answer<pr_notfilled>(DispatchKey::PrivateUse1, "pu1");
  auto pu2 = answer<pr_notfilled>(DispatchKey::PrivateUse2, "pu2");
  const auto& e = opd::entry_for<pr_notfilled>();
  EXPECT_TRUE(falls_through(e, DispatchKey::AutogradPrivateUse1));
  EXPECT_TRUE(falls_through(e, DispatchKey::AutogradPrivateUse2));
  EXPECT_FALSE(falls_through(e, DispatchKey::AutogradCUDA));
  EXPECT_EQ(opd::call<pr_notfilled>(tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::AutogradPrivateUse1})),
            "pu1");
  EXPECT_EQ(opd::call<pr_notfilled>(tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse2, DispatchKey::AutogradPrivateUse2})),
            "pu2");
  EXPECT_EQ(opd::call<pr_notfilled>(cpu_requires_grad()), "catchall");
}

// getRegistrationsForDispatchKey: no dedicated call; the registry answers it
// from operator_names() and has_kernel_for().
TEST(PeerOpRegistration, RegistrationsForADispatchKeyCanBeListed) {
  auto& d = opd::Dispatcher::singleton();
  auto s1 = opd::declare("t_peer_reglist::a(Tensor self) -> ()");
  auto s2 = opd::declare("t_peer_reglist::b(Tensor self) -> ()");
  auto s3 = opd::declare("t_peer_reglist::c(Tensor self) -> ()");
  auto noop = [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {};
  auto k1 = opd::register_boxed_kernel("t_peer_reglist::a", DispatchKey::PrivateUse3, noop);
  auto k2 = opd::register_boxed_kernel("t_peer_reglist::c", DispatchKey::PrivateUse3, noop);
  auto k3 = opd::register_boxed_kernel("t_peer_reglist::b", DispatchKey::CPU, noop);
  auto list = [&](DispatchKey k) {
    std::vector<std::string> out;
    for (const auto& n : d.operator_names())
      if (n.rfind("t_peer_reglist::", 0) == 0 && d.entry(n).has_kernel_for(k)) out.push_back(n);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(list(DispatchKey::PrivateUse3), (std::vector<std::string>{"t_peer_reglist::a", "t_peer_reglist::c"}));
  EXPECT_EQ(list(DispatchKey::CPU), std::vector<std::string>{"t_peer_reglist::b"});
  k2.release();
  EXPECT_EQ(list(DispatchKey::PrivateUse3), std::vector<std::string>{"t_peer_reglist::a"});
}

// testAvailableArgTypes: scalar-like argument types survive boxed -> unboxed -> boxed.
// (Generator? gets an operator of its own: with it among these twelve
// arguments, g++ 12 at -O3 reports -Wmaybe-uninitialized on
// intrusive_ptr<GeneratorImpl>::ptr_ (intrusive_ptr.hpp) while destroying the
// boxed adapter's argument tuple (make_kernel.hpp), which -Werror turns into
// a Release build failure; -O2 and clang are clean, most likely a g++ false
// positive around std::optional. Reported to the lead.)
struct pr_types : opd::op<"t_peer_reg::types(float a, int b, bool c, str d, ScalarType e, Layout f, MemoryFormat g, "
                          "Device h, complex i, Scalar j, SymInt l) -> (float, int, bool, str, "
                          "ScalarType, Layout, MemoryFormat, Device, complex, Scalar, SymInt)"> {};
struct pr_gen : opd::op<"t_peer_reg::gen(str d, Scalar j, Generator? k) -> (str, Scalar, Generator?)"> {};
TEST(PeerOpRegistration, AvailableArgTypesRoundTrip) {
  // No tensor arguments: the Device argument picks the backend (CUDA here),
  // which the composite kernel serves.
  auto h = opd::register_kernel<pr_types>(
      DispatchKey::CompositeImplicitAutograd,
      [](double a, int64_t b, bool c, std::string_view d, opd::ScalarType e, opd::Layout f, opd::MemoryFormat g,
         opd::Device h, std::complex<double> i, const Scalar& j, int64_t l) {
        return std::make_tuple(a, b, c, std::string(d), e, f, g, h, i, j, l);
      });
  Stack s{1.5, int64_t{-7}, true, std::string("str"), opd::ScalarType::Half, opd::Layout::Sparse,
          opd::MemoryFormat::ChannelsLast, opd::Device::cuda(2), std::complex<double>(1, -2), Scalar(3.25),
          int64_t{1} << 40};
  const Stack in = s;
  opd::call_boxed<pr_types>(s);
  ASSERT_EQ(s.size(), 11u);
  EXPECT_EQ(s[0].to_double(), 1.5);
  EXPECT_EQ(s[1].to_int(), -7);
  EXPECT_EQ(s[2].to_bool(), true);
  EXPECT_EQ(s[3].to<std::string>(), "str");
  EXPECT_EQ(s[4].to<opd::ScalarType>(), opd::ScalarType::Half);
  EXPECT_EQ(s[5].to<opd::Layout>(), opd::Layout::Sparse);
  EXPECT_EQ(s[6].to<opd::MemoryFormat>(), opd::MemoryFormat::ChannelsLast);
  EXPECT_EQ(s[7].to_device(), opd::Device::cuda(2));
  EXPECT_EQ(s[8].to_complex_double(), std::complex<double>(1, -2));
  EXPECT_EQ(s[9].to_double(), 3.25);
  EXPECT_EQ(s[10].to_int(), int64_t{1} << 40);
  EXPECT_EQ(s, in);

  auto hg = opd::register_kernel<pr_gen>(DispatchKey::CPU, [](std::string_view d, const Scalar& j,
                                                               std::optional<opd::Generator> k) {
    return std::make_tuple(std::string(d), j, k);
  });
  const opd::Generator gen(42);
  Stack g{std::string("x"), Scalar(true), gen};
  opd::call_boxed<pr_gen>(g);
  ASSERT_EQ(g.size(), 3u);
  EXPECT_TRUE(g[1].to_bool());
  ASSERT_TRUE(g[2].is_generator());
  EXPECT_EQ(g[2].to_generator().seed(), 42u);
  Stack n{std::string("x"), Scalar(int64_t{1}), IValue()};
  opd::call_boxed<pr_gen>(n);
  EXPECT_TRUE(n.at(2).is_none());
  auto [d, j, k] = opd::call<pr_gen>(std::string_view("y"), Scalar(2.0), std::optional<opd::Generator>(gen));
  EXPECT_EQ(d, "y");
  EXPECT_EQ(k->seed(), 42u);
}

// BackendExtensionTest.TestRegisterOp: an out-of-tree backend (PrivateUse1)
// registers a factory and an operator; tensors it creates reach its kernels.
struct ext_empty : opd::op<"t_peer_ext::empty(int[] size, *, ScalarType? dtype=None, Device? device=None) -> Tensor"> {};
struct ext_add : opd::op<"t_peer_ext::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};
TEST(PeerBackendExtension, ExtensionBackendRegistersAFactoryAndAnOperator) {
  int empty_calls = 0, add_calls = 0;
  auto h1 = opd::register_kernel<ext_empty>(
      DispatchKey::PrivateUse1,
      [&](std::span<const int64_t> size, std::optional<opd::ScalarType> dtype, std::optional<opd::Device>) -> Tensor {
        ++empty_calls;
        Tensor t = opd::empty(opd::IntArrayRef(size.data(), size.size()), dtype.value_or(opd::ScalarType::Float),
                              opd::Device::meta());
        t.unsafe_get_impl()->set_key_set(DispatchKeySet(DispatchKey::PrivateUse1));
        return t;
      });
  auto h2 = opd::register_kernel<ext_add>(DispatchKey::PrivateUse1,
                                          [&](const Tensor& a, const Tensor&, const Scalar&) -> Tensor {
                                            ++add_calls;
                                            return a;
                                          });
  const std::vector<int64_t> size{5, 5};
  const Tensor a = opd::call<ext_empty>(std::span<const int64_t>(size),
                                        opd::arg<"device"> = std::optional<opd::Device>(opd::Device(opd::DeviceType::PrivateUse1)));
  EXPECT_EQ(empty_calls, 1);
  EXPECT_EQ(a.key_set(), DispatchKeySet(DispatchKey::PrivateUse1));
  const Tensor b = opd::call<ext_empty>(std::span<const int64_t>(size),
                                        opd::arg<"device"> = std::optional<opd::Device>(opd::Device(opd::DeviceType::PrivateUse1)));
  EXPECT_TRUE(opd::call<ext_add>(a, b).is_same(a));
  EXPECT_EQ(add_calls, 1);
  EXPECT_EQ(empty_calls, 2);
  // CPU has no kernels for these operators: the extension did not touch CPU.
  EXPECT_THROW(opd::call<ext_empty>(std::span<const int64_t>(size)), opd::NotImplementedError);
}

}  // namespace
