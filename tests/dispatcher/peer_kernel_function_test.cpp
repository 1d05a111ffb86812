// Ports of PyTorch's KernelFunction_test (KernelFunctionTest.*),
// kernel_stackbased_test (OperatorRegistrationTest_StackBasedKernel.*) and
// CppSignature_test (CppSignatureTest.*).
//
// opd::KernelFunction is what a dispatch table slot holds: a boxed entry
// (always) and an unboxed entry (kernels made from typed callables). The
// KernelFunction tests build kernels with opd::make_kernel /
// opd::make_boxed_kernel and call those entry points directly; a boxed
// function is called with the unboxed convention through the dispatcher
// (which boxes the arguments for it).
#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::KernelFunction;
using opd::Scalar;
using opd::Stack;
using opd::Tensor;

const DispatchKeySet kCPUSet(DispatchKey::CPU);

template <class Op>
void call_boxed_entry(const KernelFunction& k, Stack& s) {
  ASSERT_NE(k.boxed, nullptr);
  k.boxed(k.functor, opd::entry_for<Op>(), kCPUSet, &s);
}

// Calls a KernelFunction's unboxed entry with Op's kernel signature.
template <class Op, class Sig = opd::schema::kernel_signature_t<Op>>
struct unboxed_entry;
template <class Op, class R, class... Args>
struct unboxed_entry<Op, R(Args...)> {
  static R call(const KernelFunction& k, Args... args) {
    EXPECT_NE(k.unboxed, nullptr);
    using fn = R (*)(void*, DispatchKeySet, Args...);
    return reinterpret_cast<fn>(k.unboxed)(k.functor, kCPUSet, std::forward<Args>(args)...);
  }
};

// ------------------------------------------------------ boxed functions --

struct kf_ret : opd::op<"t_peer_kf::ret(int a, int b) -> int"> {};
struct kf_noret : opd::op<"t_peer_kf::noret(int a, int b) -> ()"> {};
struct kf_multi : opd::op<"t_peer_kf::multi(Tensor a, Tensor b, Scalar s) -> (Tensor, Tensor)"> {};
struct kf_inplace : opd::op<"t_peer_kf::add_(Tensor(a!) self, Tensor other, Scalar alpha) -> Tensor(a!)"> {};
struct kf_outplace : opd::op<"t_peer_kf::add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct kf_outmulti
    : opd::op<"t_peer_kf::minmax.out(Tensor self, *, Tensor(a!) min, Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)"> {};

int64_t boxed_noret_seen = 0;
void boxed_ret(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  const int64_t b = s->back().to_int();
  s->pop_back();
  const int64_t a = s->back().to_int();
  s->pop_back();
  s->push_back(IValue(a + b));
}
void boxed_noret(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  boxed_noret_seen = (*s)[s->size() - 2].to_int() * 10 + s->back().to_int();
  s->resize(s->size() - 2);
}
void boxed_multi(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  const Tensor b = (*s)[s->size() - 2].to_tensor(), a = (*s)[s->size() - 3].to_tensor();
  s->resize(s->size() - 3);
  s->push_back(IValue(b));
  s->push_back(IValue(a));
}
void boxed_inplace(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  const double alpha = s->back().to_scalar().to<double>();
  const float other = opd::to_vector<float>((*s)[s->size() - 2].to_tensor())[0];
  Tensor self = (*s)[s->size() - 3].to_tensor();
  self.data_ptr<float>()[0] += static_cast<float>(alpha * other);
  s->resize(s->size() - 3);
  s->push_back(IValue(self));
}
void boxed_outplace(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  Tensor out = s->back().to_tensor();
  out.data_ptr<float>()[0] =
      opd::to_vector<float>((*s)[s->size() - 3].to_tensor())[0] + opd::to_vector<float>((*s)[s->size() - 2].to_tensor())[0];
  s->resize(s->size() - 3);
  s->push_back(IValue(out));
}
void boxed_outmulti(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  const std::vector<float> x = opd::to_vector<float>((*s)[s->size() - 3].to_tensor());
  Tensor mn = (*s)[s->size() - 2].to_tensor(), mx = s->back().to_tensor();
  mn.data_ptr<float>()[0] = *std::min_element(x.begin(), x.end());
  mx.data_ptr<float>()[0] = *std::max_element(x.begin(), x.end());
  s->resize(s->size() - 3);
  s->push_back(IValue(mn));
  s->push_back(IValue(mx));
}

