// Typed calls: defaults and keyword arguments, every callable form a kernel
// may take, kernels that receive the call's DispatchKeySet and redispatch,
// thread-local include/exclude guards, and factory ops dispatching on their
// Device? argument.
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::Scalar;
using opd::Tensor;

// ---------------------------------------------------------------- defaults --

struct defaults_op
    : opd::op<"t_call_defaults::op(Tensor self, int a=3, float b=0.5, *, Scalar alpha=2, bool flag=True, "
              "str mode=\"sum\", int[2] stride=[4, 5], int? opt=None, ScalarType? dtype=None) -> str"> {};

std::string defaults_kernel(const Tensor&, int64_t a, double b, const Scalar& alpha, bool flag, std::string_view mode,
                            std::span<const int64_t> stride, std::optional<int64_t> opt,
                            std::optional<opd::ScalarType> dtype) {
  std::string s = std::to_string(a) + "|" + std::to_string(b) + "|" + std::to_string(alpha.to<int64_t>()) + "|" +
                  (flag ? "T" : "F") + "|" + std::string(mode) + "|";
  for (auto x : stride) s += std::to_string(x) + ",";
  s += "|" + (opt ? std::to_string(*opt) : std::string("None"));
  s += "|" + (dtype ? std::string(opd::to_string(*dtype)) : std::string("None"));
  return s;
}

TEST(DispatcherCall, FillsDefaultsFromTheSchema) {
  auto h = opd::register_kernel<defaults_op, &defaults_kernel>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(opd::call<defaults_op>(x), "3|0.500000|2|T|sum|4,5,|None|None");
  EXPECT_EQ(opd::call<defaults_op>(x, int64_t{7}), "7|0.500000|2|T|sum|4,5,|None|None");
  EXPECT_EQ(opd::call<defaults_op>(x, int64_t{7}, 1.25), "7|1.250000|2|T|sum|4,5,|None|None");
}

TEST(DispatcherCall, KeywordArgumentsByNameInAnyOrder) {
  auto h = opd::register_kernel<defaults_op, &defaults_kernel>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(opd::call<defaults_op>(x, opd::arg<"flag"> = false, opd::arg<"alpha"> = Scalar(int64_t{9})),
            "3|0.500000|9|F|sum|4,5,|None|None");
  const std::vector<int64_t> stride{1, 2};
  EXPECT_EQ(opd::call<defaults_op>(x, int64_t{1}, opd::arg<"mode"> = std::string_view("mean"),
                                   opd::arg<"stride"> = std::span<const int64_t>(stride),
                                   opd::arg<"opt"> = std::optional<int64_t>(42),
                                   opd::arg<"dtype"> = std::optional<opd::ScalarType>(opd::ScalarType::Long)),
            "1|0.500000|2|T|mean|1,2,|42|Long");
  // A positional argument that has a default can also be given by name.
  EXPECT_EQ(opd::call<defaults_op>(x, opd::arg<"b"> = 4.0), "3|4.000000|2|T|sum|4,5,|None|None");
}

// One integer for an int[N] / SymInt[N] argument stands for N copies, given
// by position or by name; a braced list by name is a list.
struct repeated_op : opd::op<"t_call_repeated::op(Tensor self, int[2] stride, SymInt[3] size=1, *, "
                             "int[2] padding=0, int[] dims=[], int[1]? dim=None) -> str"> {};
std::string repeated_kernel(const Tensor&, std::span<const int64_t> stride, std::span<const int64_t> size,
                            std::span<const int64_t> padding, std::span<const int64_t> dims,
                            std::optional<std::span<const int64_t>> dim) {
  std::string s;
  for (auto l : {stride, size, padding, dims}) {
    for (auto x : l) s += std::to_string(x) + ",";
    s += "|";
  }
  if (dim)
    for (auto x : *dim) s += "dim " + std::to_string(x);
  return s;
}

