// Kernel forms c10 accepts besides the canonical ones (issue 14): a Tensor
// taken by value, a str taken as std::string, std::tuple<> for `-> ()`, and
// an operator declared from a kernel with its schema inferred (m.def(name, fn)).
// The entry points adapt them; typed and boxed calls reach them alike.
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Stack;
using opd::Tensor;

struct by_value_op : opd::op<"t_forms::by_value(Tensor self, Tensor? other) -> Tensor"> {};
struct str_op : opd::op<"t_forms::str(str s, str? t) -> int"> {};
struct nothing_op : opd::op<"t_forms::nothing(Tensor(a!) self) -> ()"> {};

static_assert(opd::schema::kernel_matches_v<by_value_op, Tensor (*)(Tensor, std::optional<Tensor>)>);
static_assert(opd::schema::kernel_matches_v<str_op, int64_t (*)(std::string, std::optional<std::string>)>);
static_assert(opd::schema::kernel_matches_v<str_op, int64_t (*)(const std::string&, const std::optional<std::string>&)>);
static_assert(opd::schema::kernel_matches_v<nothing_op, std::tuple<> (*)(Tensor&)>);
// Still rejected: a written tensor by value (the write would be lost), a str as int.
static_assert(!opd::schema::kernel_matches_v<nothing_op, void (*)(Tensor)>);
static_assert(!opd::schema::kernel_matches_v<str_op, int64_t (*)(int64_t, std::optional<std::string>)>);

Tensor by_value_kernel(Tensor self, std::optional<Tensor> other) {
  // A by-value Tensor is a counted copy: the caller's and this one share the impl.
  return other ? *other : self;
}

TEST(KernelForms, TensorByValueFunctionTypedAndBoxed) {
  auto r = opd::register_kernel<by_value_op, &by_value_kernel>(opd::DispatchKey::CPU);
  const Tensor a = cpu_floats({1.f}), b = cpu_floats({2.f});
  EXPECT_TRUE(opd::call<by_value_op>(a, std::optional<Tensor>()).is_same(a));
  EXPECT_TRUE(opd::call<by_value_op>(a, std::optional<Tensor>(b)).is_same(b));
  Stack s{IValue(a), IValue(b)};
  opd::call_boxed<by_value_op>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(b));
}

TEST(KernelForms, TensorByValueLambda) {
  auto r = opd::register_kernel<by_value_op>(opd::DispatchKey::CPU,
                                              [](Tensor self, std::optional<Tensor>) { return self; });
  const Tensor a = cpu_floats({1.f});
  EXPECT_TRUE(opd::call<by_value_op>(a, std::nullopt).is_same(a));
}

TEST(KernelForms, StrAsStdStringTypedAndBoxed) {
  std::vector<std::string> seen;
  auto r = opd::register_kernel<str_op>(opd::DispatchKey::CompositeImplicitAutograd,
                                         [&](std::string s, const std::optional<std::string>& t) -> int64_t {
                                           seen.push_back(s + "|" + t.value_or("<none>"));
                                           return static_cast<int64_t>(s.size());
                                         });
  EXPECT_EQ(opd::call<str_op>(std::string_view("abc"), std::optional<std::string_view>("de")), 3);
  Stack st{IValue(std::string("hello")), IValue()};
  opd::call_boxed<str_op>(st);
  ASSERT_EQ(st.size(), 1u);
  EXPECT_EQ(st[0].to_int(), 5);
  EXPECT_EQ(seen, (std::vector<std::string>{"abc|de", "hello|<none>"}));
}

TEST(KernelForms, EmptyTupleForNoReturns) {
  int calls = 0;
  auto r = opd::register_kernel<nothing_op>(opd::DispatchKey::CPU, [&](Tensor& self) {
    ++calls;
    float* d = static_cast<float*>(self.data_ptr());
    for (int64_t i = 0; i < self.numel(); ++i) d[i] = 7.f;
    return std::tuple<>();
  });
  Tensor t = cpu_floats({1.f, 2.f});
  opd::call<nothing_op>(t);
  Stack s{IValue(t)};
  opd::call_boxed<nothing_op>(s);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(floats_of(t), (std::vector<float>{7.f, 7.f}));
}

TEST(KernelForms, RunTimeSchemaTakesTheSameForms) {
  auto d = opd::declare("t_forms::rt(Tensor self, str name) -> ()");
  std::string got;
  auto r = opd::register_kernel("t_forms::rt", opd::DispatchKey::CPU, [&](Tensor self, const std::string& name) {
    got = name + ":" + std::to_string(self.numel());
    return std::tuple<>();
  });
  Stack s{IValue(cpu_floats({1.f, 2.f, 3.f})), IValue(std::string("n"))};
  opd::call_boxed("t_forms::rt", s);
  EXPECT_TRUE(s.empty());
  EXPECT_EQ(got, "n:3");
}

