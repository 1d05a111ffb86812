// Boxed calls and the adapters between the two calling conventions:
// results and stack discipline, argument type/count errors, typed calls that
// reach boxed kernels (Tensor& results are the caller's own tensors), and
// every kind of list/optional/str/Scalar argument surviving boxed->unboxed
// and unboxed->boxed.
#include <algorithm>
#include <array>
#include <functional>
#include <memory>
#include <span>
#include <stdexcept>
#include <sstream>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Scalar;
using opd::Stack;
using opd::Tensor;

// ---------------------------------------------------------- stack discipline --

struct multi_ret : opd::op<"t_box_stack::op(Tensor self, int n) -> (Tensor, int, str)"> {};
struct no_ret : opd::op<"t_box_stack::noret(Tensor self, int n) -> ()"> {};

TEST(DispatcherBoxed, ResultsReplaceTheArgumentsAndValuesBelowStayPut) {
  auto h = opd::register_kernel<multi_ret>(DispatchKey::CPU, [](const Tensor& t, int64_t n) {
    return std::tuple<Tensor, int64_t, std::string>(t, n * 2, "r");
  });
  const Tensor x = cpu_floats({1.f});
  Stack s{std::string("below"), int64_t{99}, x, int64_t{21}};
  opd::call_boxed<multi_ret>(s);
  ASSERT_EQ(s.size(), 5u);
  EXPECT_EQ(s[0].to<std::string>(), "below");
  EXPECT_EQ(s[1].to_int(), 99);
  EXPECT_TRUE(s[2].to_tensor().is_same(x));
  EXPECT_EQ(s[3].to_int(), 42);
  EXPECT_EQ(s[4].to<std::string>(), "r");
  // Typed calls get a tuple.
  auto [t, n, str] = opd::call<multi_ret>(x, int64_t{5});
  EXPECT_TRUE(t.is_same(x));
  EXPECT_EQ(n, 10);
  EXPECT_EQ(str, "r");
}

TEST(DispatcherBoxed, VoidKernelLeavesNothing) {
  int64_t seen = 0;
  auto h = opd::register_kernel<no_ret>(DispatchKey::CPU, [&](const Tensor&, int64_t n) { seen = n; });
  Stack s{int64_t{1}, cpu_floats({1.f}), int64_t{3}};
  opd::call_boxed<no_ret>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to_int(), 1);
  EXPECT_EQ(seen, 3);
  opd::call<no_ret>(cpu_floats({1.f}), int64_t{4});
  EXPECT_EQ(seen, 4);
}

TEST(DispatcherBoxed, CallByNameAndByEntry) {
  auto h = opd::register_kernel<multi_ret>(DispatchKey::CPU, [](const Tensor& t, int64_t n) {
    return std::tuple<Tensor, int64_t, std::string>(t, n, "by-name");
  });
  Stack s{cpu_floats({1.f}), int64_t{1}};
  opd::call_boxed("t_box_stack::op", s);
  EXPECT_EQ(s.at(2).to<std::string>(), "by-name");
  Stack s2{cpu_floats({1.f}), int64_t{1}};
  opd::call_boxed(opd::entry_for<multi_ret>(), s2);
  EXPECT_EQ(s2.size(), 3u);
  Stack s3{cpu_floats({1.f}), int64_t{1}};
  EXPECT_THROW(opd::call_boxed("t_box_stack::no_such_op", s3), opd::Error);
}

// ------------------------------------------------------------ boxed errors --

struct typed_args : opd::op<"t_box_err::op(Tensor self, int n, int[] dims, str? name=None) -> int"> {};

TEST(DispatcherBoxed, WrongTypeNamesOperatorArgumentPositionAndExpectedType) {
  auto h = opd::register_kernel<typed_args>(DispatchKey::CPU, [](const Tensor&, int64_t n, std::span<const int64_t>,
                                                                 std::optional<std::string_view>) -> int64_t { return n; });
  const Tensor x = cpu_floats({1.f});
  {
    Stack s{x, std::string("seven"), std::vector<int64_t>{1}, IValue()};
    const std::string msg = message_of([&] { opd::call_boxed<typed_args>(s); });
    EXPECT_NE(msg.find("t_box_err::op"), std::string::npos) << msg;
    EXPECT_NE(msg.find("argument 'n' (position 1) expected int but got String"), std::string::npos) << msg;
    EXPECT_THROW(opd::call_boxed<typed_args>(s), opd::TypeError);
  }
  {
    Stack s{x, int64_t{1}, 2.5, IValue()};
    const std::string msg = message_of([&] { opd::call_boxed<typed_args>(s); });
    EXPECT_NE(msg.find("argument 'dims' (position 2) expected int[] but got Double"), std::string::npos) << msg;
  }
  {
    Stack s{x, int64_t{1}, std::vector<int64_t>{}, int64_t{5}};
    const std::string msg = message_of([&] { opd::call_boxed<typed_args>(s); });
    EXPECT_NE(msg.find("argument 'name' (position 3) expected str? but got Int"), std::string::npos) << msg;
  }
  {
    // A non-tensor at a tensor position is that argument's error, found
    // before the dispatch keys are (not "no kernel for dispatch key
    // Undefined"), by operator type, by handle and by name; said once.
    for (int how = 0; how < 3; ++how) {
      Stack s{int64_t{0}, int64_t{1}, std::vector<int64_t>{}, IValue()};
      const std::string msg = message_of([&] {
        if (how == 0) opd::call_boxed<typed_args>(s);
        else if (how == 1) opd::call_boxed(opd::entry_for<typed_args>(), s);
        else opd::call_boxed("t_box_err::op", s);
      });
      EXPECT_EQ(msg, "t_box_err::op: argument 'self' (position 0) expected Tensor but got Int") << how;
      EXPECT_THROW(opd::call_boxed<typed_args>(s), opd::TypeError);
    }
  }
}

struct two_tensors : opd::op<"t_box_err::two(Tensor self, Tensor other) -> Tensor"> {};
TEST(DispatcherBoxed, WrongTypeBesideATensorIsSaidOnce) {
  auto h = opd::register_kernel<two_tensors>(DispatchKey::CPU, [](const Tensor& a, const Tensor&) { return a; });
  Stack s{cpu_floats({1.f}), int64_t{2}};
  const std::string msg = message_of([&] { opd::call_boxed("t_box_err::two", s); });
  EXPECT_EQ(msg, "t_box_err::two: argument 'other' (position 1) expected Tensor but got Int") << msg;
}

