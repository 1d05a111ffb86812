// Ports of PyTorch's per-kernel-form registration tests
// (kernel_function_test, kernel_lambda_test, make_boxed_from_unboxed_functor_test:
// OperatorRegistrationTest_{Function,Lambda,Functor}BasedKernel.*). PyTorch
// repeats one scenario list for each way of writing a kernel; here each
// scenario is written once and run for every form opdispatch accepts:
//   Function         register_kernel<Op, &fn>(key)   (a compile-time function)
//   RuntimeFunction  register_kernel<Op>(key, fp)    (a function pointer value)
//   Lambda           register_kernel<Op>(key, [](...) {...})
//   Functor          register_kernel<Op>(key, functor{...})  (with state)
// Each scenario calls through both conventions (typed and boxed).
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Scalar;
using opd::Stack;
using opd::Tensor;

// ------------------------------------------------------------- the forms --

template <auto Fn, class Sig = decltype(Fn)>
struct adapt;
template <auto Fn, class R, class... A>
struct adapt<Fn, R (*)(A...)> {
  static auto lambda() {
    return [](A... a) -> R { return Fn(std::forward<A>(a)...); };
  }
  struct functor {
    std::shared_ptr<int64_t> calls = std::make_shared<int64_t>(0);
    R operator()(A... a) {
      ++*calls;
      return Fn(std::forward<A>(a)...);
    }
  };
};

struct FunctionForm {
  template <class Op, auto Fn>
  static opd::RegistrationHandle reg(DispatchKey k) {
    return opd::register_kernel<Op, Fn>(k);
  }
};
struct RuntimeFunctionForm {
  template <class Op, auto Fn>
  static opd::RegistrationHandle reg(DispatchKey k) {
    auto fp = Fn;  // a run-time pointer value
    return opd::register_kernel<Op>(k, fp);
  }
};
struct LambdaForm {
  template <class Op, auto Fn>
  static opd::RegistrationHandle reg(DispatchKey k) {
    auto lambda = adapt<Fn>::lambda();  // written out of line, then registered
    return opd::register_kernel<Op>(k, lambda);
  }
};
struct FunctorForm {
  template <class Op, auto Fn>
  static opd::RegistrationHandle reg(DispatchKey k) {
    return opd::register_kernel<Op>(k, typename adapt<Fn>::functor{});
  }
};

template <class Form>
class PeerKernelForms : public ::testing::Test {};
using Forms = ::testing::Types<FunctionForm, RuntimeFunctionForm, LambdaForm, FunctorForm>;
class FormNames {
 public:
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, FunctionForm>) return "Function";
    if (std::is_same_v<T, RuntimeFunctionForm>) return "RuntimeFunction";
    if (std::is_same_v<T, LambdaForm>) return "Lambda";
    return "Functor";
  }
};
TYPED_TEST_SUITE(PeerKernelForms, Forms, FormNames);

#define REG(Op, Fn, Key) TypeParam::template reg<Op, Fn>(DispatchKey::Key)

const Tensor& cpu_dummy() {
  static const Tensor t = cpu_floats({0.f});
  return t;
}
const Tensor& cuda_dummy() {
  static const Tensor t = tensor_with_keys(DispatchKey::CUDA);
  return t;
}

// ----------------------------------------------------------- the scenarios --

struct f_basic : opd::op<"t_peer_forms::basic(Tensor dummy, int input) -> int"> {};
int64_t basic_kernel(const Tensor&, int64_t x) { return x + 1; }

// givenKernel_whenRegistered_thenCanBeCalled / ..._thenCanBeCalledUnboxed
TYPED_TEST(PeerKernelForms, KernelCanBeCalledBoxedAndUnboxed) {
  auto h = REG(f_basic, &basic_kernel, CPU);
  Stack s{cpu_dummy(), int64_t{3}};
  opd::call_boxed<f_basic>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int(), 4);
  EXPECT_EQ(opd::call<f_basic>(cpu_dummy(), int64_t{5}), 6);
  // Only for its backend.
  EXPECT_THROW(opd::call<f_basic>(cuda_dummy(), int64_t{5}), opd::NotImplementedError);
}