TEST(DispatcherCall, OneIntegerForAnIntListOfFixedSize) {
  auto h = opd::register_kernel<repeated_op, &repeated_kernel>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(opd::call<repeated_op>(x, 2), "2,2,|1,1,1,|0,0,||");
  const int64_t four = 4;
  const int five = 5;
  EXPECT_EQ(opd::call<repeated_op>(x, four, five, opd::arg<"padding"> = 1), "4,4,|5,5,5,|1,1,||");
  EXPECT_EQ(opd::call<repeated_op>(x, opd::arg<"stride"> = 3, opd::arg<"size"> = std::int64_t{6}),
            "3,3,|6,6,6,|0,0,||");
  // A braced list by name; a list positionally (std::array, std::vector).
  EXPECT_EQ(opd::call<repeated_op>(x, 1, opd::arg<"padding"> = {7, 8}, opd::arg<"dims"> = {0, 1, 2}),
            "1,1,|1,1,1,|7,8,|0,1,2,|");
  const std::vector<int64_t> stride{9, 10};
  EXPECT_EQ(opd::call<repeated_op>(x, std::span<const int64_t>(stride)), "9,10,|1,1,1,|0,0,||");
  // int[1]? as sum(x, 1) takes it.
  EXPECT_EQ(opd::call<repeated_op>(x, 1, opd::arg<"dim"> = 0), "1,1,|1,1,1,|0,0,||dim 0");
}

TEST(DispatcherCall, BoxedCallsDoNotFillDefaults) {
  // The boxed convention is PyTorch's: the caller pushes every argument.
  auto h = opd::register_kernel<defaults_op, &defaults_kernel>(DispatchKey::CPU);
  opd::Stack stack{cpu_floats({1.f}), int64_t{1}, 2.0, Scalar(int64_t{3}), false, std::string("x"),
                   std::vector<int64_t>{6, 7}, opd::IValue(), opd::IValue(opd::ScalarType::Half)};
  opd::call_boxed<defaults_op>(stack);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_EQ(stack[0].to<std::string>(), "1|2.000000|3|F|x|6,7,|None|Half");
}

// ----------------------------------------------------------- callable forms --

struct forms_op : opd::op<"t_call_forms::op(Tensor self, int x) -> int"> {};

int64_t forms_plain(const Tensor&, int64_t x) { return x + 1; }
int64_t forms_other(const Tensor&, int64_t x) { return x + 2; }

struct forms_functor {
  int64_t offset;
  std::shared_ptr<int> calls = std::make_shared<int>(0);
  int64_t operator()(const Tensor&, int64_t x) {
    ++*calls;
    return x + offset;
  }
};

TEST(DispatcherCall, KernelFromFunctionTemplateArgument) {
  auto h = opd::register_kernel<forms_op, &forms_plain>(DispatchKey::CPU);
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{10}), 11);
  opd::Stack s{cpu_floats({0.f}), int64_t{10}};
  opd::call_boxed<forms_op>(s);
  EXPECT_EQ(s.at(0).to_int(), 11);
}

TEST(DispatcherCall, KernelFromRuntimeFunctionPointer) {
  // The pointer is chosen at run time: make_kernel stores it as functor state.
  int64_t (*fp)(const Tensor&, int64_t) = forms_plain;
  volatile bool pick_other = true;  // not a constant expression
  if (pick_other) fp = forms_other;
  auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, fp);
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{10}), 12);
  opd::Stack s{cpu_floats({0.f}), int64_t{10}};
  opd::call_boxed<forms_op>(s);
  EXPECT_EQ(s.at(0).to_int(), 12);
}

TEST(DispatcherCall, KernelFromCapturelessAndCapturingLambdas) {
  {
    auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, [](const Tensor&, int64_t x) -> int64_t { return x * 3; });
    EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{5}), 15);
  }
  int64_t factor = 7;
  int calls = 0;
  auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, [factor, &calls](const Tensor&, int64_t x) -> int64_t {
    ++calls;
    return x * factor;
  });
  factor = 100;  // captured by value at registration
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{5}), 35);
  opd::Stack s{cpu_floats({0.f}), int64_t{2}};
  opd::call_boxed<forms_op>(s);
  EXPECT_EQ(s.at(0).to_int(), 14);
  EXPECT_EQ(calls, 2);
}

