// Backend fallbacks (boxed kernels serving every operator at one key),
// fallthrough kernels (per operator and as a fallback), and
// opd::call_fallback from inside an unboxed kernel.
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <dispatch/schema/queries.hpp>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Stack;
using opd::Tensor;

const opd::Device kPU1Device(opd::DeviceType::PrivateUse1, 0);

// ------------------------------------------- a "device" backed by CPU kernels --

struct pu1_mul : opd::op<"t_fb_pu1::mul(Tensor self, Tensor other) -> Tensor"> {};
struct pu1_add_ : opd::op<"t_fb_pu1::add_(Tensor(a!) self, Tensor other) -> Tensor(a!)"> {};
struct pu1_add_out : opd::op<"t_fb_pu1::add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct pu1_split : opd::op<"t_fb_pu1::split(Tensor self) -> (Tensor, Tensor)"> {};

Tensor cpu_mul(const Tensor& a, const Tensor& b) {
  EXPECT_TRUE(a.is_cpu() && b.is_cpu());
  std::vector<float> x = opd::to_vector<float>(a), y = opd::to_vector<float>(b);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] *= y[i];
  return cpu_floats(x);
}
Tensor& cpu_add_(Tensor& self, const Tensor& other) {
  EXPECT_TRUE(self.is_cpu() && other.is_cpu());
  float* p = self.data_ptr<float>();
  const std::vector<float> y = opd::to_vector<float>(other);
  for (std::size_t i = 0; i < y.size(); ++i) p[i] += y[i];
  return self;
}
Tensor& cpu_add_out(const Tensor& self, const Tensor& other, Tensor& out) {
  const std::vector<float> x = opd::to_vector<float>(self), y = opd::to_vector<float>(other);
  float* p = out.data_ptr<float>();
  for (std::size_t i = 0; i < x.size(); ++i) p[i] = x[i] + y[i];
  return out;
}
std::tuple<Tensor, Tensor> cpu_split(const Tensor& self) {
  const std::vector<float> x = opd::to_vector<float>(self);
  return {cpu_floats({x.front()}), cpu_floats({x.back()})};
}

int pu1_fallback_calls = 0;
bool pu1_fallback_uses_call_boxed = false;

// PrivateUse1's fallback: copy every PrivateUse1 tensor argument to the CPU,
// run the CPU kernel, write mutated arguments back, and move results back to
// the device (a result aliasing a mutated argument becomes that argument).
void pu1_to_cpu_fallback(const opd::OperatorEntry& op, DispatchKeySet ks, Stack* stack) {
  ++pu1_fallback_calls;
  EXPECT_TRUE(ks.has(DispatchKey::PrivateUse1));
  const auto& s = op.schema().value();
  const std::size_t n = s.arguments.size(), base = stack->size() - n;
  struct moved {
    std::size_t position;
    Tensor original, on_cpu;
  };
  std::vector<moved> moves;
  for (std::size_t i = 0; i < n; ++i) {
    IValue& v = (*stack)[base + i];
    if (v.is_tensor() && v.to_tensor().device().type() == opd::DeviceType::PrivateUse1) {
      moved m{i, v.to_tensor(), copy_to(v.to_tensor(), opd::Device::cpu())};
      v = IValue(m.on_cpu);
      moves.push_back(std::move(m));
    }
  }
  if (pu1_fallback_uses_call_boxed)
    opd::call_boxed(op, *stack);  // the key set now comes from CPU tensors
  else
    opd::redispatch_boxed(op, DispatchKeySet(DispatchKey::CPU), *stack);
  for (const moved& m : moves)
    if (opd::schema::is_write(s, s.arguments[m.position]))
      std::memcpy(m.original.data_ptr(), m.on_cpu.data_ptr(), m.original.nbytes());
  for (std::size_t r = base; r < stack->size(); ++r) {
    IValue& v = (*stack)[r];
    if (!v.is_tensor()) continue;
    const Tensor& result = v.to_tensor();
    Tensor back;
    for (const moved& m : moves)
      if (result.is_same(m.on_cpu)) back = m.original;
    v = IValue(back.defined() ? back : copy_to(result, kPU1Device));
  }
}

