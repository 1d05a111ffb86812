// Every argument type of PyTorch 1.13's native_functions.yaml (the 52 that
// occur there), plus the placeholder types, through both adapters: a boxed
// call reaching a typed kernel (the IValue unboxes to the kernel's parameter
// type and boxes back to an equal IValue), and a typed call of the same
// value reaching a boxed kernel (which sees the same IValue).
#include <optional>
#include <string>
#include <vector>

#include "test_support.hpp"

namespace {

using namespace opd_test;
using opd::IValue;
using opd::Stack;
using opd::Tensor;

// The last argument a kernel saw, boxed again.
IValue& seen() {
  static IValue v;
  return v;
}

// A typed kernel for (Tensor self, X x) -> Tensor that records x.
template <class Sig>
struct recorder;
template <class X>
struct recorder<Tensor(const Tensor&, X)> {
  static Tensor fn(const Tensor& self, X x) {
    seen() = opd::boxing::box(x);
    return self;
  }
};

void boxed_recorder(const opd::OperatorEntry&, DispatchKeySet, Stack* s) {
  seen() = s->back();
  Tensor self = (*s)[s->size() - 2].to_tensor();
  s->clear();
  s->emplace_back(std::move(self));
}

// g++ 12 -O2/-O3 reports the std::optional<Generator> held by unboxed_arg as
// "may be used uninitialized" when it is destroyed: the optional's own
// engaged flag guards it (GCC bug 80635, a known false positive).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
template <class Op>
void round_trip(const IValue& sample) {
  SCOPED_TRACE(std::string(Op::schema.text) + " with " + std::string(sample.tag_kind()));
  const Tensor self = cpu_floats({1.f});
  {
    auto h = opd::register_kernel<Op, &recorder<typename Op::signature>::fn>(DispatchKey::CPU);
    Stack s{self, sample};
    seen() = IValue();
    opd::call_boxed<Op>(s);
    ASSERT_EQ(s.size(), 1u);
    EXPECT_TRUE(s[0].to_tensor().is_same(self));
    EXPECT_EQ(seen(), sample);
  }
  {
    // The same value as the kernel's C++ parameter type, called typed.
    using X = boost::mp11::mp_at_c<opd::schema::arg_types_t<Op>, 1>;
    auto h = opd::register_boxed_kernel<Op>(DispatchKey::CPU, &boxed_recorder);
    opd::boxing::unboxed_arg<X> x(sample);
    seen() = IValue();
    const Tensor r = opd::call<Op>(self, x.get());
    EXPECT_TRUE(r.is_same(self));
    EXPECT_EQ(seen(), sample);
  }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#define OPD_EVERY(N, TYPE) \
  struct every_##N : opd::op<"t_every::op" #N "(Tensor self, " TYPE " x) -> Tensor"> {}

OPD_EVERY(0, "Device");
OPD_EVERY(1, "Device?");
OPD_EVERY(2, "Dimname");
OPD_EVERY(3, "Dimname[1]");
OPD_EVERY(4, "Dimname[]");
OPD_EVERY(5, "Dimname[]?");
OPD_EVERY(6, "Generator?");
OPD_EVERY(7, "Layout");
OPD_EVERY(8, "Layout?");
OPD_EVERY(9, "MemoryFormat");
OPD_EVERY(10, "MemoryFormat?");
OPD_EVERY(11, "Scalar");
OPD_EVERY(12, "Scalar?");
OPD_EVERY(13, "ScalarType");
OPD_EVERY(14, "ScalarType?");
OPD_EVERY(15, "Scalar[]");
OPD_EVERY(16, "Storage");
OPD_EVERY(17, "Stream");
OPD_EVERY(18, "SymInt");
OPD_EVERY(19, "SymInt?");
OPD_EVERY(20, "SymInt[2]");
OPD_EVERY(21, "SymInt[]");
OPD_EVERY(22, "SymInt[]?");
OPD_EVERY(23, "Tensor?");
OPD_EVERY(24, "Tensor?[]");
OPD_EVERY(25, "Tensor[]");
OPD_EVERY(26, "bool");
OPD_EVERY(27, "bool?");
OPD_EVERY(28, "bool[3]");
OPD_EVERY(29, "float");
OPD_EVERY(30, "float?");
OPD_EVERY(31, "float[]?");
OPD_EVERY(32, "int");
OPD_EVERY(33, "int?");
OPD_EVERY(34, "int[2]");
OPD_EVERY(35, "int[1]?");
OPD_EVERY(36, "int[]");
OPD_EVERY(37, "int[]?");
OPD_EVERY(38, "str");
OPD_EVERY(39, "str?");
OPD_EVERY(40, "QScheme");
OPD_EVERY(41, "Tensor");
#undef OPD_EVERY

TEST(DispatcherEveryType, EachArgumentTypeOfNativeFunctionsRoundTripsThroughBothAdapters) {
  const Tensor t = cpu_floats({2.f, 3.f});
  using Strings = std::vector<std::string>;
  using Ints = std::vector<int64_t>;
  round_trip<every_0>(IValue(opd::Device(opd::DeviceType::Meta)));
  round_trip<every_1>(IValue());
  round_trip<every_1>(IValue(opd::Device(opd::DeviceType::CPU)));
  round_trip<every_2>(IValue(std::string("N")));
  round_trip<every_3>(IValue(Strings{"N"}));
  round_trip<every_4>(IValue(Strings{"N", "C"}));
  round_trip<every_5>(IValue());
  round_trip<every_5>(IValue(Strings{"H"}));
  round_trip<every_6>(IValue());
  round_trip<every_7>(IValue(opd::Layout::Strided));
  round_trip<every_8>(IValue());
  round_trip<every_9>(IValue(opd::MemoryFormat::ChannelsLast));
  round_trip<every_10>(IValue(opd::MemoryFormat::Preserve));
  round_trip<every_11>(IValue(opd::Scalar(2.5)));
  round_trip<every_12>(IValue(opd::Scalar(int64_t{3})));
  round_trip<every_12>(IValue());
  round_trip<every_13>(IValue(opd::ScalarType::Half));
  round_trip<every_14>(IValue(opd::ScalarType::Long));
  round_trip<every_15>(IValue(std::vector<opd::Scalar>{opd::Scalar(int64_t{1}), opd::Scalar(2.5)}));
  round_trip<every_16>(IValue(t.storage()));
  round_trip<every_17>(IValue(opd::Stream{opd::Device(opd::DeviceType::CUDA, 1), 12345}));
  round_trip<every_18>(IValue(int64_t{-7}));
  round_trip<every_19>(IValue());
  round_trip<every_20>(IValue(Ints{2, 3}));
  round_trip<every_21>(IValue(Ints{}));
  round_trip<every_22>(IValue(Ints{4}));
  round_trip<every_23>(IValue(t));
  round_trip<every_23>(IValue());
  round_trip<every_24>(IValue(std::vector<std::optional<Tensor>>{t, std::nullopt}));
  round_trip<every_25>(IValue(std::vector<Tensor>{t, t}));
  round_trip<every_26>(IValue(true));
  round_trip<every_27>(IValue(false));
  round_trip<every_28>(IValue(std::vector<bool>{true, false, true}));
  round_trip<every_29>(IValue(0.25));
  round_trip<every_30>(IValue());
  round_trip<every_31>(IValue(std::vector<double>{1.5, -2.0}));
  round_trip<every_32>(IValue(int64_t{42}));
  round_trip<every_33>(IValue(int64_t{0}));
  round_trip<every_34>(IValue(Ints{1, 2}));
  round_trip<every_35>(IValue(Ints{9}));
  round_trip<every_36>(IValue(Ints{1, 2, 3}));
  round_trip<every_37>(IValue());
  round_trip<every_38>(IValue(std::string("a \"quoted\" str")));
  round_trip<every_39>(IValue());
  round_trip<every_40>(IValue(opd::QScheme::PerChannelSymmetric));
  round_trip<every_41>(IValue(t));
}

TEST(DispatcherEveryType, PlaceholderConversionsRejectBadValues) {
  // A Dimname list boxed from C++ is a StringList, as in PyTorch.
  const std::vector<opd::Dimname> names{opd::Dimname::intern("N"), opd::Dimname::intern("C")};
  const IValue boxed(names);
  EXPECT_TRUE(boxed.is_string_list());
  EXPECT_EQ(boxed.to<std::vector<opd::Dimname>>(), names);
  // Interned: the name outlives the IValue it came from.
  opd::Dimname d = IValue(std::string("W")).to<opd::Dimname>();
  EXPECT_EQ(d.name, "W");
  EXPECT_EQ(d.name.data(), opd::Dimname::intern("W").name.data());
  EXPECT_THROW((void)IValue(int64_t{3}).to<opd::Dimname>(), opd::TypeError);
  // QScheme and Stream travel as Int and check what they unpack.
  EXPECT_THROW((void)IValue(int64_t{17}).to<opd::QScheme>(), opd::ValueError);
  EXPECT_THROW((void)IValue(int64_t{-1}).to<opd::Stream>(), opd::ValueError);
  const opd::Stream s{opd::Device(opd::DeviceType::PrivateUse2, 3), 7};
  EXPECT_EQ(IValue(s).to<opd::Stream>(), s);
  EXPECT_THROW((void)IValue(opd::Stream{opd::Device(opd::DeviceType::CPU), -5}), opd::ValueError);
}

}  // namespace