struct axpb : opd::op<"t_box_def::axpb(Tensor x, float a=2.0, int[2] pad=1, *, str mode=\"sum\", Tensor? w=None) -> str"> {};
TEST(DispatcherBoxed, TrailingArgumentsTakeTheSchemaDefaultsByNameHandleAndType) {
  auto h = opd::register_kernel<axpb>(DispatchKey::CPU, [](const Tensor&, double a, std::span<const int64_t> pad,
                                                            std::string_view mode, const std::optional<Tensor>& w) {
    return std::to_string(a) + " [" + std::to_string(pad[0]) + "," + std::to_string(pad[1]) + "] " + std::string(mode) +
           (w ? " w" : " none");
  });
  const std::string all_defaults = "2.000000 [1,1] sum none";
  for (int how = 0; how < 3; ++how) {
    const auto call = [&](Stack& s) {
      if (how == 0) opd::call_boxed<axpb>(s);
      else if (how == 1) opd::call_boxed(opd::entry_for<axpb>(), s);
      else opd::call_boxed("t_box_def::axpb", s);
    };
    Stack s{cpu_floats({1.f})};
    call(s);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(s[0].to<std::string>(), all_defaults) << how;
    Stack s2{cpu_floats({1.f}), 3.0};
    call(s2);
    EXPECT_EQ(s2[0].to<std::string>(), "3.000000 [1,1] sum none") << how;
    Stack empty;  // x has no default
    const std::string msg = message_of([&] { call(empty); });
    EXPECT_NE(msg.find("t_box_def::axpb: argument 'x' (position 0) was not given and has no default"), std::string::npos)
        << msg;
  }
}

TEST(DispatcherBoxed, WrongArgumentCountThrows) {
  auto h = opd::register_kernel<typed_args>(DispatchKey::CPU, [](const Tensor&, int64_t n, std::span<const int64_t>,
                                                                 std::optional<std::string_view>) -> int64_t { return n; });
  Stack s{cpu_floats({1.f}), int64_t{1}};  // dims (position 2) has no default
  const std::string msg = message_of([&] { opd::call_boxed<typed_args>(s); });
  EXPECT_NE(msg.find("t_box_err::op: argument 'dims' (position 2) was not given and has no default (expected 4 "
                     "arguments on the stack but it holds 2)"),
            std::string::npos)
      << msg;
  EXPECT_THROW(opd::call_boxed<typed_args>(s), opd::TypeError);
  Stack empty;
  EXPECT_THROW(opd::call_boxed<typed_args>(empty), opd::TypeError);
}

// ------------------------------------------------ typed call -> boxed kernel --

struct bk_add : opd::op<"t_box_bk::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};
struct bk_add_ : opd::op<"t_box_bk::add_(Tensor(a!) self, Tensor other) -> Tensor(a!)"> {};
struct bk_add_out : opd::op<"t_box_bk::add.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct bk_minmax_out
    : opd::op<"t_box_bk::minmax.out(Tensor self, *, Tensor(a!) min, Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)"> {};
struct bk_multi : opd::op<"t_box_bk::multi(Tensor self) -> (Tensor, int, float[])"> {};
struct bk_void : opd::op<"t_box_bk::void(Tensor self, int n) -> ()"> {};

TEST(DispatcherBoxed, TypedCallReachesABoxedKernel) {
  Stack seen;
  auto h = opd::register_boxed_kernel<bk_add>(DispatchKey::CPU, [&](const opd::OperatorEntry& op, DispatchKeySet ks, Stack* s) {
    EXPECT_EQ(op.name(), "t_box_bk::add");
    EXPECT_EQ(ks, DispatchKeySet(DispatchKey::CPU));
    seen = *s;
    const float a = opd::to_vector<float>((*s)[0].to_tensor())[0], b = opd::to_vector<float>((*s)[1].to_tensor())[0];
    const double alpha = (*s)[2].to_scalar().to<double>();
    s->clear();
    s->push_back(IValue(cpu_floats({static_cast<float>(a + alpha * b)})));
  });
  const Tensor r = opd::call<bk_add>(cpu_floats({1.f}), cpu_floats({2.f}), opd::arg<"alpha"> = Scalar(3.0));
  EXPECT_EQ(opd::to_vector<float>(r), std::vector<float>{7.f});
  ASSERT_EQ(seen.size(), 3u);  // every argument boxed, the default included
  EXPECT_TRUE(seen[2].is_double());
  EXPECT_EQ(opd::to_vector<float>(opd::call<bk_add>(cpu_floats({1.f}), cpu_floats({2.f}))), std::vector<float>{3.f});
  EXPECT_TRUE(seen[2].is_int());  // alpha=1 from the schema
}

TEST(DispatcherBoxed, TypedCallThroughABoxedKernelReturnsTheCallersTensorForInPlaceAndOut) {
  auto add_in_place = [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    Tensor self = (*s)[s->size() - 2].to_tensor();
    const float b = opd::to_vector<float>(s->back().to_tensor())[0];
    self.data_ptr<float>()[0] += b;
    s->resize(s->size() - 2);
    s->push_back(IValue(self));
  };
  auto h1 = opd::register_boxed_kernel<bk_add_>(DispatchKey::CPU, add_in_place);
  Tensor a = cpu_floats({1.f});
  Tensor& r = opd::call<bk_add_>(a, cpu_floats({5.f}));
  EXPECT_EQ(&r, &a);
  EXPECT_EQ(opd::to_vector<float>(a), std::vector<float>{6.f});

  auto h2 = opd::register_boxed_kernel<bk_add_out>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    Tensor out = (*s)[s->size() - 1].to_tensor();
    out.data_ptr<float>()[0] = opd::to_vector<float>((*s)[s->size() - 3].to_tensor())[0] +
                               opd::to_vector<float>((*s)[s->size() - 2].to_tensor())[0];
    s->resize(s->size() - 3);
    s->push_back(IValue(out));
  });
  Tensor out = cpu_floats({0.f});
  Tensor& o = opd::call<bk_add_out>(cpu_floats({2.f}), cpu_floats({3.f}), out);
  EXPECT_EQ(&o, &out);
  EXPECT_EQ(opd::to_vector<float>(out), std::vector<float>{5.f});

  auto h3 = opd::register_boxed_kernel<bk_minmax_out>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    const std::vector<float> x = opd::to_vector<float>((*s)[s->size() - 3].to_tensor());
    Tensor mn = (*s)[s->size() - 2].to_tensor(), mx = (*s)[s->size() - 1].to_tensor();
    mn.data_ptr<float>()[0] = *std::min_element(x.begin(), x.end());
    mx.data_ptr<float>()[0] = *std::max_element(x.begin(), x.end());
    s->resize(s->size() - 3);
    s->push_back(IValue(mn));
    s->push_back(IValue(mx));
  });
  Tensor mn = cpu_floats({0.f}), mx = cpu_floats({0.f});
  std::tuple<Tensor&, Tensor&> res = opd::call<bk_minmax_out>(cpu_floats({3.f, -1.f, 8.f}), mn, mx);
  EXPECT_EQ(&std::get<0>(res), &mn);
  EXPECT_EQ(&std::get<1>(res), &mx);
  EXPECT_EQ(opd::to_vector<float>(mn), std::vector<float>{-1.f});
  EXPECT_EQ(opd::to_vector<float>(mx), std::vector<float>{8.f});
}