class DispatcherFallbackPU1 : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    pu1_fallback_calls = 0;
    pu1_fallback_uses_call_boxed = GetParam();
  }
  ScopedHostAllocator device_memory_{opd::DeviceType::PrivateUse1};
  opd::RegistrationSet regs_;
};

TEST_P(DispatcherFallbackPU1, MovesInputsToCpuRunsTheCpuKernelAndMovesResultsBack) {
  regs_.add(opd::register_fallback(DispatchKey::PrivateUse1, &pu1_to_cpu_fallback));
  regs_.add(opd::register_kernel<pu1_mul, &cpu_mul>(DispatchKey::CPU));
  regs_.add(opd::register_kernel<pu1_split, &cpu_split>(DispatchKey::CPU));
  const Tensor a = copy_to(cpu_floats({1.f, 2.f, 3.f}), kPU1Device);
  const Tensor b = copy_to(cpu_floats({4.f, 5.f, 6.f}), kPU1Device);
  ASSERT_EQ(a.key_set(), DispatchKeySet(DispatchKey::PrivateUse1));

  const Tensor c = opd::call<pu1_mul>(a, b);
  EXPECT_EQ(pu1_fallback_calls, 1);
  EXPECT_EQ(c.device().type(), opd::DeviceType::PrivateUse1);
  EXPECT_EQ(floats_of(c), (std::vector<float>{4.f, 10.f, 18.f}));

  // Boxed callers get the same.
  Stack s{a, b};
  opd::call_boxed<pu1_mul>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_tensor().device().type(), opd::DeviceType::PrivateUse1);
  EXPECT_EQ(floats_of(s[0].to_tensor()), (std::vector<float>{4.f, 10.f, 18.f}));

  // Several results.
  auto [first, last] = opd::call<pu1_split>(a);
  EXPECT_EQ(first.device().type(), opd::DeviceType::PrivateUse1);
  EXPECT_EQ(floats_of(first), std::vector<float>{1.f});
  EXPECT_EQ(floats_of(last), std::vector<float>{3.f});
  EXPECT_EQ(pu1_fallback_calls, 3);

  // CPU tensors never reach the fallback.
  EXPECT_EQ(opd::to_vector<float>(opd::call<pu1_mul>(cpu_floats({2.f}), cpu_floats({3.f}))), std::vector<float>{6.f});
  EXPECT_EQ(pu1_fallback_calls, 3);
}

TEST_P(DispatcherFallbackPU1, InPlaceAndOutOpsReturnTheCallersTensor) {
  regs_.add(opd::register_fallback(DispatchKey::PrivateUse1, &pu1_to_cpu_fallback));
  regs_.add(opd::register_kernel<pu1_add_, &cpu_add_>(DispatchKey::CPU));
  regs_.add(opd::register_kernel<pu1_add_out, &cpu_add_out>(DispatchKey::CPU));
  Tensor a = copy_to(cpu_floats({1.f, 2.f}), kPU1Device);
  const Tensor b = copy_to(cpu_floats({10.f, 20.f}), kPU1Device);

  Tensor& r = opd::call<pu1_add_>(a, b);
  EXPECT_EQ(&r, &a);
  EXPECT_EQ(floats_of(a), (std::vector<float>{11.f, 22.f}));

  Tensor out = copy_to(cpu_floats({0.f, 0.f}), kPU1Device);
  Tensor& o = opd::call<pu1_add_out>(a, b, out);
  EXPECT_EQ(&o, &out);
  EXPECT_EQ(floats_of(out), (std::vector<float>{21.f, 42.f}));
  EXPECT_EQ(floats_of(a), (std::vector<float>{11.f, 22.f}));
  EXPECT_EQ(pu1_fallback_calls, 2);

  // Boxed: the result is the caller's tensor object (same TensorImpl).
  Stack s{a, b};
  opd::call_boxed<pu1_add_>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(a));
  EXPECT_EQ(floats_of(a), (std::vector<float>{21.f, 42.f}));
}

INSTANTIATE_TEST_SUITE_P(RedispatchBoxedOrCallBoxed, DispatcherFallbackPU1, ::testing::Bool());