TEST(DispatcherCall, KernelFromStatefulFunctorKeepsItsStateAcrossCalls) {
  forms_functor f{100};
  auto calls = f.calls;
  auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, std::move(f));
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{1}), 101);
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{2}), 102);
  opd::Stack s{cpu_floats({0.f}), int64_t{3}};
  opd::call_boxed<forms_op>(s);
  EXPECT_EQ(s.at(0).to_int(), 103);
  EXPECT_EQ(*calls, 3);  // one functor object, registered once, served all three calls
}

// A functor whose state is a cache: it must be the same object on every call.
struct caching_functor {
  int64_t last = 0;
  int64_t operator()(const Tensor&, int64_t x) {
    const int64_t previous = last;
    last = x;
    return previous;
  }
};

TEST(DispatcherCall, FunctorCacheIsKeptBetweenTypedAndBoxedCalls) {
  auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, caching_functor{});
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{4}), 0);
  opd::Stack s{cpu_floats({0.f}), int64_t{5}};
  opd::call_boxed<forms_op>(s);
  EXPECT_EQ(s.at(0).to_int(), 4);
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{6}), 5);
}

// Functors built with constructor arguments.
struct ctor_functor {
  ctor_functor(int64_t a, std::string b) : a_(a), b_(std::move(b)) {}
  int64_t operator()(const Tensor&, int64_t x) const { return x + a_ + static_cast<int64_t>(b_.size()); }
  int64_t a_;
  std::string b_;
};

TEST(DispatcherCall, FunctorWithConstructorArguments) {
  auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, ctor_functor(10, "abc"));
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{1}), 14);
}

TEST(DispatcherCall, StdFunctionKernel) {
  std::function<int64_t(const Tensor&, int64_t)> fn = [](const Tensor&, int64_t x) { return -x; };
  auto h = opd::register_kernel<forms_op>(DispatchKey::CPU, fn);
  EXPECT_EQ(opd::call<forms_op>(cpu_floats({0.f}), int64_t{8}), -8);
}

// ------------------------------------------------- DispatchKeySet + redispatch --

struct traced_op : opd::op<"t_call_traced::op(Tensor self, int x) -> int"> {};

std::vector<std::string>& trace_log() {
  static std::vector<std::string> log;
  return log;
}

int64_t traced_tracer(DispatchKeySet ks, const Tensor& self, int64_t x) {
  trace_log().push_back("tracer(" + std::to_string(x) + ") saw " + ks.str());
  return opd::redispatch<traced_op>(ks.remove(DispatchKey::Tracer), self, x) * 10;
}
int64_t traced_cpu(DispatchKeySet ks, const Tensor&, int64_t x) {
  trace_log().push_back("cpu(" + std::to_string(x) + ") saw " + ks.str());
  return x + 1;
}

TEST(DispatcherCall, TracerKernelLogsAndRedispatchesBelowItsKey) {
  trace_log().clear();
  auto h1 = opd::register_kernel<traced_op, &traced_tracer>(DispatchKey::Tracer);
  auto h2 = opd::register_kernel<traced_op, &traced_cpu>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});

  // Without the Tracer key in the set, the tracer is not involved.
  EXPECT_EQ(opd::call<traced_op>(x, int64_t{1}), 2);
  ASSERT_EQ(trace_log().size(), 1u);
  EXPECT_EQ(trace_log()[0], "cpu(1) saw " + DispatchKeySet(DispatchKey::CPU).str());

  trace_log().clear();
  {
    opd::IncludeDispatchKeyGuard tracing(DispatchKey::Tracer);
    EXPECT_EQ(opd::call<traced_op>(x, int64_t{2}), 30);
  }
  ASSERT_EQ(trace_log().size(), 2u);
  EXPECT_EQ(trace_log()[0], "tracer(2) saw " + (DispatchKeySet{DispatchKey::Tracer, DispatchKey::CPU}).str());
  // The redispatch carried the reduced set into the CPU kernel.
  EXPECT_EQ(trace_log()[1], "cpu(2) saw " + DispatchKeySet(DispatchKey::CPU).str());

  // The same through the boxed path.
  trace_log().clear();
  {
    opd::IncludeDispatchKeyGuard tracing(DispatchKey::Tracer);
    opd::Stack s{x, int64_t{3}};
    opd::call_boxed<traced_op>(s);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].to_int(), 40);
  }
  ASSERT_EQ(trace_log().size(), 2u);
  EXPECT_EQ(trace_log()[1], "cpu(3) saw " + DispatchKeySet(DispatchKey::CPU).str());
}