TEST(DispatcherBoxed, TypedCallThroughABoxedKernelWithSeveralOrNoResults) {
  auto h = opd::register_boxed_kernel<bk_multi>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    Tensor t = s->back().to_tensor();
    s->pop_back();
    s->push_back(IValue(t));
    s->push_back(IValue(int64_t{3}));
    s->push_back(IValue(std::vector<double>{0.5, 1.5}));
  });
  const Tensor x = cpu_floats({1.f});
  auto [t, n, fs] = opd::call<bk_multi>(x);
  EXPECT_TRUE(t.is_same(x));
  EXPECT_EQ(n, 3);
  EXPECT_EQ(fs, (std::vector<double>{0.5, 1.5}));

  int64_t got = 0;
  auto hv = opd::register_boxed_kernel<bk_void>(DispatchKey::CPU, [&](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    got = s->back().to_int();
    s->clear();
  });
  opd::call<bk_void>(x, int64_t{11});
  EXPECT_EQ(got, 11);
}

TEST(DispatcherBoxed, BoxedKernelLeavingTooFewResultsIsAnError) {
  auto h = opd::register_boxed_kernel<bk_multi>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    s->clear();
    s->push_back(IValue(cpu_floats({1.f})));
  });
  EXPECT_THROW(opd::call<bk_multi>(cpu_floats({1.f})), opd::TypeError);
}

TEST(DispatcherBoxed, StatefulBoxedKernelAndBoxedKernelForARuntimeOperator) {
  struct counter {
    std::shared_ptr<int> n = std::make_shared<int>(0);
    void operator()(const opd::OperatorEntry&, DispatchKeySet, Stack* s) const {
      ++*n;
      s->back() = IValue(int64_t{*n});
    }
  };
  counter c;
  auto d = opd::declare("t_box_rt::count(Tensor self) -> int");
  auto h = opd::register_boxed_kernel("t_box_rt::count", DispatchKey::CPU, c);
  for (int i = 1; i <= 3; ++i) {
    Stack s{cpu_floats({1.f})};
    opd::call_boxed("t_box_rt::count", s);
    EXPECT_EQ(s.at(0).to_int(), i);
  }
  EXPECT_EQ(*c.n, 3);
}

// ----------------------------------------------------- lists and optionals --

// Every argument kind the adapters convert: the unboxed kernel summarises
// what it received; the boxed kernel checks the IValues it was given.
struct kinds_op : opd::op<
    "t_box_kinds::op(Tensor[] ts, int[] ints, Tensor?[] opt_ts, bool[3] mask, (int, str) tup, int[2] pair=1, str s=\"dflt\", "
    "Scalar sc=2.5, int? oi=None, float[] fs=[], str[] strs=[], bool[] bs=[], Tensor? ot=None, int[]? oints=None, "
    "float? of=None, Scalar? osc=None, str? os=None, Device? dev=None) -> str"> {};

std::string summarise(std::span<const Tensor> ts, std::span<const int64_t> ints, std::span<const std::optional<Tensor>> opt_ts,
                      std::array<bool, 3> mask, const std::tuple<int64_t, std::string>& tup, std::span<const int64_t> pair, std::string_view s, const Scalar& sc,
                      std::optional<int64_t> oi, std::span<const double> fs, std::span<const std::string> strs,
                      const std::vector<bool>& bs, const std::optional<Tensor>& ot, std::optional<std::span<const int64_t>> oints,
                      std::optional<double> of, const std::optional<Scalar>& osc, std::optional<std::string_view> os,
                      std::optional<opd::Device> dev) {
  std::string out = "ts:";
  for (const auto& t : ts) out += std::to_string(t.numel()) + ",";
  out += " ints:";
  for (auto i : ints) out += std::to_string(i) + ",";
  out += " opt_ts:";
  for (const auto& t : opt_ts) out += t ? std::to_string(t->numel()) + "," : std::string("None,");
  out += " mask:";
  for (bool b : mask) out += b ? "1" : "0";
  out += " pair:";
  for (auto i : pair) out += std::to_string(i) + ",";
  out += " s:" + std::string(s);
  std::ostringstream scs;
  scs << sc;
  out += " sc:" + scs.str();
  out += " oi:" + (oi ? std::to_string(*oi) : std::string("None"));
  out += " fs:";
  for (auto f : fs) out += std::to_string(f) + ",";
  out += " strs:";
  for (const auto& x : strs) out += x + ",";
  out += " bs:";
  for (bool b : bs) out += b ? "1" : "0";
  out += " ot:" + (ot ? std::to_string(ot->numel()) : std::string("None"));
  out += " oints:";
  if (oints)
    for (auto i : *oints) out += std::to_string(i) + ",";
  else
    out += "None";
  out += " of:" + (of ? std::to_string(*of) : std::string("None"));
  std::ostringstream oscs;
  if (osc) oscs << *osc;
  out += " osc:" + (osc ? oscs.str() : std::string("None"));
  out += " os:" + (os ? std::string(*os) : std::string("None"));
  out += " tup:" + std::to_string(std::get<0>(tup)) + "/" + std::get<1>(tup);
  std::ostringstream ds;
  if (dev) ds << *dev;
  out += " dev:" + (dev ? ds.str() : std::string("None"));
  return out;
}

TEST(DispatcherBoxed, ListsAndOptionalsRoundTripBoxedToUnboxed) {
  auto h = opd::register_kernel<kinds_op, &summarise>(DispatchKey::CPU);
  const Tensor a = opd::empty(std::vector<int64_t>{2}), b = opd::empty(std::vector<int64_t>{3});
  Stack s{std::vector<Tensor>{a, b},
          std::vector<int64_t>{1, -2},
          std::vector<std::optional<Tensor>>{a, std::nullopt, b},
          std::vector<bool>{true, false, true},
          IValue::tuple({IValue(int64_t{5}), IValue(std::string("t"))}),
          std::vector<int64_t>{7, 8},
          std::string("hello"),
          Scalar(int64_t{4}),
          int64_t{9},
          std::vector<double>{0.5},
          std::vector<std::string>{"x", "y"},
          std::vector<bool>{false, true},
          b,
          std::vector<int64_t>{3},
          1.5,
          Scalar(true),
          std::string("os"),
          opd::Device(opd::DeviceType::CUDA, 1)};
  opd::call_boxed<kinds_op>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to<std::string>(),
            "ts:2,3, ints:1,-2, opt_ts:2,None,3, mask:101 pair:7,8, s:hello sc:4 oi:9 fs:0.500000, strs:x,y, bs:01 "
            "ot:3 oints:3, of:1.500000 osc:true os:os tup:5/t dev:cuda:1");

  // All the optionals as None, the other lists empty (one tensor is needed to dispatch).
  Stack n{std::vector<Tensor>{a}, std::vector<int64_t>{}, std::vector<std::optional<Tensor>>{},
          std::vector<bool>{false, false, false}, IValue::tuple({IValue(int64_t{1}), IValue(std::string("a"))}),
          std::vector<int64_t>{1, 1}, std::string(""), Scalar(2.5), IValue(), std::vector<double>{},
          std::vector<std::string>{}, std::vector<bool>{}, IValue(), IValue(), IValue(), IValue(), IValue(), IValue()};
  opd::call_boxed<kinds_op>(n);
  EXPECT_EQ(n.at(0).to<std::string>(),
            "ts:2, ints: opt_ts: mask:000 pair:1,1, s: sc:2.5 oi:None fs: strs: bs: ot:None oints:None of:None osc:None "
            "os:None tup:1/a dev:None");
}