// The raw boxed-function form (void* functor first).
void pu1_raw_fallback(void*, const opd::OperatorEntry& op, DispatchKeySet ks, Stack* s) { pu1_to_cpu_fallback(op, ks, s); }

// An unboxed PrivateUse1 kernel that handles some inputs itself and hands the
// rest to the boxed fallback with opd::call_fallback.
int pu1_kernel_calls = 0;
Tensor& pu1_add_kernel(Tensor& self, const Tensor& other) {
  ++pu1_kernel_calls;
  if (other.numel() == 1) {  // a fast path of its own
    float* p = static_cast<float*>(self.data_ptr());
    const float v = *static_cast<const float*>(other.data_ptr());
    for (int64_t i = 0; i < self.numel(); ++i) p[i] += v;
    return self;
  }
  return opd::call_fallback<&pu1_raw_fallback, pu1_add_>(self, other);
}
Tensor pu1_mul_kernel(const Tensor& a, const Tensor& b) { return opd::call_fallback<&pu1_raw_fallback, pu1_mul>(a, b); }

TEST(DispatcherFallback, CallFallbackFromAnUnboxedKernel) {
  ScopedHostAllocator device_memory(opd::DeviceType::PrivateUse1);
  pu1_fallback_calls = pu1_kernel_calls = 0;
  pu1_fallback_uses_call_boxed = false;
  auto h1 = opd::register_kernel<pu1_add_, &pu1_add_kernel>(DispatchKey::PrivateUse1);
  auto h2 = opd::register_kernel<pu1_add_, &cpu_add_>(DispatchKey::CPU);
  auto h3 = opd::register_kernel<pu1_mul, &pu1_mul_kernel>(DispatchKey::PrivateUse1);
  auto h4 = opd::register_kernel<pu1_mul, &cpu_mul>(DispatchKey::CPU);
  // No fallback is registered at PrivateUse1: call_fallback calls it directly.
  ASSERT_FALSE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse1));

  Tensor a = copy_to(cpu_floats({1.f, 2.f}), kPU1Device);
  Tensor& r1 = opd::call<pu1_add_>(a, copy_to(cpu_floats({5.f}), kPU1Device));
  EXPECT_EQ(&r1, &a);
  EXPECT_EQ(pu1_fallback_calls, 0);
  Tensor& r2 = opd::call<pu1_add_>(a, copy_to(cpu_floats({10.f, 100.f}), kPU1Device));
  EXPECT_EQ(&r2, &a);  // through the boxed fallback, still the caller's tensor
  EXPECT_EQ(pu1_fallback_calls, 1);
  EXPECT_EQ(pu1_kernel_calls, 2);
  EXPECT_EQ(floats_of(a), (std::vector<float>{16.f, 107.f}));

  const Tensor m = opd::call<pu1_mul>(a, a);
  EXPECT_EQ(pu1_fallback_calls, 2);
  EXPECT_EQ(m.device().type(), opd::DeviceType::PrivateUse1);
  EXPECT_EQ(floats_of(m), (std::vector<float>{256.f, 107.f * 107.f}));
}

// call_fallback with a fallback written as void(const OperatorEntry&, DispatchKeySet, Stack*).
// (Regression: with g++ 12 this form did not compile -- the adapter lambda in
// call.hpp "has no linkage" and could not be a template argument.)
Tensor pu1_mul_plain_kernel(const Tensor& a, const Tensor& b) {
  return opd::call_fallback<&pu1_to_cpu_fallback, pu1_mul>(a, b);
}

TEST(DispatcherFallback, CallFallbackWithAPlainBoxedFunction) {
  ScopedHostAllocator device_memory(opd::DeviceType::PrivateUse1);
  pu1_fallback_calls = 0;
  pu1_fallback_uses_call_boxed = false;
  auto h1 = opd::register_kernel<pu1_mul, &pu1_mul_plain_kernel>(DispatchKey::PrivateUse1);
  auto h2 = opd::register_kernel<pu1_mul, &cpu_mul>(DispatchKey::CPU);
  const Tensor a = copy_to(cpu_floats({3.f}), kPU1Device);
  EXPECT_EQ(floats_of(opd::call<pu1_mul>(a, a)), std::vector<float>{9.f});
  EXPECT_EQ(pu1_fallback_calls, 1);
}