TEST(PeerKernelFunction, BoxedFunctionWithReturn) {
  const KernelFunction k = KernelFunction::make_boxed<&boxed_ret>();
  EXPECT_EQ(k.unboxed, nullptr);
  Stack s{int64_t{3}, int64_t{4}};
  call_boxed_entry<kf_ret>(k, s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int(), 7);
  // Called with the unboxed convention (the dispatcher boxes the arguments).
  auto h = opd::register_boxed_kernel<kf_ret>(DispatchKey::CPU, &boxed_ret);
  EXPECT_EQ(opd::call<kf_ret>(int64_t{10}, int64_t{5}), 15);
}

TEST(PeerKernelFunction, BoxedFunctionWithoutReturn) {
  const KernelFunction k = KernelFunction::make_boxed<&boxed_noret>();
  Stack s{int64_t{3}, int64_t{4}};
  call_boxed_entry<kf_noret>(k, s);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(boxed_noret_seen, 34);
  auto h = opd::register_boxed_kernel<kf_noret>(DispatchKey::CPU, &boxed_noret);
  opd::call<kf_noret>(int64_t{5}, int64_t{6});
  EXPECT_EQ(boxed_noret_seen, 56);
}

TEST(PeerKernelFunction, BoxedFunctionWithMultiReturn) {
  const KernelFunction k = opd::make_boxed_kernel(&boxed_multi);
  const Tensor a = cpu_floats({1.f}), b = cpu_floats({2.f});
  Stack s{a, b, Scalar(int64_t{1})};
  call_boxed_entry<kf_multi>(k, s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s[0].to_tensor().is_same(b));
  EXPECT_TRUE(s[1].to_tensor().is_same(a));
  auto h = opd::register_boxed_kernel<kf_multi>(DispatchKey::CPU, &boxed_multi);
  auto [x, y] = opd::call<kf_multi>(a, b, Scalar(int64_t{1}));
  EXPECT_TRUE(x.is_same(b));
  EXPECT_TRUE(y.is_same(a));
}

TEST(PeerKernelFunction, BoxedFunctionWithInPlaceSignature) {
  const KernelFunction k = opd::make_boxed_kernel(&boxed_inplace);
  Tensor self = cpu_floats({1.f});
  Stack s{self, cpu_floats({2.f}), Scalar(3.0)};
  call_boxed_entry<kf_inplace>(k, s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(self));
  EXPECT_EQ(opd::to_vector<float>(self), std::vector<float>{7.f});
  auto h = opd::register_boxed_kernel<kf_inplace>(DispatchKey::CPU, &boxed_inplace);
  Tensor& r = opd::call<kf_inplace>(self, cpu_floats({1.f}), Scalar(int64_t{1}));
  EXPECT_EQ(&r, &self);  // the caller's own Tensor, not a copy of the handle
  EXPECT_EQ(opd::to_vector<float>(self), std::vector<float>{8.f});
}

TEST(PeerKernelFunction, BoxedFunctionWithOutOfPlaceSignature) {
  const KernelFunction k = opd::make_boxed_kernel(&boxed_outplace);
  Tensor out = cpu_floats({0.f});
  Stack s{cpu_floats({1.f}), cpu_floats({2.f}), out};
  call_boxed_entry<kf_outplace>(k, s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(out));
  EXPECT_EQ(opd::to_vector<float>(out), std::vector<float>{3.f});
  auto h = opd::register_boxed_kernel<kf_outplace>(DispatchKey::CPU, &boxed_outplace);
  Tensor& r = opd::call<kf_outplace>(cpu_floats({4.f}), cpu_floats({5.f}), out);
  EXPECT_EQ(&r, &out);
  EXPECT_EQ(opd::to_vector<float>(out), std::vector<float>{9.f});
}