TEST(DispatcherBoxed, ListsAndOptionalsRoundTripUnboxedToBoxed) {
  // The typed call (defaults filled in) boxes every argument for a boxed kernel.
  Stack got;
  auto h = opd::register_boxed_kernel<kinds_op>(DispatchKey::CPU, [&](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    got = *s;
    s->clear();
    s->push_back(IValue(std::string("boxed")));
  });
  const Tensor a = opd::empty(std::vector<int64_t>{2});
  const std::vector<Tensor> ts{a, a};
  const std::vector<int64_t> ints{4, 5, 6};
  const std::vector<std::optional<Tensor>> opt_ts{std::nullopt, a};
  const std::vector<double> fs{1.0, 2.0};
  const std::vector<std::string> strs{"p"};
  const std::vector<int64_t> oints{9, 9};
  EXPECT_EQ(opd::call<kinds_op>(std::span<const Tensor>(ts), std::span<const int64_t>(ints),
                                std::span<const std::optional<Tensor>>(opt_ts), std::array<bool, 3>{true, true, false},
                                std::tuple<int64_t, std::string>(8, "z"), opd::arg<"fs"> = std::span<const double>(fs), opd::arg<"strs"> = std::span<const std::string>(strs),
                                opd::arg<"bs"> = std::vector<bool>{true},
                                opd::arg<"oints"> = std::optional<std::span<const int64_t>>(std::span<const int64_t>(oints)),
                                opd::arg<"osc"> = std::optional<Scalar>(Scalar(int64_t{-3})),
                                opd::arg<"os"> = std::optional<std::string_view>("str")),
            "boxed");
  ASSERT_EQ(got.size(), 18u);
  EXPECT_TRUE(got[0].is_tensor_list());
  EXPECT_EQ(got[0].to_tensor_list().size(), 2u);
  EXPECT_TRUE(got[0].to_tensor_list()[1].is_same(a));
  EXPECT_EQ(got[1].to_int_list(), ints);
  ASSERT_TRUE(got[2].is_optional_tensor_list());
  EXPECT_FALSE(got[2].to_optional_tensor_list()[0].has_value());
  EXPECT_TRUE(got[2].to_optional_tensor_list()[1]->is_same(a));
  EXPECT_EQ(got[3].to_bool_list(), (std::vector<bool>{true, true, false}));
  ASSERT_TRUE(got[4].is_tuple());
  EXPECT_EQ(got[4].to_tuple()[0].to_int(), 8);
  EXPECT_EQ(got[4].to_tuple()[1].to<std::string>(), "z");
  EXPECT_EQ(got[5].to_int_list(), (std::vector<int64_t>{1, 1}));  // int[2] pair=1 expands
  EXPECT_EQ(got[6].to<std::string>(), "dflt");
  EXPECT_TRUE(got[7].is_double());
  EXPECT_EQ(got[7].to_double(), 2.5);
  EXPECT_TRUE(got[8].is_none());
  EXPECT_EQ(got[9].to_double_list(), fs);
  EXPECT_EQ(got[10].to_string_list(), strs);
  EXPECT_EQ(got[11].to_bool_list(), std::vector<bool>{true});
  EXPECT_TRUE(got[12].is_none());
  EXPECT_EQ(got[13].to_int_list(), oints);
  EXPECT_TRUE(got[14].is_none());
  EXPECT_TRUE(got[15].is_int());
  EXPECT_EQ(got[15].to_int(), -3);
  EXPECT_EQ(got[16].to<std::string>(), "str");
  EXPECT_TRUE(got[17].is_none());

  // And the defaults of the empty lists.
  opd::call<kinds_op>(std::span<const Tensor>(ts), std::span<const int64_t>(ints),
                      std::span<const std::optional<Tensor>>(opt_ts), std::array<bool, 3>{},
                      std::tuple<int64_t, std::string>(1, "a"));
  EXPECT_EQ(got[9].to_double_list(), std::vector<double>{});
  EXPECT_EQ(got[10].to_string_list(), std::vector<std::string>{});
  EXPECT_EQ(got[11].to_bool_list(), std::vector<bool>{});
}

TEST(DispatcherBoxed, NoTensorsInTensorArgumentsMeansNoDispatchKey) {
  // As in PyTorch: an op with tensor arguments that are all empty/None has
  // nothing to dispatch on (it is not treated as a factory).
  auto h = opd::register_kernel<kinds_op, &summarise>(DispatchKey::CPU);
  Stack n{std::vector<Tensor>{}, std::vector<int64_t>{}, std::vector<std::optional<Tensor>>{std::nullopt},
          std::vector<bool>{false, false, false}, IValue::tuple({IValue(int64_t{1}), IValue(std::string("a"))}),
          std::vector<int64_t>{1, 1}, std::string(""), Scalar(2.5), IValue(), std::vector<double>{},
          std::vector<std::string>{}, std::vector<bool>{}, IValue(), IValue(), IValue(), IValue(), IValue(), IValue()};
  expect_throw_containing<opd::NotImplementedError>([&] { opd::call_boxed<kinds_op>(n); },
                                                    {"t_box_kinds::op", "dispatch key Undefined", "kernels for: CPU"});
}

TEST(DispatcherBoxed, UnboxedKernelCalledTypedAndBoxedSeesTheSameValues) {
  auto h = opd::register_kernel<kinds_op, &summarise>(DispatchKey::CPU);
  const Tensor a = opd::empty(std::vector<int64_t>{4});
  const std::vector<Tensor> ts{a};
  const std::vector<int64_t> ints{1};
  const std::vector<std::optional<Tensor>> opt_ts{a, std::nullopt};
  const std::string typed = opd::call<kinds_op>(std::span<const Tensor>(ts), std::span<const int64_t>(ints),
                                                std::span<const std::optional<Tensor>>(opt_ts),
                                                std::array<bool, 3>{false, true, false},
                                                std::tuple<int64_t, std::string>(1, "a"), opd::arg<"oi"> = std::optional<int64_t>(3),
                                                opd::arg<"ot"> = std::optional<Tensor>(a));
  Stack s{std::vector<Tensor>{a}, std::vector<int64_t>{1}, std::vector<std::optional<Tensor>>{a, std::nullopt},
          std::vector<bool>{false, true, false}, IValue::tuple({IValue(int64_t{1}), IValue(std::string("a"))}),
          std::vector<int64_t>{1, 1}, std::string("dflt"), Scalar(2.5), int64_t{3}, std::vector<double>{},
          std::vector<std::string>{}, std::vector<bool>{}, a, IValue(), IValue(), IValue(), IValue(), IValue()};
  opd::call_boxed<kinds_op>(s);
  EXPECT_EQ(s.at(0).to<std::string>(), typed);
}