// ------------------------------------------------------------ mode fallback --

struct mode_a : opd::op<"t_fb_mode::a(Tensor self) -> Tensor"> {};
struct mode_b : opd::op<"t_fb_mode::b(Tensor self, int n) -> int"> {};

TEST(DispatcherFallback, ModeFallbackSeesEveryOperatorWhileTheModeIsOn) {
  std::vector<std::string> log;
  bool exclude_nested = false;
  auto fb = opd::register_fallback(DispatchKey::Tracer, [&](const opd::OperatorEntry& op, DispatchKeySet ks, Stack* s) {
    log.push_back(op.name());
    if (exclude_nested) {
      opd::ExcludeDispatchKeyGuard off(DispatchKey::Tracer);
      opd::call_boxed(op, *s);
    } else {
      opd::redispatch_boxed(op, ks.remove(DispatchKey::Tracer), *s);
    }
  });
  // a's CPU kernel calls b: a nested call.
  auto ha = opd::register_kernel<mode_a>(DispatchKey::CPU, [](const Tensor& t) -> Tensor {
    EXPECT_EQ(opd::call<mode_b>(t, int64_t{1}), 2);
    return t;
  });
  auto hb = opd::register_kernel<mode_b>(DispatchKey::CPU, [](const Tensor&, int64_t n) -> int64_t { return n + 1; });
  const Tensor x = cpu_floats({1.f});

  opd::call<mode_a>(x);
  EXPECT_TRUE(log.empty());  // the mode is off
  {
    opd::IncludeDispatchKeyGuard on(DispatchKey::Tracer);
    opd::call<mode_a>(x);
    EXPECT_EQ(opd::call<mode_b>(x, int64_t{5}), 6);
  }
  // Redispatching removes Tracer for this call only: the nested call is seen.
  EXPECT_EQ(log, (std::vector<std::string>{"t_fb_mode::a", "t_fb_mode::b", "t_fb_mode::b"}));

  log.clear();
  exclude_nested = true;
  {
    opd::IncludeDispatchKeyGuard on(DispatchKey::Tracer);
    opd::call<mode_a>(x);
  }
  // With an exclude guard around the call, the nested call is not.
  EXPECT_EQ(log, std::vector<std::string>{"t_fb_mode::a"});
}

// --------------------------------------------------------- wrapper fallback --

struct wrap_add : opd::op<"t_fb_wrap::add(Tensor self, Tensor other) -> Tensor"> {};

// PrivateUse2 plays a wrapper tensor subclass: the wrapper carries only the
// PrivateUse2 key; the wrapped CPU tensor lives in a side table.
std::map<const opd::TensorImpl*, Tensor>& wrapped() {
  static std::map<const opd::TensorImpl*, Tensor> m;
  return m;
}
Tensor wrap(Tensor inner) {
  Tensor w = tensor_with_keys(DispatchKey::PrivateUse2);
  wrapped()[w.unsafe_get_impl()] = std::move(inner);
  return w;
}

TEST(DispatcherFallback, WrapperFallbackUnwrapsCallsTheRealKernelAndRewraps) {
  int unwraps = 0;
  auto fb = opd::register_fallback(DispatchKey::PrivateUse2, [&](const opd::OperatorEntry& op, DispatchKeySet, Stack* s) {
    const std::size_t n = op.schema()->arguments.size(), base = s->size() - n;
    for (std::size_t i = base; i < s->size(); ++i)
      if ((*s)[i].is_tensor() && (*s)[i].to_tensor().key_set().has(DispatchKey::PrivateUse2)) {
        (*s)[i] = IValue(wrapped().at((*s)[i].to_tensor().unsafe_get_impl()));
        ++unwraps;
      }
    opd::call_boxed(op, *s);
    for (std::size_t i = base; i < s->size(); ++i)
      if ((*s)[i].is_tensor()) (*s)[i] = IValue(wrap((*s)[i].to_tensor()));
  });
  auto cpu = opd::register_kernel<wrap_add>(DispatchKey::CPU, [](const Tensor& a, const Tensor& b) -> Tensor {
    std::vector<float> x = opd::to_vector<float>(a);
    x[0] += opd::to_vector<float>(b)[0];
    return cpu_floats(x);
  });
  const Tensor a = wrap(cpu_floats({1.f})), b = wrap(cpu_floats({2.f}));
  const Tensor c = opd::call<wrap_add>(a, b);
  EXPECT_TRUE(c.key_set().has(DispatchKey::PrivateUse2));
  EXPECT_EQ(opd::to_vector<float>(wrapped().at(c.unsafe_get_impl())), std::vector<float>{3.f});
  EXPECT_EQ(unwraps, 2);
  // A wrapper and a plain CPU tensor: the wrapper's key is the higher one.
  const Tensor d = opd::call<wrap_add>(cpu_floats({10.f}), a);
  EXPECT_EQ(opd::to_vector<float>(wrapped().at(d.unsafe_get_impl())), std::vector<float>{11.f});
  EXPECT_EQ(unwraps, 3);
  wrapped().clear();
}