// givenKernel_whenRegistrationRunsOutOfScope_thenCannotBeCalledAnymore
TYPED_TEST(PeerKernelForms, RegistrationRunningOutOfScopeRemovesTheKernel) {
  {
    auto h = REG(f_basic, &basic_kernel, CPU);
    EXPECT_EQ(opd::call<f_basic>(cpu_dummy(), int64_t{1}), 2);
  }
  EXPECT_THROW(opd::call<f_basic>(cpu_dummy(), int64_t{1}), opd::NotImplementedError);
  Stack s{cpu_dummy(), int64_t{1}};
  EXPECT_THROW(opd::call_boxed<f_basic>(s), opd::NotImplementedError);
}

// givenMultipleOperatorsAndKernels_whenRegisteredIn{One,Multiple}Registrar(s)_thenCallsRightKernel
struct f_op1 : opd::op<"t_peer_forms::op1(Tensor dummy, int input) -> int"> {};
struct f_op2 : opd::op<"t_peer_forms::op2(Tensor dummy, int input) -> int"> {};
int64_t op1_cpu(const Tensor&, int64_t x) { return x + 10; }
int64_t op1_cuda(const Tensor&, int64_t x) { return x + 20; }
int64_t op2_cpu(const Tensor&, int64_t x) { return x + 30; }
int64_t op2_cuda(const Tensor&, int64_t x) { return x + 40; }

template <class TypeParam>
void expect_right_kernels() {
  EXPECT_EQ(opd::call<f_op1>(cpu_dummy(), int64_t{1}), 11);
  EXPECT_EQ(opd::call<f_op1>(cuda_dummy(), int64_t{1}), 21);
  EXPECT_EQ(opd::call<f_op2>(cpu_dummy(), int64_t{1}), 31);
  Stack s{cuda_dummy(), int64_t{1}};
  opd::call_boxed<f_op2>(s);
  EXPECT_EQ(s.at(0).to_int(), 41);
}
TYPED_TEST(PeerKernelForms, MultipleOperatorsAndKernelsInOneRegistrar) {
  opd::RegistrationSet lib;
  lib.add(REG(f_op1, &op1_cpu, CPU));
  lib.add(REG(f_op1, &op1_cuda, CUDA));
  lib.add(REG(f_op2, &op2_cpu, CPU));
  lib.add(REG(f_op2, &op2_cuda, CUDA));
  expect_right_kernels<TypeParam>();
}
TYPED_TEST(PeerKernelForms, MultipleOperatorsAndKernelsInMultipleRegistrars) {
  auto a = REG(f_op1, &op1_cpu, CPU);
  auto b = REG(f_op1, &op1_cuda, CUDA);
  auto c = REG(f_op2, &op2_cpu, CPU);
  auto d = REG(f_op2, &op2_cuda, CUDA);
  expect_right_kernels<TypeParam>();
}

// givenKernelWithoutOutput / givenKernelWithZeroOutputs (both `-> ()`: void here)
struct f_noout : opd::op<"t_peer_forms::noout(Tensor dummy) -> ()"> {};
int noout_calls = 0;
void noout_kernel(const Tensor&) { ++noout_calls; }
TYPED_TEST(PeerKernelForms, KernelWithoutOutput) {
  noout_calls = 0;
  auto h = REG(f_noout, &noout_kernel, CPU);
  Stack s{cpu_dummy()};
  opd::call_boxed<f_noout>(s);
  EXPECT_EQ(s.size(), 0u);
  opd::call<f_noout>(cpu_dummy());
  EXPECT_EQ(noout_calls, 2);
}

// givenKernelWithIntOutput
struct f_intout : opd::op<"t_peer_forms::intout(Tensor dummy, int a, int b) -> int"> {};
int64_t intout_kernel(const Tensor&, int64_t a, int64_t b) { return a + b; }
TYPED_TEST(PeerKernelForms, KernelWithIntOutput) {
  auto h = REG(f_intout, &intout_kernel, CPU);
  Stack s{cpu_dummy(), int64_t{3}, int64_t{6}};
  opd::call_boxed<f_intout>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int(), 9);
  EXPECT_EQ(opd::call<f_intout>(cpu_dummy(), int64_t{1}, int64_t{2}), 3);
}