TEST(PeerKernelFunction, BoxedFunctionWithOutOfPlaceMultiSignature) {
  const KernelFunction k = opd::make_boxed_kernel(&boxed_outmulti);
  Tensor mn = cpu_floats({0.f}), mx = cpu_floats({0.f});
  Stack s{cpu_floats({2.f, -1.f, 5.f}), mn, mx};
  call_boxed_entry<kf_outmulti>(k, s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s[0].to_tensor().is_same(mn));
  EXPECT_TRUE(s[1].to_tensor().is_same(mx));
  auto h = opd::register_boxed_kernel<kf_outmulti>(DispatchKey::CPU, &boxed_outmulti);
  auto r = opd::call<kf_outmulti>(cpu_floats({7.f, 3.f}), mn, mx);
  static_assert(std::is_same_v<decltype(r), std::tuple<Tensor&, Tensor&>>);
  EXPECT_EQ(&std::get<0>(r), &mn);
  EXPECT_EQ(&std::get<1>(r), &mx);
  EXPECT_EQ(opd::to_vector<float>(mn), std::vector<float>{3.f});
  EXPECT_EQ(opd::to_vector<float>(mx), std::vector<float>{7.f});
}

// ------------------------------------------------ unboxed kernels, each form --

int64_t unboxed_ret_fn(int64_t a, int64_t b) { return a * 10 + b; }
int64_t unboxed_noret_seen = 0;
void unboxed_noret_fn(int64_t a, int64_t b) { unboxed_noret_seen = a * 10 + b; }

struct ret_functor {
  int64_t calls = 0;
  int64_t operator()(int64_t a, int64_t b) {
    ++calls;
    return unboxed_ret_fn(a, b);
  }
};
struct noret_functor {
  void operator()(int64_t a, int64_t b) const { unboxed_noret_fn(a, b); }
};

struct UnboxedFunction {
  static KernelFunction with_return() { return opd::make_kernel<kf_ret, &unboxed_ret_fn>(); }
  static KernelFunction without_return() { return opd::make_kernel<kf_noret, &unboxed_noret_fn>(); }
};
struct UnboxedRuntimeFunction {
  static KernelFunction with_return() { return opd::make_kernel<kf_ret>(&unboxed_ret_fn); }
  static KernelFunction without_return() { return opd::make_kernel<kf_noret>(&unboxed_noret_fn); }
};
struct UnboxedLambda {
  static KernelFunction with_return() {
    return opd::make_kernel<kf_ret>([](int64_t a, int64_t b) -> int64_t { return a * 10 + b; });
  }
  static KernelFunction without_return() {
    return opd::make_kernel<kf_noret>([](int64_t a, int64_t b) { unboxed_noret_seen = a * 10 + b; });
  }
};
struct UnboxedFunctor {
  static KernelFunction with_return() { return opd::make_kernel<kf_ret>(ret_functor{}); }
  static KernelFunction without_return() { return opd::make_kernel<kf_noret>(noret_functor{}); }
};

template <class Form>
class PeerKernelFunction : public ::testing::Test {};
using UnboxedForms = ::testing::Types<UnboxedFunction, UnboxedRuntimeFunction, UnboxedLambda, UnboxedFunctor>;
class UnboxedFormNames {
 public:
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, UnboxedFunction>) return "UnboxedFunction";
    if (std::is_same_v<T, UnboxedRuntimeFunction>) return "UnboxedRuntimeFunction";
    if (std::is_same_v<T, UnboxedLambda>) return "UnboxedLambda";
    return "UnboxedFunctor";
  }
};
TYPED_TEST_SUITE(PeerKernelFunction, UnboxedForms, UnboxedFormNames);