// ------------------------------------------------------------- fallthrough --

struct ft_op : opd::op<"t_fb_ft::op(Tensor self) -> str"> {};
struct ft_other : opd::op<"t_fb_ft::other(Tensor self) -> str"> {};

TEST(DispatcherFallthrough, PerOperatorFallthroughIsMaskedAndNeverCalled) {
  int fallback_calls = 0;
  auto fb = opd::register_fallback(DispatchKey::PrivateUse1, [&](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    ++fallback_calls;
    s->back() = IValue(std::string("pu1-fallback"));
  });
  auto cpu = opd::register_kernel<ft_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  auto cpu2 = opd::register_kernel<ft_other>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::CPU});

  EXPECT_EQ(opd::call<ft_op>(x), "pu1-fallback");
  auto ft = opd::register_fallthrough<ft_op>(DispatchKey::PrivateUse1);
  // The operator's own fallthrough beats the backend fallback; the key is masked out.
  EXPECT_FALSE(opd::entry_for<ft_op>().non_fallthrough_keys().has(DispatchKey::PrivateUse1));
  EXPECT_TRUE(opd::entry_for<ft_op>().lookup(DispatchKey::PrivateUse1).fallthrough);
  EXPECT_EQ(opd::call<ft_op>(x), "cpu");
  Stack s{x};
  opd::call_boxed<ft_op>(s);
  EXPECT_EQ(s[0].to<std::string>(), "cpu");
  EXPECT_EQ(fallback_calls, 1);
  // Other operators still reach the fallback.
  EXPECT_EQ(opd::call<ft_other>(x), "pu1-fallback");
  EXPECT_EQ(fallback_calls, 2);
  // Releasing the fallthrough restores the fallback for this operator.
  ft.release();
  EXPECT_TRUE(opd::entry_for<ft_op>().non_fallthrough_keys().has(DispatchKey::PrivateUse1));
  EXPECT_EQ(opd::call<ft_op>(x), "pu1-fallback");
}

TEST(DispatcherFallthrough, FallthroughFallbackSkipsTheKeyUnlessAnOperatorHasAKernel) {
  auto ft = opd::register_fallthrough_fallback(DispatchKey::PrivateUse3);
  auto cpu = opd::register_kernel<ft_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  auto cpu2 = opd::register_kernel<ft_other>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  auto pu3 = opd::register_kernel<ft_other>(DispatchKey::PrivateUse3, [](const Tensor&) -> std::string { return "pu3"; });
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse3, DispatchKey::CPU});
  EXPECT_EQ(opd::call<ft_op>(x), "cpu");
  EXPECT_EQ(opd::call<ft_other>(x), "pu3");
  EXPECT_FALSE(opd::entry_for<ft_op>().non_fallthrough_keys().has(DispatchKey::PrivateUse3));
  EXPECT_TRUE(opd::entry_for<ft_other>().non_fallthrough_keys().has(DispatchKey::PrivateUse3));
  // A tensor with only the fallthrough key: nothing is left to run.
  expect_throw_containing<opd::NotImplementedError>([] { opd::call<ft_op>(tensor_with_keys(DispatchKey::PrivateUse3)); },
                                                    {"t_fb_ft::op"});
  ft.release();
  EXPECT_FALSE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse3));
  EXPECT_THROW(opd::call<ft_op>(x), opd::NotImplementedError);
}