// givenKernelWithTensorOutput / givenKernelWithTensorInputByReference_withOutput
struct f_tensorout : opd::op<"t_peer_forms::tensorout(Tensor input) -> Tensor"> {};
Tensor identity_kernel(const Tensor& t) { return t; }
TYPED_TEST(PeerKernelForms, KernelWithTensorInputAndOutput) {
  auto h1 = REG(f_tensorout, &identity_kernel, CPU);
  auto h2 = REG(f_tensorout, &identity_kernel, CUDA);
  Stack s{cpu_dummy()};
  opd::call_boxed<f_tensorout>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(cpu_dummy()));
  EXPECT_TRUE(opd::call<f_tensorout>(cuda_dummy()).is_same(cuda_dummy()));
}

// givenKernelWithTensorInputByReference_withoutOutput
struct f_tensorin : opd::op<"t_peer_forms::tensorin(Tensor input) -> ()"> {};
Tensor captured_tensor;
void capture_tensor(const Tensor& t) { captured_tensor = t; }
TYPED_TEST(PeerKernelForms, KernelWithTensorInputWithoutOutput) {
  auto h1 = REG(f_tensorin, &capture_tensor, CPU);
  auto h2 = REG(f_tensorin, &capture_tensor, CUDA);
  Stack s{cpu_dummy()};
  opd::call_boxed<f_tensorin>(s);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_TRUE(captured_tensor.is_same(cpu_dummy()));
  opd::call<f_tensorin>(cuda_dummy());
  EXPECT_TRUE(captured_tensor.is_same(cuda_dummy()));
  captured_tensor = Tensor();
}

// givenKernelWithTensorListOutput
struct f_tlistout : opd::op<"t_peer_forms::tlistout(Tensor a, Tensor b, Tensor c) -> Tensor[]"> {};
std::vector<Tensor> tlistout_kernel(const Tensor& a, const Tensor& b, const Tensor& c) { return {a, b, c}; }
TYPED_TEST(PeerKernelForms, KernelWithTensorListOutput) {
  auto h = REG(f_tlistout, &tlistout_kernel, CUDA);
  const Tensor a = cuda_dummy(), b = tensor_with_keys(DispatchKey::CPU), c = tensor_with_keys(DispatchKey::CUDA);
  Stack s{a, b, c};
  opd::call_boxed<f_tlistout>(s);
  ASSERT_EQ(s.size(), 1u);
  const auto& l = s[0].to_tensor_list();
  ASSERT_EQ(l.size(), 3u);
  EXPECT_TRUE(l[0].is_same(a) && l[1].is_same(b) && l[2].is_same(c));
  EXPECT_EQ(opd::call<f_tlistout>(a, b, c).size(), 3u);
}

// givenKernelWithIntListOutput
struct f_ilistout : opd::op<"t_peer_forms::ilistout(Tensor dummy, int a, int b, int c) -> int[]"> {};
std::vector<int64_t> ilistout_kernel(const Tensor&, int64_t a, int64_t b, int64_t c) { return {a, b, c}; }
TYPED_TEST(PeerKernelForms, KernelWithIntListOutput) {
  auto h = REG(f_ilistout, &ilistout_kernel, CPU);
  Stack s{cpu_dummy(), int64_t{2}, int64_t{4}, int64_t{6}};
  opd::call_boxed<f_ilistout>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int_list(), (std::vector<int64_t>{2, 4, 6}));
  EXPECT_EQ(opd::call<f_ilistout>(cpu_dummy(), int64_t{1}, int64_t{2}, int64_t{3}), (std::vector<int64_t>{1, 2, 3}));
}

// givenKernelWithMultipleOutputs (PyTorch's returns a Dict(str, Tensor) last, as here)
struct f_multiout
    : opd::op<"t_peer_forms::multiout(Tensor dummy) -> (Tensor, int, Tensor[], int?, Scalar, str[], Dict(str, Tensor))"> {};