// Results returned by value stay values: only parameters take the canonical
// reference / view forms (a kernel's std::string result is not viewed).
TEST(KernelForms, RunTimeSchemaResultsByValueAreKept) {
  auto d1 = opd::declare("t_forms::rt_tensor(Tensor self) -> Tensor");
  auto d2 = opd::declare("t_forms::rt_str(str name) -> str");
  auto r1 = opd::register_kernel("t_forms::rt_tensor", opd::DispatchKey::CPU, [](Tensor self) -> Tensor {
    return opd::from_vector<float>({static_cast<float>(self.numel())});  // a fresh tensor, owned by the result
  });
  auto r2 = opd::register_kernel("t_forms::rt_str", opd::DispatchKey::CompositeImplicitAutograd,
                                 [](std::string name) -> std::string {
                                   return name + std::string(40, '!');  // longer than any small-string buffer
                                 });
  Stack s{IValue(cpu_floats({1.f, 2.f}))};
  opd::call_boxed("t_forms::rt_tensor", s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(floats_of(s[0].to_tensor()), (std::vector<float>{2.f}));
  Stack t{IValue(std::string("n"))};
  opd::call_boxed("t_forms::rt_str", t);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].to_string_ref(), "n" + std::string(40, '!'));
}

// ---- schema inference (c10: m.def("name", fn), infer_schema.h) -----------

TEST(KernelForms, DefInfersTheSchemaFromTheKernel) {
  auto r = opd::def("t_forms::scale", [](const Tensor& t, double f, std::optional<int64_t>, std::vector<int64_t> dims,
                                        std::string_view) -> std::tuple<Tensor, int64_t> {
    return {t, static_cast<int64_t>(f) + static_cast<int64_t>(dims.size())};
  });
  const opd::OperatorEntry& e = opd::Dispatcher::singleton().find_schema_or_throw("t_forms::scale");
  EXPECT_EQ(e.schema().text(), "t_forms::scale(Tensor _0, float _1, int? _2, int[] _3, str _4) -> (Tensor, int)");
  const Tensor a = cpu_floats({1.f});
  Stack s{IValue(a), IValue(2.0), IValue(), IValue(std::vector<int64_t>{1, 2}), IValue(std::string("x"))};
  opd::call_boxed("t_forms::scale", s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_TRUE(s[0].to_tensor().is_same(a));
  EXPECT_EQ(s[1].to_int(), 4);
}

// Dict parameters and results are inferred too (c10's infer_schema knows Dict).
TEST(KernelForms, DefInfersDictTypes) {
  auto r = opd::def("t_forms::dict_sizes", [](const opd::Dict<std::string, Tensor>& d) {
    opd::Dict<std::string, int64_t> out;
    for (const auto& e : d) out.insert(e.key(), e.value().numel());
    return out;
  });
  const opd::OperatorEntry& e = opd::Dispatcher::singleton().find_schema_or_throw("t_forms::dict_sizes");
  EXPECT_EQ(e.schema().text(), "t_forms::dict_sizes(Dict(str, Tensor) _0) -> Dict(str, int)");
  Stack s{IValue(opd::Dict<std::string, Tensor>{{"a", cpu_floats({1.f, 2.f})}})};
  opd::call_boxed("t_forms::dict_sizes", s);
  ASSERT_EQ(s.size(), 1u);
  using Sizes = opd::Dict<std::string, int64_t>;
  EXPECT_EQ(s[0].to<Sizes>().at("a"), 2);
}

TEST(KernelForms, DefMarksWrittenTensorsAndUndoesBoth) {
  {
    auto r = opd::def("t_forms::write", [](Tensor&, const Tensor&) {});
    const opd::OperatorEntry& e = opd::Dispatcher::singleton().find_schema_or_throw("t_forms::write");
    EXPECT_EQ(e.schema().text(), "t_forms::write(Tensor(a!) _0, Tensor _1) -> ()");
  }
  EXPECT_THROW((void)opd::Dispatcher::singleton().find_schema_or_throw("t_forms::write"), opd::Error);
}

TEST(KernelForms, DefOfAnExistingNameFailsAndLeavesTheFirst) {
  auto first = opd::def("t_forms::twice", [](int64_t x) { return x; });
  EXPECT_THROW((void)opd::def("t_forms::twice", [](double x) { return x; }), opd::Error);
  Stack s{IValue(int64_t{4})};
  opd::call_boxed("t_forms::twice", s);
  EXPECT_EQ(s.at(0).to_int(), 4);
}

}  // namespace