// Three layers, each redispatching below itself with full_after(own key):
// typed, boxed and mixed (a boxed kernel in the middle).
struct layered_op : opd::op<"t_call_layered::op(Tensor self, str path) -> str"> {};

std::string layered_tracer(DispatchKeySet ks, const Tensor& self, std::string_view path) {
  return opd::redispatch<layered_op>(ks & DispatchKeySet::full_after(DispatchKey::Tracer), self,
                                     std::string(path) + "tracer>");
}
std::string layered_autograd(DispatchKeySet ks, const Tensor& self, std::string_view path) {
  return opd::redispatch<layered_op>(ks & DispatchKeySet::full_after(DispatchKey::AutogradCPU), self,
                                     std::string(path) + "autograd>");
}
std::string layered_cpu(const Tensor&, std::string_view path) { return std::string(path) + "cpu"; }

TEST(DispatcherCall, KernelsWithDispatchKeySetRedispatchToLowerPriorityKernels) {
  auto h1 = opd::register_kernel<layered_op, &layered_tracer>(DispatchKey::Tracer);
  auto h2 = opd::register_kernel<layered_op, &layered_autograd>(DispatchKey::AutogradCPU);
  auto h3 = opd::register_kernel<layered_op, &layered_cpu>(DispatchKey::CPU);
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::Tracer, DispatchKey::AutogradCPU, DispatchKey::CPU});
  EXPECT_EQ(opd::call<layered_op>(x, std::string_view("")), "tracer>autograd>cpu");

  opd::Stack s{x, std::string("boxed:")};
  opd::call_boxed<layered_op>(s);
  EXPECT_EQ(s.at(0).to<std::string>(), "boxed:tracer>autograd>cpu");
}

TEST(DispatcherCall, MixedCallingConventionsRedispatchToLowerPriorityKernels) {
  // The middle layer is a boxed kernel redispatching on the stack.
  auto h1 = opd::register_kernel<layered_op, &layered_tracer>(DispatchKey::Tracer);
  auto h2 = opd::register_boxed_kernel<layered_op>(
      DispatchKey::AutogradCPU, [](const opd::OperatorEntry& op, DispatchKeySet ks, opd::Stack* s) {
        (*s)[s->size() - 1] = opd::IValue(s->back().to<std::string>() + "boxed-autograd>");
        opd::redispatch_boxed(op, ks & DispatchKeySet::full_after(DispatchKey::AutogradCPU), *s);
      });
  auto h3 = opd::register_kernel<layered_op, &layered_cpu>(DispatchKey::CPU);
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::Tracer, DispatchKey::AutogradCPU, DispatchKey::CPU});
  EXPECT_EQ(opd::call<layered_op>(x, std::string_view("")), "tracer>boxed-autograd>cpu");
  opd::Stack s{x, std::string("")};
  opd::call_boxed<layered_op>(s);
  EXPECT_EQ(s.at(0).to<std::string>(), "tracer>boxed-autograd>cpu");
}

TEST(DispatcherCall, LambdaAndFunctorKernelsCanTakeTheKeySet) {
  DispatchKeySet seen_by_lambda, seen_by_functor;
  struct keyset_functor {
    DispatchKeySet* seen;
    std::string operator()(DispatchKeySet ks, const Tensor& self, std::string_view path) {
      *seen = ks;
      return opd::redispatch<layered_op>(ks.remove(DispatchKey::PrivateUse1), self, std::string(path) + "pu1>");
    }
  };
  auto h1 = opd::register_kernel<layered_op>(DispatchKey::PrivateUse1, keyset_functor{&seen_by_functor});
  auto h2 = opd::register_kernel<layered_op>(DispatchKey::CPU,
                                             [&](DispatchKeySet ks, const Tensor&, std::string_view p) -> std::string {
                                               seen_by_lambda = ks;
                                               return std::string(p) + "cpu";
                                             });
  const Tensor x = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::CPU});
  EXPECT_EQ(opd::call<layered_op>(x, std::string_view("")), "pu1>cpu");
  EXPECT_EQ(seen_by_functor, (DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::CPU}));
  EXPECT_EQ(seen_by_lambda, DispatchKeySet(DispatchKey::CPU));
}