std::tuple<Tensor, int64_t, std::vector<Tensor>, std::optional<int64_t>, Scalar, std::vector<std::string>,
           opd::Dict<std::string, Tensor>>
multiout_kernel(const Tensor& t) {
  opd::Dict<std::string, Tensor> dict;
  dict.insert("first", cpu_dummy());
  dict.insert("second", cuda_dummy());
  return {t, 5, {t, t}, std::nullopt, Scalar(1.5), {"first", "second"}, dict};
}
TYPED_TEST(PeerKernelForms, KernelWithMultipleOutputs) {
  auto h = REG(f_multiout, &multiout_kernel, CPU);
  Stack s{cpu_dummy()};
  opd::call_boxed<f_multiout>(s);
  ASSERT_EQ(s.size(), 7u);
  EXPECT_TRUE(s[0].to_tensor().is_same(cpu_dummy()));
  EXPECT_EQ(s[1].to_int(), 5);
  EXPECT_EQ(s[2].to_tensor_list().size(), 2u);
  EXPECT_TRUE(s[3].is_none());
  EXPECT_EQ(s[4].to_double(), 1.5);
  EXPECT_EQ(s[5].to_string_list(), (std::vector<std::string>{"first", "second"}));
  ASSERT_TRUE(s[6].is_generic_dict());
  const auto boxed_dict = s[6].to<opd::Dict<std::string, Tensor>>();
  EXPECT_EQ(boxed_dict.size(), 2u);
  EXPECT_TRUE(boxed_dict.at("first").is_same(cpu_dummy()));
  EXPECT_TRUE(boxed_dict.at("second").is_same(cuda_dummy()));
  auto [t, i, ts, oi, sc, strs, dict] = opd::call<f_multiout>(cpu_dummy());
  EXPECT_TRUE(t.is_same(cpu_dummy()));
  EXPECT_EQ(i, 5);
  EXPECT_EQ(ts.size(), 2u);
  EXPECT_FALSE(oi.has_value());
  EXPECT_EQ(sc.to<double>(), 1.5);
  EXPECT_EQ(strs.size(), 2u);
  EXPECT_TRUE(dict.at("second").is_same(cuda_dummy()));
}

// givenKernelWithIntInput_{with,without}Output
struct f_intin_out : opd::op<"t_peer_forms::intin_out(Tensor dummy, int input) -> int"> {};
struct f_intin : opd::op<"t_peer_forms::intin(Tensor dummy, int input) -> ()"> {};
int64_t captured_int = 0;
int64_t intin_out_kernel(const Tensor&, int64_t x) { return x + 1; }
void intin_kernel(const Tensor&, int64_t x) { captured_int = x; }
TYPED_TEST(PeerKernelForms, KernelWithIntInput) {
  auto h1 = REG(f_intin_out, &intin_out_kernel, CPU);
  auto h2 = REG(f_intin, &intin_kernel, CPU);
  Stack s{cpu_dummy(), int64_t{3}};
  opd::call_boxed<f_intin_out>(s);
  EXPECT_EQ(s.at(0).to_int(), 4);
  Stack s2{cpu_dummy(), int64_t{7}};
  opd::call_boxed<f_intin>(s2);
  EXPECT_EQ(s2.size(), 0u);
  EXPECT_EQ(captured_int, 7);
  opd::call<f_intin>(cpu_dummy(), int64_t{8});
  EXPECT_EQ(captured_int, 8);
}