TYPED_TEST(PeerKernelFunction, WithReturnCalledBoxedAndUnboxed) {
  const KernelFunction k = TypeParam::with_return();
  EXPECT_TRUE(k.is_valid());
  EXPECT_FALSE(k.fallthrough);
  Stack s{int64_t{3}, int64_t{4}};
  call_boxed_entry<kf_ret>(k, s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int(), 34);
  EXPECT_EQ(unboxed_entry<kf_ret>::call(k, 5, 6), 56);
}

TYPED_TEST(PeerKernelFunction, WithoutReturnCalledBoxedAndUnboxed) {
  const KernelFunction k = TypeParam::without_return();
  unboxed_noret_seen = 0;
  Stack s{int64_t{3}, int64_t{4}};
  call_boxed_entry<kf_noret>(k, s);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(unboxed_noret_seen, 34);
  unboxed_entry<kf_noret>::call(k, 7, 8);
  EXPECT_EQ(unboxed_noret_seen, 78);
}

TEST(PeerKernelFunction, FunctorStateIsSharedByBothEntriesAndCopies) {
  KernelFunction k = opd::make_kernel<kf_ret>(ret_functor{});
  const KernelFunction copy = k;  // a table slot copy keeps the same functor alive
  Stack s{int64_t{1}, int64_t{2}};
  call_boxed_entry<kf_ret>(k, s);
  unboxed_entry<kf_ret>::call(copy, 1, 2);
  EXPECT_EQ(static_cast<ret_functor*>(k.functor)->calls, 2);
  k = KernelFunction();
  EXPECT_EQ(unboxed_entry<kf_ret>::call(copy, 2, 3), 23);
}

TEST(PeerKernelFunction, FallthroughAndEmptyKernels) {
  EXPECT_FALSE(KernelFunction().is_valid());
  const KernelFunction ft = KernelFunction::make_fallthrough();
  EXPECT_TRUE(ft.is_valid());
  EXPECT_TRUE(ft.fallthrough);
  // An empty kernel cannot be registered.
  EXPECT_THROW((void)opd::Dispatcher::singleton().register_kernel(opd::entry_for<kf_ret>(), DispatchKey::CPU, KernelFunction()),
               opd::Error);
}

// --------------------------------------------------------- stack-based --

struct sb_op : opd::op<"t_peer_sb::op(Tensor dummy, int input) -> int"> {};
struct sb_op2 : opd::op<"t_peer_sb::op2(Tensor dummy, int input) -> int"> {};
struct sb_noargs : opd::op<"t_peer_sb::noargs() -> ()"> {};
struct sb_notensor : opd::op<"t_peer_sb::notensor(int arg) -> int"> {};

template <int64_t Offset>
void add_offset(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  const int64_t x = s->back().to_int();
  s->resize(s->size() - 2);
  s->push_back(IValue(x + Offset));
}

// givenKernel_whenRegistered_thenCanBeCalled / ..._thenCanAlsoBeCalledUnboxed
TEST(PeerStackBasedKernel, CanBeCalledBoxedAndUnboxed) {
  auto h = opd::register_boxed_kernel<sb_op>(DispatchKey::CPU, &add_offset<1>);
  Stack s{cpu_floats({0.f}), int64_t{3}};
  opd::call_boxed<sb_op>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int(), 4);
  EXPECT_EQ(opd::call<sb_op>(cpu_floats({0.f}), int64_t{10}), 11);
  EXPECT_THROW(opd::call<sb_op>(tensor_with_keys(DispatchKey::CUDA), int64_t{10}), opd::NotImplementedError);
}