// Kernels registered as functions share one boxed entry per signature
// (make_kernel.hpp): each boxed call must still reach its own kernel, for
// two operators of one signature and for two keys of one operator.
struct same_sig_a : opd::op<"t_box_shared::a(Tensor self, int n) -> int"> {};
struct same_sig_b : opd::op<"t_box_shared::b(Tensor self, int n) -> int"> {};
int64_t times_two(const Tensor&, int64_t n) { return 2 * n; }
int64_t plus_seven(const Tensor&, int64_t n) { return n + 7; }
int64_t minus_one(const Tensor&, int64_t n) { return n - 1; }

TEST(DispatcherBoxed, FunctionKernelsOfOneSignatureEachReachTheirOwnKernel) {
  auto ha = opd::register_kernel<same_sig_a, &times_two>(DispatchKey::CPU);
  auto hb = opd::register_kernel<same_sig_b, &plus_seven>(DispatchKey::CPU);
  auto hm = opd::register_kernel<same_sig_b, &minus_one>(DispatchKey::Meta);
  const Tensor t = opd::empty(std::vector<int64_t>{2});
  const Tensor m = opd::empty(std::vector<int64_t>{2}, opd::ScalarType::Float, opd::Device(opd::DeviceType::Meta));
  auto boxed = [](const opd::OperatorEntry& op, const Tensor& x, int64_t n) {
    Stack s{x, n};
    opd::call_boxed(op, s);
    return s.at(0).to<int64_t>();
  };
  EXPECT_EQ(boxed(opd::entry_for<same_sig_a>(), t, 5), 10);
  EXPECT_EQ(boxed(opd::entry_for<same_sig_b>(), t, 5), 12);
  EXPECT_EQ(boxed(opd::entry_for<same_sig_b>(), m, 5), 4);
  // The typed calls take the unboxed entries, as before.
  EXPECT_EQ(opd::call<same_sig_a>(t, int64_t{5}), 10);
  EXPECT_EQ(opd::call<same_sig_b>(m, int64_t{5}), 4);
}

// Empty-list defaults of element types that have no constexpr value.
// (Regression: leaving out `str[] x=[]`, `Tensor[] x=[]` or `Tensor?[] x=[]`
// in a typed call did not compile -- defaults.hpp had no value for them.)
struct list_defaults
    : opd::op<"t_box_listdef::op(Tensor self, str[] names=[], Tensor[] ts=[], Tensor?[] ots=[], float[] fs=[]) -> int"> {};

TEST(DispatcherBoxed, EmptyListDefaultsOfEveryElementType) {
  auto h = opd::register_kernel<list_defaults>(
      DispatchKey::CPU, [](const Tensor&, std::span<const std::string> names, std::span<const Tensor> ts,
                           std::span<const std::optional<Tensor>> ots, std::span<const double> fs) -> int64_t {
        return static_cast<int64_t>(names.size() * 1000 + ts.size() * 100 + ots.size() * 10 + fs.size());
      });
  const Tensor x = cpu_floats({1.f});
  EXPECT_EQ(opd::call<list_defaults>(x), 0);
  const std::vector<std::string> names{"a", "b"};
  EXPECT_EQ(opd::call<list_defaults>(x, opd::arg<"names"> = std::span<const std::string>(names)), 2000);
  // A boxed kernel sees the defaults as empty lists of the right kinds.
  h.release();
  Stack got;
  auto hb = opd::register_boxed_kernel<list_defaults>(DispatchKey::CPU, [&](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    got = *s;
    s->clear();
    s->push_back(IValue(int64_t{-1}));
  });
  EXPECT_EQ(opd::call<list_defaults>(x), -1);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_TRUE(got[1].is_string_list() && got[1].to_string_list().empty());
  EXPECT_TRUE(got[2].is_tensor_list() && got[2].to_tensor_list().empty());
  EXPECT_TRUE(got[3].is_optional_tensor_list() && got[3].to_optional_tensor_list().empty());
  EXPECT_TRUE(got[4].is_double_list() && got[4].to_double_list().empty());
}

// A `Tensor(a!)?` argument (FBGEMM-style "Tensor(a!)? output=None").
// (Regression: a typed kernel for it could not be registered -- the boxed
// adapter bound a std::optional<Tensor>& to a temporary -- and a typed call
// leaving the `=None` default out did not compile.)
struct opt_out : opd::op<"t_box_optout::op(Tensor self, Tensor(a!)? out=None) -> Tensor"> {};

TEST(DispatcherBoxed, MutableOptionalTensorArgument) {
  auto h = opd::register_kernel<opt_out>(DispatchKey::CPU, [](const Tensor& self, std::optional<Tensor>& out) -> Tensor {
    if (!out) return self;
    out->data_ptr<float>()[0] = opd::to_vector<float>(self)[0] * 2;
    return *out;
  });
  const Tensor x = cpu_floats({3.f});
  std::optional<Tensor> out = cpu_floats({0.f});
  EXPECT_TRUE(opd::call<opt_out>(x, out).is_same(*out));
  EXPECT_EQ(opd::to_vector<float>(*out), std::vector<float>{6.f});
  EXPECT_TRUE(opd::call<opt_out>(x).is_same(x));  // out=None from the schema
  Stack s{x, IValue()};
  opd::call_boxed<opt_out>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(x));
  Stack s2{x, *out};
  opd::call_boxed<opt_out>(s2);
  EXPECT_TRUE(s2.at(0).to_tensor().is_same(*out));
}

// Results of every list kind, unboxed kernel -> boxed caller and back.
struct list_results : opd::op<"t_box_lists::op(Tensor self) -> (Tensor[], int[], float[], str[], bool[], Tensor?[], int?, Scalar)"> {};