// givenKernelWithIntListInput_{with,without}Output
struct f_ilistin_out : opd::op<"t_peer_forms::ilistin_out(Tensor dummy, int[] input) -> int"> {};
struct f_ilistin : opd::op<"t_peer_forms::ilistin(Tensor dummy, int[] input) -> ()"> {};
int64_t ilistin_out_kernel(const Tensor&, std::span<const int64_t> v) { return static_cast<int64_t>(v.size()); }
void ilistin_kernel(const Tensor&, std::span<const int64_t> v) { captured_int = v.empty() ? -1 : v.back(); }
TYPED_TEST(PeerKernelForms, KernelWithIntListInput) {
  auto h1 = REG(f_ilistin_out, &ilistin_out_kernel, CPU);
  auto h2 = REG(f_ilistin, &ilistin_kernel, CPU);
  Stack s{cpu_dummy(), std::vector<int64_t>{2, 4, 6}};
  opd::call_boxed<f_ilistin_out>(s);
  EXPECT_EQ(s.at(0).to_int(), 3);
  Stack s2{cpu_dummy(), std::vector<int64_t>{2, 4, 6}};
  opd::call_boxed<f_ilistin>(s2);
  EXPECT_EQ(s2.size(), 0u);
  EXPECT_EQ(captured_int, 6);
  const std::vector<int64_t> v{1, 9};
  EXPECT_EQ(opd::call<f_ilistin_out>(cpu_dummy(), std::span<const int64_t>(v)), 2);
}

// givenKernelWithTensorListInput_{with,without}Output (the key comes from the list)
struct f_tlistin_out : opd::op<"t_peer_forms::tlistin_out(Tensor[] input) -> int"> {};
struct f_tlistin : opd::op<"t_peer_forms::tlistin(Tensor[] input) -> ()"> {};
int64_t tlistin_out_kernel(std::span<const Tensor> v) { return static_cast<int64_t>(v.size()); }
void tlistin_kernel(std::span<const Tensor> v) { captured_int = static_cast<int64_t>(v.size()) * 100; }
TYPED_TEST(PeerKernelForms, KernelWithTensorListInput) {
  auto h1 = REG(f_tlistin_out, &tlistin_out_kernel, CUDA);
  auto h2 = REG(f_tlistin, &tlistin_kernel, CUDA);
  Stack s{std::vector<Tensor>{cuda_dummy(), cuda_dummy()}};
  opd::call_boxed<f_tlistin_out>(s);
  EXPECT_EQ(s.at(0).to_int(), 2);
  Stack s2{std::vector<Tensor>{cuda_dummy(), cuda_dummy(), cuda_dummy()}};
  opd::call_boxed<f_tlistin>(s2);
  EXPECT_EQ(s2.size(), 0u);
  EXPECT_EQ(captured_int, 300);
  const std::vector<Tensor> v{cuda_dummy()};
  EXPECT_EQ(opd::call<f_tlistin_out>(std::span<const Tensor>(v)), 1);
  const std::vector<Tensor> cpu_list{cpu_dummy()};
  EXPECT_THROW(opd::call<f_tlistin_out>(std::span<const Tensor>(cpu_list)), opd::NotImplementedError);
}

// givenKernelWithOptionalInputs_{without,with,withMultiple}Output(s)
struct f_opt_noout : opd::op<"t_peer_forms::opt_noout(Tensor arg1, Tensor? arg2, int? arg3, str? arg4) -> ()"> {};
struct f_opt_out : opd::op<"t_peer_forms::opt_out(Tensor arg1, Tensor? arg2, int? arg3, str? arg4) -> Tensor?"> {};
struct f_opt_multi
    : opd::op<"t_peer_forms::opt_multi(Tensor arg1, Tensor? arg2, int? arg3, str? arg4) -> (Tensor?, int?, str?)"> {};