// ----------------------------------------------------------------- TLS guards --

struct tls_op : opd::op<"t_call_tls::op(Tensor self) -> str"> {};

TEST(DispatcherCall, IncludeAndExcludeGuardsChangeTheDispatchKey) {
  auto h1 = opd::register_kernel<tls_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  auto h2 = opd::register_kernel<tls_op>(DispatchKey::PrivateUse1, [](const Tensor&) -> std::string { return "pu1"; });
  auto h3 = opd::register_kernel<tls_op>(DispatchKey::Functionalize, [](const Tensor&) -> std::string { return "func"; });
  const Tensor cpu = cpu_floats({1.f});
  const Tensor both = tensor_with_keys(DispatchKeySet{DispatchKey::PrivateUse1, DispatchKey::CPU});

  EXPECT_EQ(opd::call<tls_op>(cpu), "cpu");
  EXPECT_EQ(opd::call<tls_op>(both), "pu1");
  {
    opd::ExcludeDispatchKeyGuard no_pu1(DispatchKey::PrivateUse1);
    EXPECT_EQ(opd::call<tls_op>(both), "cpu");
    opd::Stack s{both};
    opd::call_boxed<tls_op>(s);
    EXPECT_EQ(s[0].to<std::string>(), "cpu");
    {
      opd::IncludeDispatchKeyGuard func(DispatchKey::Functionalize);
      EXPECT_EQ(opd::call<tls_op>(both), "func");
      opd::ExcludeDispatchKeyGuard no_func(DispatchKey::Functionalize);  // exclusion beats inclusion
      EXPECT_EQ(opd::call<tls_op>(both), "cpu");
    }
  }
  EXPECT_EQ(opd::call<tls_op>(both), "pu1");
  {
    opd::IncludeDispatchKeyGuard pu1(DispatchKey::PrivateUse1);  // a backend key included for a region
    EXPECT_EQ(opd::call<tls_op>(cpu), "pu1");
  }
}

TEST(DispatcherCall, ExcludingEveryKeyOfTheCallIsAnError) {
  auto h1 = opd::register_kernel<tls_op>(DispatchKey::CPU, [](const Tensor&) -> std::string { return "cpu"; });
  opd::ExcludeDispatchKeyGuard none(DispatchKey::CPU);
  EXPECT_THROW(opd::call<tls_op>(cpu_floats({1.f})), opd::NotImplementedError);
}

// -------------------------------------------------------------- factory ops --

struct factory_op
    : opd::op<"t_call_factory::make(int[] size, *, ScalarType? dtype=None, Device? device=None) -> Tensor"> {};
struct no_device_factory : opd::op<"t_call_factory::nodev(int n) -> int"> {};

std::atomic<int> factory_cpu_calls{0}, factory_pu1_calls{0};

Tensor factory_cpu(std::span<const int64_t> size, std::optional<opd::ScalarType> dtype, std::optional<opd::Device> device) {
  ++factory_cpu_calls;
  EXPECT_TRUE(!device || device->is_cpu());
  return opd::empty(opd::IntArrayRef(size.data(), size.size()), dtype.value_or(opd::ScalarType::Float));
}
Tensor factory_pu1(std::span<const int64_t> size, std::optional<opd::ScalarType> dtype, std::optional<opd::Device> device) {
  ++factory_pu1_calls;
  EXPECT_EQ(device->type(), opd::DeviceType::PrivateUse1);
  return opd::empty(opd::IntArrayRef(size.data(), size.size()), dtype.value_or(opd::ScalarType::Float),
                    opd::Device::meta());
}