// givenMultipleOperatorsAndKernels_whenRegisteredIn{One,Multiple}Registrar(s)_thenCallsRightKernel
TEST(PeerStackBasedKernel, MultipleOperatorsAndKernelsInOneOrSeveralRegistrars) {
  const Tensor cpu = cpu_floats({0.f}), cuda = tensor_with_keys(DispatchKey::CUDA);
  auto check = [&] {
    EXPECT_EQ(opd::call<sb_op>(cpu, int64_t{0}), 10);
    EXPECT_EQ(opd::call<sb_op>(cuda, int64_t{0}), 20);
    EXPECT_EQ(opd::call<sb_op2>(cpu, int64_t{0}), 30);
    EXPECT_EQ(opd::call<sb_op2>(cuda, int64_t{0}), 40);
  };
  {
    opd::RegistrationSet lib;
    lib.add(opd::register_boxed_kernel<sb_op>(DispatchKey::CPU, &add_offset<10>));
    lib.add(opd::register_boxed_kernel<sb_op>(DispatchKey::CUDA, &add_offset<20>));
    lib.add(opd::register_boxed_kernel<sb_op2>(DispatchKey::CPU, &add_offset<30>));
    lib.add(opd::register_boxed_kernel<sb_op2>(DispatchKey::CUDA, &add_offset<40>));
    check();
  }
  auto a = opd::register_boxed_kernel<sb_op>(DispatchKey::CPU, &add_offset<10>);
  auto b = opd::register_boxed_kernel<sb_op>(DispatchKey::CUDA, &add_offset<20>);
  auto c = opd::register_boxed_kernel<sb_op2>(DispatchKey::CPU, &add_offset<30>);
  auto d = opd::register_boxed_kernel<sb_op2>(DispatchKey::CUDA, &add_offset<40>);
  check();
}

// givenKernel_whenRegistrationRunsOutOfScope_thenCannotBeCalledAnymore
TEST(PeerStackBasedKernel, RegistrationRunningOutOfScopeRemovesTheKernel) {
  {
    auto h = opd::register_boxed_kernel<sb_op>(DispatchKey::CPU, &add_offset<1>);
    EXPECT_EQ(opd::call<sb_op>(cpu_floats({0.f}), int64_t{1}), 2);
  }
  EXPECT_THROW(opd::call<sb_op>(cpu_floats({0.f}), int64_t{1}), opd::NotImplementedError);
}

// givenFallbackKernelWithoutAnyArguments / ...WithoutTensorArguments (catch-all)
TEST(PeerStackBasedKernel, CatchAllKernelWithoutTensorArguments) {
  int calls = 0;
  auto h1 = opd::register_boxed_kernel<sb_noargs>(DispatchKey::CompositeImplicitAutograd,
                                                  [&](const opd::OperatorEntry&, DispatchKeySet, Stack*) { ++calls; });
  Stack s;
  opd::call_boxed<sb_noargs>(s);
  opd::call<sb_noargs>();
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(s.size(), 0u);
  auto h2 = opd::register_boxed_kernel<sb_notensor>(DispatchKey::CompositeImplicitAutograd,
                                                    [](const opd::OperatorEntry&, DispatchKeySet, Stack* st) {
                                                      st->back() = IValue(st->back().to_int() + 1);
                                                    });
  Stack s2{int64_t{3}};
  opd::call_boxed<sb_notensor>(s2);
  EXPECT_EQ(s2.at(0).to_int(), 4);
  EXPECT_EQ(opd::call<sb_notensor>(int64_t{5}), 6);
}

// callKernelsWithDispatchKeySetConvention_redispatchesToLowerPriorityKernels
struct sb_chain : opd::op<"t_peer_sb::chain(Tensor self, str path) -> str"> {};
template <DispatchKey Own>
void boxed_layer(const opd::OperatorEntry& op, DispatchKeySet ks, Stack* s) {
  s->back() = IValue(s->back().to<std::string>() + std::string(opd::to_string(Own)) + ">");
  opd::redispatch_boxed(op, ks & DispatchKeySet::full_after(Own), *s);
}
TEST(PeerStackBasedKernel, DispatchKeySetConventionRedispatchesToLowerPriorityKernels) {
  auto h1 = opd::register_boxed_kernel<sb_chain>(DispatchKey::Tracer, &boxed_layer<DispatchKey::Tracer>);
  auto h2 = opd::register_boxed_kernel<sb_chain>(DispatchKey::AutogradCPU, &boxed_layer<DispatchKey::AutogradCPU>);
  auto h3 = opd::register_boxed_kernel<sb_chain>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet ks, Stack* s) {
    EXPECT_EQ(ks, DispatchKeySet(DispatchKey::CPU));
    std::string p = s->back().to<std::string>() + "CPU";
    s->resize(s->size() - 2);
    s->push_back(IValue(p));
  });
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::Tracer, DispatchKey::AutogradCPU, DispatchKey::CPU});
  Stack s{x, std::string("")};
  opd::call_boxed<sb_chain>(s);
  EXPECT_EQ(s.at(0).to<std::string>(), "Tracer>AutogradCPU>CPU");
  EXPECT_EQ(opd::call<sb_chain>(x, std::string_view("")), "Tracer>AutogradCPU>CPU");
}