TEST(DispatcherBoxed, ListResultsBoxAndUnbox) {
  const Tensor x = cpu_floats({1.f});
  auto h = opd::register_kernel<list_results>(DispatchKey::CPU, [](const Tensor& t) {
    return std::tuple<std::vector<Tensor>, std::vector<int64_t>, std::vector<double>, std::vector<std::string>,
                      std::vector<bool>, std::vector<std::optional<Tensor>>, std::optional<int64_t>, Scalar>(
        {t, t}, {1, 2}, {0.25}, {"a", "b"}, {true, false}, {std::nullopt, t}, std::nullopt, Scalar(int64_t{6}));
  });
  Stack s{x};
  opd::call_boxed<list_results>(s);
  ASSERT_EQ(s.size(), 8u);
  EXPECT_EQ(s[0].to_tensor_list().size(), 2u);
  EXPECT_EQ(s[1].to_int_list(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(s[2].to_double_list(), std::vector<double>{0.25});
  EXPECT_EQ(s[3].to_string_list(), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s[4].to_bool_list(), (std::vector<bool>{true, false}));
  EXPECT_FALSE(s[5].to_optional_tensor_list()[0].has_value());
  EXPECT_TRUE(s[6].is_none());
  EXPECT_EQ(s[7].to_int(), 6);

  h.release();
  auto hb = opd::register_boxed_kernel<list_results>(DispatchKey::CPU, [](const opd::OperatorEntry&, DispatchKeySet, Stack* st) {
    Tensor t = st->back().to_tensor();
    st->clear();
    st->push_back(IValue(std::vector<Tensor>{t}));
    st->push_back(IValue(std::vector<int64_t>{3}));
    st->push_back(IValue(std::vector<double>{}));
    st->push_back(IValue(std::vector<std::string>{"c"}));
    st->push_back(IValue(std::vector<bool>{false}));
    st->push_back(IValue(std::vector<std::optional<Tensor>>{t}));
    st->push_back(IValue(int64_t{5}));
    st->push_back(IValue(Scalar(1.5)));
  });
  auto [ts, is, fs, ss, bs, ots, oi, sc] = opd::call<list_results>(x);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_TRUE(ts[0].is_same(x));
  EXPECT_EQ(is, std::vector<int64_t>{3});
  EXPECT_TRUE(fs.empty());
  EXPECT_EQ(ss, std::vector<std::string>{"c"});
  EXPECT_EQ(bs, std::vector<bool>{false});
  ASSERT_EQ(ots.size(), 1u);
  EXPECT_TRUE(ots[0]->is_same(x));
  EXPECT_EQ(oi, std::optional<int64_t>(5));
  EXPECT_EQ(sc.to<double>(), 1.5);
}


// ------------------------------------------- key extraction, both routes --
// call_boxed<Op> reads the tensor-bearing slots known from Op's schema at
// compile time; call_boxed(entry, stack) reads the positions the entry
// computed from its run-time schema. Both must see the same keys.
struct keyed_op : opd::op<"t_box_keys::op(Tensor? a, Tensor[] b, Tensor?[] c, int k) -> int"> {};
struct keyed_factory : opd::op<"t_box_keys::make(int[] size, *, Device? device=None) -> Tensor"> {};

TEST(DispatcherBoxed, CompileTimeAndRunTimeKeyExtractionAgree) {
  using Opts = std::vector<std::optional<Tensor>>;
  const Tensor cpu = cpu_floats({1.f});
  const Tensor meta = opd::empty(std::vector<int64_t>{1}, opd::ScalarType::Float, opd::Device(opd::DeviceType::Meta));
  const opd::OperatorEntry& e = opd::entry_for<keyed_op>();
  const std::vector<std::pair<Stack, DispatchKeySet>> cases = {
      {{IValue(), std::vector<Tensor>{}, Opts{}, int64_t{0}}, DispatchKeySet()},
      {{cpu, std::vector<Tensor>{}, Opts{}, int64_t{0}}, DispatchKeySet(DispatchKey::CPU)},
      {{IValue(), std::vector<Tensor>{meta}, Opts{}, int64_t{0}}, DispatchKeySet(DispatchKey::Meta)},
      {{IValue(), std::vector<Tensor>{}, Opts{std::nullopt, meta}, int64_t{0}}, DispatchKeySet(DispatchKey::Meta)},
      {{cpu, std::vector<Tensor>{meta}, Opts{}, int64_t{0}}, DispatchKeySet(DispatchKey::CPU) | DispatchKeySet(DispatchKey::Meta)},
  };
  for (const auto& [stack, expected] : cases) {
    const DispatchKeySet compiled = opd::boxed_key_set<keyed_op>(e, stack), runtime = opd::boxed_key_set(e, stack);
    EXPECT_EQ(compiled, runtime);
    EXPECT_TRUE(compiled.has_all(expected)) << compiled << " lacks " << expected;
    EXPECT_EQ(compiled.has(DispatchKey::Meta), expected.has(DispatchKey::Meta));
    EXPECT_EQ(compiled.has(DispatchKey::CPU), expected.has(DispatchKey::CPU));
  }
  // A factory dispatches on its Device argument; None means CPU.
  const opd::OperatorEntry& f = opd::entry_for<keyed_factory>();
  const std::vector<std::pair<Stack, DispatchKey>> factories = {
      {{std::vector<int64_t>{1}, IValue()}, DispatchKey::CPU},
      {{std::vector<int64_t>{1}, opd::Device(opd::DeviceType::Meta)}, DispatchKey::Meta},
      {{std::vector<int64_t>{1}, opd::Device(opd::DeviceType::PrivateUse1, 0)}, DispatchKey::PrivateUse1},
  };
  for (const auto& [stack, key] : factories) {
    EXPECT_EQ(opd::boxed_key_set<keyed_factory>(f, stack), opd::boxed_key_set(f, stack));
    EXPECT_TRUE(opd::boxed_key_set<keyed_factory>(f, stack).has(key)) << key;
  }
  // A value that bears no tensor at a tensor position: the same error from both, naming the argument.
  const Stack wrong{int64_t{3}, std::string("x"), Opts{}, int64_t{0}};
  EXPECT_THROW(opd::boxed_key_set<keyed_op>(e, wrong), opd::TypeError);
  EXPECT_THROW(opd::boxed_key_set(e, wrong), opd::TypeError);
  // Too few values: the same error from both.
  Stack short_stack{cpu};
  EXPECT_THROW(opd::boxed_key_set<keyed_op>(e, short_stack), opd::TypeError);
  EXPECT_THROW(opd::boxed_key_set(e, short_stack), opd::TypeError);
}

// ------------------------------------------- typed -> boxed, nested calls --
// A typed call reaching a boxed kernel borrows its Stack from a per-thread
// pool. A boxed kernel that itself makes such calls (recursively here) must
// get a stack of its own at each depth, and an exception must give every
// borrowed stack back.
struct nested_op : opd::op<"t_box_nested::op(Tensor self, int depth) -> Tensor"> {};

void nested_kernel(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  const int64_t depth = s->back().to_int();
  Tensor self = (*s)[s->size() - 2].to_tensor();
  if (depth < 0) throw std::runtime_error("bottom reached");
  if (depth > 0) {
    // Our own arguments stay on our stack while the inner call runs.
    Tensor inner = opd::call<nested_op>(self, depth - 1);
    EXPECT_EQ(s->size(), 2u);
    EXPECT_EQ(s->back().to_int(), depth);
    // Starting from 0, each level below has added 1 to self: inner = (depth-1) + (depth-1).
    EXPECT_EQ(opd::to_vector<float>(inner)[0], static_cast<float>(2 * (depth - 1)));
    self.data_ptr<float>()[0] += 1.f;
  }
  s->clear();
  s->emplace_back(cpu_floats({static_cast<float>(depth) + self.data_ptr<float>()[0]}));
}

TEST(DispatcherBoxed, NestedTypedCallsThroughBoxedKernelsEachGetTheirOwnStack) {
  auto h = opd::register_boxed_kernel<nested_op>(DispatchKey::CPU, &nested_kernel);
  const Tensor x = cpu_floats({0.f});
  const Tensor r = opd::call<nested_op>(x, int64_t{40});
  EXPECT_EQ(opd::to_vector<float>(r), std::vector<float>{80.f});  // 40 + 40 increments
  EXPECT_EQ(x.use_count(), 1u);  // the pooled stacks hold no reference once the calls return
  // The innermost call throws: every level unwinds, and the pool is usable after.
  EXPECT_THROW(opd::call<nested_op>(x, int64_t{-1}), std::runtime_error);
  EXPECT_EQ(x.use_count(), 1u);
  EXPECT_EQ(opd::to_vector<float>(opd::call<nested_op>(cpu_floats({0.f}), int64_t{2})), std::vector<float>{4.f});
}

// ------------------------------------------------------ borrowed arguments --
// A caller that keeps its tensors alive can lend them to a stack
// (IValue(opd::borrow, t)): no reference count traffic. Whatever the kernel
// does with them, the caller's reference counts come out right.

struct borrow_op : opd::op<"t_box_borrow::op(Tensor self, Tensor other) -> Tensor"> {};
struct borrow_inplace : opd::op<"t_box_borrow::op_(Tensor(a!) self, Tensor other) -> Tensor(a!)"> {};

Stack borrowed_stack_of(const Tensor& a, const Tensor& b) {
  Stack s;
  s.reserve(2);  // no reallocation: a move would make the borrows owned
  s.emplace_back(opd::borrow, a);
  s.emplace_back(opd::borrow, b);
  return s;
}

TEST(DispatcherBoxed, ABoxedKernelSeesBorrowsAndOwnsWhatItMovesOut) {
  const Tensor a = cpu_floats({1.f}), b = cpu_floats({2.f});
  std::size_t count_in_kernel = 0;
  bool borrowed = false;
  auto h = opd::register_boxed_kernel<borrow_op>(DispatchKey::CPU, [&](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    borrowed = (*s)[0].is_borrowed() && (*s)[1].is_borrowed();
    count_in_kernel = (*s)[0].to_tensor().use_count();
    IValue self = std::move((*s)[0]);  // moved out of the stack: owned
    s->clear();
    s->push_back(std::move(self));
  });
  Stack s = borrowed_stack_of(a, b);
  opd::call_boxed<borrow_op>(s);
  EXPECT_TRUE(borrowed);
  EXPECT_EQ(count_in_kernel, 1u);  // the stack took no reference
  ASSERT_EQ(s.size(), 1u);
  EXPECT_FALSE(s[0].is_borrowed());
  EXPECT_TRUE(s[0].to_tensor().is_same(a));
  EXPECT_EQ(a.use_count(), 2u);  // a and the result
  EXPECT_EQ(b.use_count(), 1u);
  s.clear();
  EXPECT_EQ(a.use_count(), 1u);
}

TEST(DispatcherBoxed, ABoxedKernelKeepingABorrowedArgumentOwnsIt) {
  std::vector<IValue> kept;
  auto h = opd::register_boxed_kernel<borrow_op>(DispatchKey::CPU, [&](const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
    kept.push_back((*s)[0]);             // a copy
    kept.push_back(std::move((*s)[1]));  // a move
    s->clear();
    s->emplace_back(cpu_floats({0.f}));
  });
  {
    const Tensor a = cpu_floats({1.f, 2.f}), b = cpu_floats({3.f});
    Stack s = borrowed_stack_of(a, b);
    opd::call_boxed<borrow_op>(s);
    EXPECT_EQ(a.use_count(), 2u);
    EXPECT_EQ(b.use_count(), 2u);
  }
  // The caller's tensors are gone; the kernel's copies still hold them.
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_FALSE(kept[0].is_borrowed());
  EXPECT_FALSE(kept[1].is_borrowed());
  EXPECT_EQ(opd::to_vector<float>(kept[0].to_tensor()), (std::vector<float>{1.f, 2.f}));
  EXPECT_EQ(opd::to_vector<float>(kept[1].to_tensor()), std::vector<float>{3.f});
  EXPECT_EQ(kept[0].to_tensor().use_count(), 1u);
}

TEST(DispatcherBoxed, AnUnboxedKernelRebindingItsTensorRefOnABorrowedStack) {
  // A kernel that rebinds its Tensor& (unusual, but legal C++) on a stack of
  // borrows: the slot takes a reference first, so nothing is over-released.
  const Tensor replacement = cpu_floats({9.f});
  auto h = opd::register_kernel<borrow_inplace>(DispatchKey::CPU, [&](Tensor& self, const Tensor&) -> Tensor& {
    self = replacement;
    return self;
  });
  const Tensor a = cpu_floats({1.f}), b = cpu_floats({2.f});
  Stack s = borrowed_stack_of(a, b);
  opd::call_boxed<borrow_inplace>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_TRUE(s[0].to_tensor().is_same(replacement));
  EXPECT_EQ(a.use_count(), 1u);
  EXPECT_EQ(b.use_count(), 1u);
  EXPECT_EQ(replacement.use_count(), 2u);
  s.clear();
  EXPECT_EQ(replacement.use_count(), 1u);
}

TEST(DispatcherBoxed, ABoxedCallOnBorrowedArgumentsReachingAnUnboxedKernel) {
  auto h = opd::register_kernel<borrow_op>(DispatchKey::CPU, [](const Tensor& self, const Tensor& other) {
    EXPECT_EQ(self.use_count(), 1u);  // borrowed: only the caller's reference
    EXPECT_EQ(other.use_count(), 1u);
    return self;
  });
  const Tensor a = cpu_floats({1.f}), b = cpu_floats({2.f});
  Stack s = borrowed_stack_of(a, b);
  opd::call_boxed<borrow_op>(s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_FALSE(s[0].is_borrowed());  // the result is owned
  EXPECT_TRUE(s[0].to_tensor().is_same(a));
  EXPECT_EQ(a.use_count(), 2u);
  EXPECT_EQ(b.use_count(), 1u);
  s.clear();
  EXPECT_EQ(a.use_count(), 1u);
}

// ------------------------------------------------------------------ Dicts --

// Dict(K, V) arguments and results through every path: keys of each kind,
// nested and optional values; typed->typed, boxed->typed, typed->boxed.
struct dict_op : opd::op<
    "t_box_dict::op(Tensor self, Dict(str, Tensor) named, Dict(int, float[]) weights, "
    "Dict(Tensor, bool) flags, Dict(str, Dict(float, str))? nested=None) -> Dict(str, int)"> {};
using NamedT = opd::Dict<std::string, Tensor>;
using WeightsT = opd::Dict<int64_t, std::vector<double>>;
using FlagsT = opd::Dict<Tensor, bool>;
using NestedT = opd::Dict<std::string, opd::Dict<double, std::string>>;
using CountsT = opd::Dict<std::string, int64_t>;

CountsT summarise_dicts(const Tensor& self, const NamedT& named, const WeightsT& weights, const FlagsT& flags,
                        const std::optional<NestedT>& nested) {
  CountsT out;
  out.insert("named", static_cast<int64_t>(named.size()));
  out.insert("weights", static_cast<int64_t>(weights.at(7).size()));
  out.insert("self_flag", flags.contains(self) && flags.at(self) ? 1 : 0);
  out.insert("nested", nested ? static_cast<int64_t>(nested->at("n").size()) : -1);
  return out;
}

TEST(DispatcherBoxed, DictArgumentsAndResultsThroughEveryPath) {
  auto h = opd::register_kernel<dict_op, &summarise_dicts>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  const NamedT named{{"a", x}, {"b", cpu_floats({2.f})}};
  const WeightsT weights{{7, {0.5, 1.5, 2.5}}};
  const FlagsT flags{{x, true}};
  const NestedT nested{{"n", {{0.5, "half"}, {1.5, "more"}}}};

  // typed -> typed
  const CountsT typed = opd::call<dict_op>(x, named, weights, flags, nested);
  EXPECT_EQ(typed.at("named"), 2);
  EXPECT_EQ(typed.at("weights"), 3);
  EXPECT_EQ(typed.at("self_flag"), 1);
  EXPECT_EQ(typed.at("nested"), 2);
  // boxed -> typed (None for `nested`)
  Stack s{x, IValue(named), IValue(weights), IValue(flags), IValue()};
  opd::call_boxed<dict_op>(s);
  ASSERT_EQ(s.size(), 1u);
  ASSERT_TRUE(s[0].is_generic_dict());
  const auto boxed = s[0].to<CountsT>();
  EXPECT_EQ(boxed.at("nested"), -1);
  EXPECT_EQ(boxed.at("named"), 2);
  // The entries' order is the kernel's insertion order.
  std::ostringstream printed;
  printed << s[0];
  EXPECT_EQ(printed.str(), "{\"named\": 2, \"weights\": 3, \"self_flag\": 1, \"nested\": -1}");

  // A Dict's tensors bring no dispatch keys (nor in c10): a CUDA tensor inside
  // `named` leaves this call on the CPU kernel.
  const NamedT with_cuda{{"c", tensor_with_keys(DispatchKey::CUDA)}};
  EXPECT_EQ(opd::call<dict_op>(x, with_cuda, weights, flags, std::nullopt).at("named"), 1);

  // typed -> boxed: the boxed kernel sees the caller's dicts, shared.
  auto h2 = opd::register_boxed_kernel<dict_op>(DispatchKey::CUDA, [&](const opd::OperatorEntry&, DispatchKeySet,
                                                                       Stack* st) {
    EXPECT_TRUE((*st)[1].to<NamedT>().is(named));
    EXPECT_TRUE((*st)[4].is_generic_dict());
    CountsT result;
    result.insert("from_boxed", static_cast<int64_t>((*st)[2].to<WeightsT>().size()));
    st->clear();
    st->push_back(IValue(result));
  });
  const Tensor y = tensor_with_keys(DispatchKey::CUDA);
  EXPECT_EQ(opd::call<dict_op>(y, named, weights, flags, nested).at("from_boxed"), 1);
}

// A boxed value that is not the schema's Dict is a TypeError naming the
// operator, the argument, the expected type and what was wrong; the
// caller's dicts are unchanged.
TEST(DispatcherBoxed, DictOfTheWrongTypeNamesOperatorArgumentAndExpectedType) {
  auto h = opd::register_kernel<dict_op, &summarise_dicts>(DispatchKey::CPU);
  const Tensor x = cpu_floats({1.f});
  const opd::Dict<std::string, int64_t> not_tensors{{"a", 1}};
  const WeightsT weights{{7, {0.5}}};
  const FlagsT flags{{x, true}};
  {
    Stack s{x, IValue(not_tensors), IValue(weights), IValue(flags), IValue()};
    const std::string msg = message_of([&] { opd::call_boxed<dict_op>(s); });
    EXPECT_NE(msg.find("t_box_dict::op: argument 'named' (position 1) expected Dict(str, Tensor) but got GenericDict"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("entry 0 has a value of kind Int"), std::string::npos) << msg;
    EXPECT_THROW(opd::call_boxed<dict_op>(s), opd::TypeError);
    EXPECT_EQ(not_tensors.at("a"), 1);
    EXPECT_EQ(not_tensors.size(), 1u);
  }
  {
    Stack s{x, IValue(NamedT{}), IValue(weights), IValue(flags), IValue(int64_t{3})};
    const std::string msg = message_of([&] { opd::call_boxed<dict_op>(s); });
    EXPECT_NE(msg.find("argument 'nested' (position 4) expected Dict(str, Dict(float, str))? but got Int"),
              std::string::npos)
        << msg;
  }
}

// A run-time schema with Dicts takes a typed kernel of the matching Dict
// types, and rejects one of other Dict types at registration.
TEST(DispatcherBoxed, DictInARunTimeSchema) {
  auto d = opd::declare("t_box_dict::rt(Dict(str, Tensor) d, Dict(int, t) any) -> Dict(str, int)?");
  auto r = opd::register_kernel("t_box_dict::rt", DispatchKey::CompositeImplicitAutograd,
                                [](const NamedT& d, const opd::Dict<int64_t, IValue>& any) {
                                  return std::optional<CountsT>(CountsT{{"n", static_cast<int64_t>(d.size() + any.size())}});
                                });
  Stack s{IValue(NamedT{{"a", cpu_floats({1.f})}}), IValue(opd::Dict<int64_t, IValue>{{1, IValue("x")}})};
  opd::call_boxed("t_box_dict::rt", s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].to<CountsT>().at("n"), 2);
  EXPECT_THROW((void)opd::register_kernel("t_box_dict::rt", DispatchKey::CPU,
                                          [](const opd::Dict<std::string, int64_t>&, const opd::Dict<int64_t, IValue>&) {
                                            return std::optional<CountsT>();
                                          }),
               opd::TypeError);
}

}  // namespace