std::string opt_seen;
std::string describe(const std::optional<Tensor>& a2, std::optional<int64_t> a3, std::optional<std::string_view> a4) {
  return std::string(a2 ? "T" : "-") + (a3 ? std::to_string(*a3) : "-") + (a4 ? std::string(*a4) : "-");
}
void opt_noout_kernel(const Tensor&, const std::optional<Tensor>& a2, std::optional<int64_t> a3,
                      std::optional<std::string_view> a4) {
  opt_seen = describe(a2, a3, a4);
}
std::optional<Tensor> opt_out_kernel(const Tensor&, const std::optional<Tensor>& a2, std::optional<int64_t> a3,
                                     std::optional<std::string_view> a4) {
  opt_seen = describe(a2, a3, a4);
  return a2;
}
std::tuple<std::optional<Tensor>, std::optional<int64_t>, std::optional<std::string>> opt_multi_kernel(
    const Tensor&, const std::optional<Tensor>& a2, std::optional<int64_t> a3, std::optional<std::string_view> a4) {
  return {a2, a3, a4 ? std::optional<std::string>(std::string(*a4)) : std::nullopt};
}
TYPED_TEST(PeerKernelForms, KernelWithOptionalInputs) {
  auto h1 = REG(f_opt_noout, &opt_noout_kernel, CPU);
  auto h2 = REG(f_opt_out, &opt_out_kernel, CPU);
  auto h3 = REG(f_opt_multi, &opt_multi_kernel, CPU);
  const Tensor other = cpu_floats({2.f});

  Stack s{cpu_dummy(), other, IValue(), std::string("text")};
  opd::call_boxed<f_opt_noout>(s);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(opt_seen, "T-text");
  Stack s2{cpu_dummy(), IValue(), int64_t{4}, IValue()};
  opd::call_boxed<f_opt_noout>(s2);
  EXPECT_EQ(opt_seen, "-4-");

  Stack s3{cpu_dummy(), other, IValue(), std::string("text")};
  opd::call_boxed<f_opt_out>(s3);
  ASSERT_EQ(s3.size(), 1u);
  EXPECT_TRUE(s3[0].to_tensor().is_same(other));
  Stack s4{cpu_dummy(), IValue(), int64_t{4}, IValue()};
  opd::call_boxed<f_opt_out>(s4);
  ASSERT_EQ(s4.size(), 1u);
  EXPECT_TRUE(s4[0].is_none());

  Stack s5{cpu_dummy(), other, IValue(), std::string("text")};
  opd::call_boxed<f_opt_multi>(s5);
  ASSERT_EQ(s5.size(), 3u);
  EXPECT_TRUE(s5[0].to_tensor().is_same(other));
  EXPECT_TRUE(s5[1].is_none());
  EXPECT_EQ(s5[2].to<std::string>(), "text");

  auto [t, i, str] = opd::call<f_opt_multi>(cpu_dummy(), std::optional<Tensor>(), std::optional<int64_t>(3),
                                            std::optional<std::string_view>());
  EXPECT_FALSE(t.has_value());
  EXPECT_EQ(i, std::optional<int64_t>(3));
  EXPECT_FALSE(str.has_value());
}

// givenFallbackKernelWithoutAnyArguments / ...WithoutTensorArguments: PyTorch's
// catch-all kernel is a CompositeImplicitAutograd kernel; an operator without
// tensor arguments dispatches to CPU, which that kernel serves.
struct f_noargs : opd::op<"t_peer_forms::noargs() -> ()"> {};
struct f_notensor : opd::op<"t_peer_forms::notensor(int arg) -> int"> {};
void noargs_kernel() { ++noout_calls; }
int64_t notensor_kernel(int64_t x) { return x + 1; }
TYPED_TEST(PeerKernelForms, CatchAllKernelWithoutAnyArguments) {
  noout_calls = 0;
  auto h = REG(f_noargs, &noargs_kernel, CompositeImplicitAutograd);
  Stack s;
  opd::call_boxed<f_noargs>(s);
  EXPECT_EQ(s.size(), 0u);
  opd::call<f_noargs>();
  EXPECT_EQ(noout_calls, 2);
}
TYPED_TEST(PeerKernelForms, CatchAllKernelWithoutTensorArguments) {
  auto h = REG(f_notensor, &notensor_kernel, CompositeImplicitAutograd);
  Stack s{int64_t{3}};
  opd::call_boxed<f_notensor>(s);
  EXPECT_EQ(s.at(0).to_int(), 4);
  EXPECT_EQ(opd::call<f_notensor>(int64_t{9}), 10);
}