TEST(DispatcherFallthrough, ModeKeyFallthroughFallbackWithOneOperatorOverridingIt) {
  // PyTorch's TestFallthroughBackendFallback: a mode key whose fallback is a
  // fallthrough, so only operators with a kernel for the key see the mode.
  auto ft = opd::register_fallthrough_fallback(DispatchKey::Functionalize);
  int mode_calls = 0;
  auto hm = opd::register_kernel<ft_op>(DispatchKey::Functionalize, [&](DispatchKeySet ks, const Tensor& t) -> std::string {
    ++mode_calls;
    return "mode>" + opd::redispatch<ft_op>(ks.remove(DispatchKey::Functionalize), t);
  });
  auto cpu = opd::register_kernel<ft_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  auto cpu2 = opd::register_kernel<ft_other>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  opd::IncludeDispatchKeyGuard on(DispatchKey::Functionalize);
  EXPECT_EQ(opd::call<ft_op>(cpu_floats({1.f})), "mode>cpu");
  EXPECT_EQ(opd::call<ft_other>(cpu_floats({1.f})), "cpu");
  EXPECT_EQ(mode_calls, 1);
}

TEST(DispatcherFallthrough, NonBackendLayersFallThroughByDefault) {
  // Layers without a kernel or fallback (Tracer, Functionalize, autograd, ...)
  // pass calls on; only backends without a kernel are an error.
  auto cpu = opd::register_kernel<ft_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::Tracer, DispatchKey::Functionalize,
                                                   DispatchKey::ADInplaceOrView, DispatchKey::AutogradCPU,
                                                   DispatchKey::BackendSelect, DispatchKey::CPU});
  EXPECT_EQ(opd::call<ft_op>(x), "cpu");
}

// --------------------------------------------------- fallback registration --

TEST(DispatcherFallback, RegistrationRulesAndRelease) {
  auto noop = [](const opd::OperatorEntry&, DispatchKeySet, Stack*) {};
  EXPECT_THROW((void)opd::register_fallback(DispatchKey::CompositeImplicitAutograd, noop), opd::Error);
  EXPECT_THROW((void)opd::register_fallback(DispatchKey::Autograd, noop), opd::Error);
  EXPECT_THROW((void)opd::register_fallback(DispatchKey::Undefined, noop), opd::Error);
  {
    auto h = opd::register_fallback(DispatchKey::PrivateUse3, noop);
    EXPECT_TRUE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse3));
    expect_throw_containing([&] { (void)opd::register_fallback(DispatchKey::PrivateUse3, noop); },
                            {"PrivateUse3", "already has a fallback"});
    EXPECT_THROW((void)opd::register_fallthrough_fallback(DispatchKey::PrivateUse3), opd::Error);
  }
  EXPECT_FALSE(opd::Dispatcher::singleton().has_fallback(DispatchKey::PrivateUse3));
  auto again = opd::register_fallback(DispatchKey::PrivateUse3, noop);  // free again
  EXPECT_TRUE(again);
}

struct fb_name_op : opd::op<"t_fb_name::dummy(Tensor dummy, str input) -> ()"> {};

TEST(DispatcherFallback, BoxedFallbackSeesTheOperatorAndItsArguments) {
  // PyTorch's fallback test: the fallback appends the operator name to a string argument.
  std::string seen;
  auto fb = opd::register_fallback(DispatchKey::PrivateUse2, [&](const opd::OperatorEntry& op, DispatchKeySet, Stack* s) {
    seen = s->back().to<std::string>() + op.name();
    s->pop_back();
    s->pop_back();
  });
  opd::call<fb_name_op>(tensor_with_keys(DispatchKey::PrivateUse2), std::string_view("hello "));
  EXPECT_EQ(seen, "hello t_fb_name::dummy");
  Stack s{tensor_with_keys(DispatchKey::PrivateUse2), std::string("boxed ")};
  opd::call_boxed<fb_name_op>(s);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(seen, "boxed t_fb_name::dummy");
  // A tensor of another backend does not reach it.
  EXPECT_THROW(opd::call<fb_name_op>(cpu_floats({1.f}), std::string_view("x")), opd::NotImplementedError);
}

}  // namespace