// ------------------------------------------------------------ signatures --

struct sig_a : opd::op<"t_peer_sig::a(Tensor self, int n) -> Tensor"> {};
struct sig_b : opd::op<"t_peer_sig::b(Tensor other, SymInt m) -> Tensor"> {};   // same C++ signature
struct sig_c : opd::op<"t_peer_sig::c(Tensor self, float n) -> Tensor"> {};     // different
Tensor sig_fn(const Tensor& t, int64_t) { return t; }
struct sig_functor {
  Tensor operator()(const Tensor& t, int64_t) const { return t; }
};
struct sig_other_functor {
  Tensor operator()(const Tensor& t, double) const { return t; }
};

TEST(PeerCppSignature, EqualSignaturesAreEqual) {
  static_assert(std::is_same_v<opd::schema::kernel_signature_t<sig_a>, opd::schema::kernel_signature_t<sig_b>>);
  static_assert(std::is_same_v<opd::schema::kernel_signature_t<sig_a>, Tensor(const Tensor&, int64_t)>);
  static_assert(opd::schema::kernel_matches_v<sig_b, decltype(&sig_fn)>);
  // One kernel serves both operators.
  auto ha = opd::register_kernel<sig_a, &sig_fn>(DispatchKey::CPU);
  auto hb = opd::register_kernel<sig_b, &sig_fn>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  EXPECT_TRUE(opd::call<sig_a>(x, int64_t{1}).is_same(x));
  EXPECT_TRUE(opd::call<sig_b>(x, int64_t{1}).is_same(x));
}

TEST(PeerCppSignature, DifferentSignaturesAreDifferent) {
  static_assert(!std::is_same_v<opd::schema::kernel_signature_t<sig_a>, opd::schema::kernel_signature_t<sig_c>>);
  static_assert(!opd::schema::kernel_matches_v<sig_c, decltype(&sig_fn)>);
  static_assert(!opd::schema::kernel_matches_v<sig_a, sig_other_functor>);
  SUCCEED();
}

TEST(PeerCppSignature, FunctorAndFunctionWithTheSameSignatureAreEqual) {
  static_assert(opd::schema::kernel_matches_v<sig_a, sig_functor>);
  static_assert(opd::schema::kernel_matches_v<sig_a, decltype(sig_fn)>);
  static_assert(opd::schema::kernel_matches_v<sig_a, decltype(&sig_fn)>);
  // Both kernels get the same unboxed entry type: a typed call reaches either.
  const Tensor x = cpu_floats({1.f});
  {
    auto h = opd::register_kernel<sig_a>(DispatchKey::CPU, sig_functor{});
    EXPECT_TRUE(opd::call<sig_a>(x, int64_t{2}).is_same(x));
  }
  auto h = opd::register_kernel<sig_a, &sig_fn>(DispatchKey::CPU);
  EXPECT_TRUE(opd::call<sig_a>(x, int64_t{2}).is_same(x));
}

TEST(PeerCppSignature, FunctorAndFunctionWithDifferentSignaturesAreDifferent) {
  static_assert(opd::schema::kernel_matches_v<sig_c, sig_other_functor>);
  static_assert(!opd::schema::kernel_matches_v<sig_c, decltype(&sig_fn)>);
  static_assert(!opd::schema::kernel_matches_v<sig_a, sig_other_functor>);
  SUCCEED();
}

}  // namespace