TEST(DispatcherCall, FactoryOpsDispatchOnTheirDeviceArgument) {
  factory_cpu_calls = factory_pu1_calls = 0;
  auto h1 = opd::register_kernel<factory_op, &factory_cpu>(DispatchKey::CPU);
  auto h2 = opd::register_kernel<factory_op, &factory_pu1>(DispatchKey::PrivateUse1);
  const std::vector<int64_t> size{2, 3};
  const std::span<const int64_t> sz(size);

  Tensor a = opd::call<factory_op>(sz);  // device=None: CPU
  EXPECT_EQ(a.sizes().size(), 2u);
  EXPECT_EQ(factory_cpu_calls, 1);
  opd::call<factory_op>(sz, opd::arg<"device"> = std::optional<opd::Device>(opd::Device::cpu()));
  EXPECT_EQ(factory_cpu_calls, 2);
  Tensor b = opd::call<factory_op>(sz, opd::arg<"dtype"> = std::optional<opd::ScalarType>(opd::ScalarType::Int),
                                   opd::arg<"device"> = std::optional<opd::Device>(opd::Device(opd::DeviceType::PrivateUse1)));
  EXPECT_EQ(factory_pu1_calls, 1);
  EXPECT_EQ(b.dtype(), opd::ScalarType::Int);

  // Boxed: the same choice from the Device IValue (or None).
  opd::Stack s1{std::vector<int64_t>{4}, opd::IValue(), opd::IValue()};
  opd::call_boxed<factory_op>(s1);
  EXPECT_EQ(factory_cpu_calls, 3);
  opd::Stack s2{std::vector<int64_t>{4}, opd::IValue(), opd::IValue(opd::Device(opd::DeviceType::PrivateUse1, 0))};
  opd::call_boxed<factory_op>(s2);
  EXPECT_EQ(factory_pu1_calls, 2);

  // A device with no kernel: the error names that backend.
  expect_throw_containing<opd::NotImplementedError>(
      [&] { opd::call<factory_op>(sz, opd::arg<"device"> = std::optional<opd::Device>(opd::Device::cuda(0))); },
      {"t_call_factory::make", "CUDA"});
}

TEST(DispatcherCall, OpsWithoutTensorsOrDevicesDispatchToCPU) {
  auto h = opd::register_kernel<no_device_factory>(DispatchKey::CPU, [](int64_t n) -> int64_t { return n * n; });
  EXPECT_EQ(opd::call<no_device_factory>(int64_t{9}), 81);
  opd::Stack s{int64_t{3}};
  opd::call_boxed<no_device_factory>(s);
  EXPECT_EQ(s.at(0).to_int(), 9);
}

TEST(DispatcherCall, BackendSelectKernelRedispatchesAFactoryToCPU) {
  // PyTorch's BackendSelect layer, by hand: a kernel at BackendSelect (which
  // the thread includes) picks the backend and redispatches below itself.
  std::vector<std::string> log;
  auto h1 = opd::register_kernel<factory_op>(
      DispatchKey::BackendSelect,
      [&](DispatchKeySet ks, std::span<const int64_t> size, std::optional<opd::ScalarType> dtype,
          std::optional<opd::Device> device) -> Tensor {
        log.push_back("backend_select");
        return opd::redispatch<factory_op>(ks.remove(DispatchKey::BackendSelect), size, dtype, device);
      });
  auto h2 = opd::register_kernel<factory_op>(DispatchKey::CPU,
                                             [&](std::span<const int64_t> size, std::optional<opd::ScalarType>,
                                                 std::optional<opd::Device>) -> Tensor {
                                               log.push_back("cpu");
                                               return opd::empty(opd::IntArrayRef(size.data(), size.size()));
                                             });
  opd::IncludeDispatchKeyGuard bs(DispatchKey::BackendSelect);
  const std::vector<int64_t> size{3};
  Tensor t = opd::call<factory_op>(std::span<const int64_t>(size));
  EXPECT_EQ(t.numel(), 3);
  EXPECT_EQ(log, (std::vector<std::string>{"backend_select", "cpu"}));
}

}  // namespace