// givenKernelWithTupleInput_withOutput (PyTorch: functor form only)
struct f_tuplein : opd::op<"t_peer_forms::tuplein((str, int, float) input) -> str"> {};
std::string tuplein_kernel(const std::tuple<std::string, int64_t, double>& t) {
  return std::get<0>(t) + "/" + std::to_string(std::get<1>(t)) + "/" + std::to_string(std::get<2>(t));
}
TYPED_TEST(PeerKernelForms, KernelWithTupleInput) {
  auto h = REG(f_tuplein, &tuplein_kernel, CompositeImplicitAutograd);
  Stack s{IValue::tuple({IValue(std::string("foobar")), IValue(int64_t{123}), IValue(420.1337)})};
  opd::call_boxed<f_tuplein>(s);
  EXPECT_EQ(s.at(0).to<std::string>(), "foobar/123/420.133700");
  EXPECT_EQ(opd::call<f_tuplein>(std::tuple<std::string, int64_t, double>("x", 1, 0.5)), "x/1/0.500000");
}

// givenKernelWithDictInput_withoutOutput: a Dict(str, Tensor) reaches the
// kernel (PyTorch registers it as a catch-all kernel; no dispatch key is
// taken from a Dict's values, in c10 or here).
struct f_dictin : opd::op<"t_peer_forms::dict_input(Dict(str, Tensor) input) -> ()"> {};
int64_t captured_dict_size = 0;
void dictin_kernel(const opd::Dict<std::string, Tensor>& d) { captured_dict_size = static_cast<int64_t>(d.size()); }
TYPED_TEST(PeerKernelForms, KernelWithDictInputWithoutOutput) {
  auto h = REG(f_dictin, &dictin_kernel, CompositeImplicitAutograd);
  captured_dict_size = 0;
  opd::Dict<std::string, Tensor> dict;
  dict.insert("key1", cpu_dummy());
  dict.insert("key2", cuda_dummy());
  Stack s{IValue(dict)};
  opd::call_boxed<f_dictin>(s);
  EXPECT_EQ(s.size(), 0u);
  EXPECT_EQ(captured_dict_size, 2);
  dict.insert("key3", cpu_dummy());
  opd::call<f_dictin>(dict);
  EXPECT_EQ(captured_dict_size, 3);
}

// givenKernelWithDictInput_withOutput
struct f_dictin_out : opd::op<"t_peer_forms::dict_input_out(Dict(str, str) input) -> str"> {};
std::string dictin_out_kernel(const opd::Dict<std::string, std::string>& d) { return d.at("key2"); }
TYPED_TEST(PeerKernelForms, KernelWithDictInputWithOutput) {
  auto h = REG(f_dictin_out, &dictin_out_kernel, CompositeImplicitAutograd);
  opd::Dict<std::string, std::string> dict;
  dict.insert("key1", "value1");
  dict.insert("key2", "value2");
  Stack s{IValue(dict)};
  opd::call_boxed<f_dictin_out>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_string_ref(), "value2");
  dict.insert_or_assign("key2", "changed");
  EXPECT_EQ(opd::call<f_dictin_out>(dict), "changed");
}

// givenKernelWithDictOutput
struct f_dictout : opd::op<"t_peer_forms::dict_output(Dict(str, str) input) -> Dict(str, str)"> {};
opd::Dict<std::string, std::string> dictout_kernel(const opd::Dict<std::string, std::string>& d) { return d; }
TYPED_TEST(PeerKernelForms, KernelWithDictOutput) {
  auto h = REG(f_dictout, &dictout_kernel, CompositeImplicitAutograd);
  opd::Dict<std::string, std::string> dict;
  dict.insert("key1", "value1");
  dict.insert("key2", "value2");
  Stack s{IValue(dict)};
  opd::call_boxed<f_dictout>(s);
  ASSERT_EQ(s.size(), 1u);
  const auto output = s[0].to<opd::Dict<std::string, std::string>>();
  EXPECT_EQ(output.size(), 2u);
  EXPECT_EQ(output.at("key1"), "value1");
  EXPECT_EQ(output.at("key2"), "value2");
  const opd::Dict<std::string, std::string> typed = opd::call<f_dictout>(dict);
  EXPECT_EQ(typed.at("key1"), "value1");
  // The kernel returned its argument: shared, as c10's Dict (reference semantics).
  EXPECT_TRUE(typed.is(dict));
}

#undef REG

}  // namespace
