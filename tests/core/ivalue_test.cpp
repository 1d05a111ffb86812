// IValue: construction from every schema type, round trips, exact error
// messages, copy/move/swap semantics and refcounts, equality, printing, and
// the Stack helpers. Ports of PyTorch's aten/src/ATen/test/ivalue_test.cpp
// scenarios are marked "peer: IValueTest.X".
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "core_test_support.hpp"
#include "dispatch/core/dict.hpp"
#include "dispatch/core/ivalue.hpp"

using opd::Device;
using opd::IValue;
using opd::IValueTag;
using opd::ScalarType;
using opd::Tensor;

namespace {

using opd_core_test::error_of;
using opd_core_test::str;



struct Widget {
  int value = 0;
};

// A type known only to this test, carried as a String via ivalue_converter.
struct Color {
  std::string name;
  friend bool operator==(const Color&, const Color&) = default;
};

}  // namespace

template <>
struct opd::ivalue_converter<Color> {
  static IValue to_ivalue(const Color& c) { return IValue(c.name); }
  static Color from_ivalue(const IValue& iv) { return Color{iv.to_string_ref()}; }
};

namespace {

constexpr std::size_t kSamples = 19;

// One value of every kind (peer: makeSampleIValues).
std::array<IValue, kSamples> make_samples() {
  return {
      IValue(),
      IValue(opd::empty({3, 4})),
      IValue(opd::Storage::allocate(8, Device::cpu())),
      IValue(1.5),
      IValue(std::complex<double>(2.5, -0.5)),
      IValue(42),
      IValue(true),
      IValue(std::make_tuple(23, "hello")),
      IValue("hello"),
      IValue::make_object(std::make_shared<Widget>(), "test.Widget"),
      IValue(std::vector<int64_t>{1, 2, 3}),
      IValue(std::vector<IValue>{IValue(1), IValue("a")}),
      IValue(opd::Generator(1)),
      IValue(Device(opd::DeviceType::CPU, 0)),
      IValue(std::vector<double>{0.5}),
      IValue(std::vector<Tensor>{opd::empty({1})}),
      IValue(std::vector<std::optional<Tensor>>{std::nullopt, opd::empty({2})}),
      IValue(std::vector<bool>{true, false}),
      IValue(std::vector<std::string>{"x", "y"}),
  };
}

// A different value of every kind (peer: makeMoreSampleIValues).
std::array<IValue, kSamples> make_more_samples() {
  return {
      IValue(),
      IValue(opd::empty({3, 4})),
      IValue(opd::Storage::allocate(8, Device::cpu())),
      IValue(2.5),
      IValue(std::complex<double>(2.7, -0.3)),
      IValue(43),
      IValue(false),
      IValue(std::make_tuple(1, "goodbye")),
      IValue("goodbye"),
      IValue::make_object(std::make_shared<Widget>(), "test.Widget"),
      IValue(std::vector<int64_t>{4, 5, 6}),
      IValue(std::vector<IValue>{IValue(2.0)}),
      IValue(opd::Generator(2)),
      IValue(Device(opd::DeviceType::CUDA, 2)),
      IValue(std::vector<double>{1.5, 2.5}),
      IValue(std::vector<Tensor>{}),
      IValue(std::vector<std::optional<Tensor>>{}),
      IValue(std::vector<bool>{false}),
      IValue(std::vector<std::string>{"z"}),
  };
}

}  // namespace

TEST(IValue, IsTwoWords) { EXPECT_EQ(sizeof(IValue), 16u); }

// peer: IValueTest.Basic (lists shared by copies, moved-from is None, tuple
// elements, tensor refcounts through copies and rvalue access).
TEST(IValueTest, Basic) {
  IValue bar(std::vector<int64_t>{3, 4, 5});
  EXPECT_TRUE(bar.is_int_list());
  IValue baz = bar;
  EXPECT_TRUE(baz.is_alias_of(bar));  // copies share the list
  IValue foo2 = std::move(bar);
  EXPECT_TRUE(foo2.is_int_list());
  EXPECT_TRUE(bar.is_none());  // NOLINT(bugprone-use-after-move)
  foo2 = IValue(4.0);
  EXPECT_TRUE(foo2.is_double());
  EXPECT_EQ(foo2.to_double(), 4.0);
  EXPECT_EQ(baz.to_int_list(), (std::vector<int64_t>{3, 4, 5}));

  auto moved = std::move(baz).to_int_list();
  EXPECT_EQ(moved, (std::vector<int64_t>{3, 4, 5}));
  EXPECT_TRUE(baz.is_none());  // NOLINT(bugprone-use-after-move)

  IValue i(4);
  EXPECT_TRUE(i.is_int());
  EXPECT_EQ(i.to_int(), 4);
  IValue dlist(std::vector<double>{3.5});
  EXPECT_TRUE(dlist.is_double_list());
  EXPECT_EQ(dlist.to_double_list(), std::vector<double>{3.5});
  (void)std::move(dlist).to_double_list();
  EXPECT_TRUE(dlist.is_none());  // NOLINT(bugprone-use-after-move)

  IValue the_list = IValue::tuple({IValue(3.4), IValue(4), IValue(std::vector<int64_t>{1})});
  EXPECT_TRUE(the_list.is_tuple());
  EXPECT_EQ(the_list.to_tuple()[1].to_int(), 4);

  Tensor tv = opd::empty({3, 4});
  IValue ten(tv);
  EXPECT_EQ(tv.use_count(), 2u);
  auto ten2 = ten;
  EXPECT_EQ(tv.use_count(), 3u);
  EXPECT_TRUE(ten2.to_tensor().is_same(ten.to_tensor()));
  (void)std::move(ten2).to_tensor();
  EXPECT_EQ(tv.use_count(), 2u);

  IValue c(std::complex<double>(3, 4));
  EXPECT_TRUE(c.is_complex_double());
  EXPECT_EQ(c.to_complex_double(), std::complex<double>(3, 4));
}

TEST(IValue, TensorRefcountsCopyBumpsMoveDoesNot) {
  Tensor t = opd::empty({2});
  IValue a(t);
  EXPECT_EQ(t.use_count(), 2u);
  IValue b(std::move(a));
  EXPECT_EQ(t.use_count(), 2u);
  const Tensor& borrowed = b.to_tensor();  // no bump
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(borrowed.is_same(t));
  Tensor owned = std::move(b).to_tensor();
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_TRUE(b.is_none());  // NOLINT(bugprone-use-after-move)
  IValue from_temp(opd::empty({1}));
  EXPECT_EQ(from_temp.to_tensor().use_count(), 1u);
}

TEST(IValue, RoundTripsEveryType) {
  Tensor t = opd::empty({2});
  EXPECT_TRUE(IValue(t).to<Tensor>().is_same(t));
  EXPECT_EQ(IValue(true).to<bool>(), true);
  EXPECT_EQ(IValue(int64_t{-7}).to<int64_t>(), -7);
  EXPECT_EQ(IValue(7u).to<int64_t>(), 7);
  EXPECT_EQ(IValue(2.5f).to<double>(), 2.5);
  EXPECT_EQ(IValue(std::complex<float>(1, -1)).to<std::complex<double>>(), std::complex<double>(1, -1));
  EXPECT_EQ(IValue(std::string("abc")).to<std::string>(), "abc");
  EXPECT_EQ(IValue(std::string_view("sv")).to_string_ref(), "sv");
  IValue s("view");
  EXPECT_EQ(s.to<std::string_view>(), "view");
  EXPECT_EQ(IValue(Device::cuda(3)).to<Device>(), Device::cuda(3));
  EXPECT_EQ(IValue(Device::cpu()).to_device(), Device::cpu());
  EXPECT_EQ(IValue(opd::Scalar(2.5)).to<opd::Scalar>(), opd::Scalar(2.5));
  EXPECT_EQ(IValue(opd::Scalar(std::complex<double>(1, 2))).tag(), IValueTag::ComplexDouble);
  EXPECT_EQ(IValue(opd::Scalar(true)).tag(), IValueTag::Bool);
  opd::Generator g(9);
  EXPECT_EQ(IValue(g).to<opd::Generator>(), g);
  EXPECT_EQ(g.use_count(), 1u);  // the temporary IValue released its reference
  opd::Storage st = opd::Storage::allocate(4, Device::cpu());
  EXPECT_TRUE(IValue(st).to<opd::Storage>().is_same(st));

  EXPECT_EQ(IValue(std::vector<int64_t>{1, 2}).to<std::vector<int64_t>>(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(IValue(opd::IntArrayRef({4, 5})).to_int_list(), (std::vector<int64_t>{4, 5}));
  EXPECT_EQ(IValue(std::vector<int>{1, 2}).tag(), IValueTag::IntList);
  EXPECT_EQ(IValue(std::vector<float>{0.5f}).to_double_list(), std::vector<double>{0.5});
  EXPECT_EQ(IValue(std::vector<bool>{true}).to<std::vector<bool>>(), std::vector<bool>{true});
  EXPECT_EQ(IValue(std::vector<std::string>{"a"}).to<std::vector<std::string>>(), std::vector<std::string>{"a"});
  const auto tl = IValue(std::vector<Tensor>{t, t}).to<std::vector<Tensor>>();
  ASSERT_EQ(tl.size(), 2u);
  EXPECT_TRUE(tl[1].is_same(t));
  const auto otl =
      IValue(std::vector<std::optional<Tensor>>{std::nullopt, t}).to<std::vector<std::optional<Tensor>>>();
  ASSERT_EQ(otl.size(), 2u);
  EXPECT_FALSE(otl[0].has_value());
  EXPECT_TRUE(otl[1]->is_same(t));

  IValue ints(std::vector<int64_t>{9, 8});
  opd::IntArrayRef ref = ints.to<opd::IntArrayRef>();  // borrows the list
  EXPECT_EQ(ref.data(), ints.to_int_list().data());
}

TEST(IValue, EnumsTravelAsInt) {
  IValue dtype(ScalarType::Half);
  EXPECT_TRUE(dtype.is_int());
  EXPECT_EQ(dtype.to_int(), 5);
  EXPECT_EQ(dtype.to_scalar_type(), ScalarType::Half);
  EXPECT_EQ(dtype.to<ScalarType>(), ScalarType::Half);
  EXPECT_EQ(IValue(opd::Layout::Sparse).to_layout(), opd::Layout::Sparse);
  EXPECT_EQ(IValue(opd::MemoryFormat::ChannelsLast).to<opd::MemoryFormat>(), opd::MemoryFormat::ChannelsLast);
  EXPECT_EQ(IValue(opd::MemoryFormat::ChannelsLast).to_int(), 2);
  EXPECT_EQ(error_of([] { (void)IValue(99).to_scalar_type(); }), "Int value 99 is not a valid ScalarType");
  EXPECT_EQ(error_of([] { (void)IValue(-1).to_layout(); }), "Int value -1 is not a valid Layout");
  EXPECT_EQ(error_of([] { (void)IValue(1.0).to_memory_format(); }), "Expected Int but got Double");
}

TEST(IValue, OptionalsAndNone) {
  EXPECT_TRUE(IValue(std::optional<int64_t>()).is_none());
  EXPECT_TRUE(IValue(std::nullopt).is_none());
  EXPECT_EQ(IValue(std::optional<int64_t>(3)).to_int(), 3);
  EXPECT_EQ(IValue().to<std::optional<double>>(), std::nullopt);
  EXPECT_EQ(IValue(2.0).to<std::optional<double>>(), 2.0);
  EXPECT_EQ(IValue().to<std::optional<ScalarType>>(), std::nullopt);
  EXPECT_EQ(IValue(ScalarType::Long).to<std::optional<ScalarType>>(), ScalarType::Long);
  EXPECT_THROW((void)IValue("x").to<std::optional<int64_t>>(), opd::Error);
}

TEST(IValue, WrongAccessorThrowsNamingExpectedAndActualTag) {
  EXPECT_EQ(error_of([] { (void)IValue(1.5).to_int(); }), "Expected Int but got Double");
  EXPECT_EQ(error_of([] { (void)IValue("s").to_tensor(); }), "Expected Tensor but got String");
  EXPECT_EQ(error_of([] { (void)IValue().to_bool(); }), "Expected Bool but got None");
  EXPECT_EQ(error_of([] { (void)IValue(3).to_int_list(); }), "Expected IntList but got Int");
  EXPECT_EQ(error_of([] { (void)IValue(std::vector<int64_t>{}).to_double_list(); }),
            "Expected DoubleList but got IntList");
  EXPECT_EQ(error_of([] { (void)IValue(true).to_device(); }), "Expected Device but got Bool");
  EXPECT_EQ(error_of([] { (void)IValue(opd::empty({1})).to_string_ref(); }), "Expected String but got Tensor");
  EXPECT_EQ(error_of([] { (void)IValue(1).to_tuple(); }), "Expected Tuple but got Int");
  EXPECT_EQ(error_of([] { (void)IValue("x").to_scalar(); }), "Expected Scalar but got String");
  EXPECT_EQ(error_of([] { (void)IValue(1).to<std::vector<std::vector<int64_t>>>(); }),
            "Expected GenericList but got Int");
  EXPECT_EQ(error_of([] { (void)IValue::tuple({IValue(1)}).to<std::tuple<int64_t, int64_t>>(); }),
            "Expected a tuple of 2 elements but got 1");
  // The accessor failing leaves the value intact.
  IValue keep(std::vector<int64_t>{1});
  EXPECT_THROW((void)std::move(keep).to_tensor_list(), opd::TypeError);
  EXPECT_TRUE(keep.is_int_list());
}

TEST(IValue, TagNamesAreUnique) {
  std::set<std::string> names;
  for (int i = 0; i <= static_cast<int>(IValueTag::Object); ++i) {
    const std::string name(opd::tag_name(static_cast<IValueTag>(i)));
    EXPECT_NE(name, "InvalidTag");
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_EQ(IValue(1).tag_kind(), "Int");
}

TEST(IValue, ScalarQueries) {
  EXPECT_TRUE(IValue(1).is_scalar());
  EXPECT_TRUE(IValue(1.0).is_scalar());
  EXPECT_TRUE(IValue(false).is_scalar());
  EXPECT_TRUE(IValue(std::complex<double>()).is_scalar());
  EXPECT_FALSE(IValue("1").is_scalar());
  EXPECT_FALSE(IValue().is_scalar());
  EXPECT_EQ(IValue(3).to_scalar().type(), ScalarType::Long);
  EXPECT_EQ(IValue(3.0).to_scalar().to_double(), 3.0);
}

// peer: IValueTest.ScalarBool
TEST(IValueTest, ScalarBool) {
  opd::Scalar expected(true);
  IValue v(expected);
  opd::Scalar actual = v.to_scalar();
  EXPECT_TRUE(actual.is_boolean());
  EXPECT_TRUE(actual.to_bool());
}

// peer: IValueTest.Complex
TEST(IValueTest, Complex) {
  auto c = std::complex<double>(2, 3);
  auto c_ = std::complex<double>(2, -3);
  IValue c1(c), c2(c_), c3{opd::Scalar(c)};
  EXPECT_TRUE(c1.is_complex_double());
  EXPECT_TRUE(c3.is_complex_double());
  EXPECT_EQ(c, c1.to_complex_double());
  EXPECT_FALSE(c1 == c2);
  EXPECT_TRUE(c1 == c3);
  EXPECT_TRUE(c1.is_scalar());
  EXPECT_TRUE(c2.to_scalar().equal(c_));
}

// peer: IValueTest.Tuple
TEST(IValueTest, Tuple) {
  Tensor t = opd::from_vector<float>({1.25f});
  auto iv = IValue(std::make_tuple(int64_t{123}, t));
  EXPECT_TRUE(iv.is_tuple());
  auto t_ = iv.to<std::tuple<int64_t, Tensor>>();
  EXPECT_EQ(std::get<0>(t_), 123);
  EXPECT_EQ(opd::to_vector<float>(std::get<1>(t_)), std::vector<float>{1.25f});
  EXPECT_TRUE(std::get<1>(t_).is_same(t));
  // Moving out of an rvalue tuple moves its elements.
  auto moved = std::move(iv).to<std::tuple<int64_t, Tensor>>();
  EXPECT_TRUE(iv.is_none());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(t.use_count(), 3u);  // t, t_, moved
  // Nested and generic views of a tuple.
  IValue nested = IValue::tuple({IValue(1), IValue::tuple({IValue("a"), IValue()})});
  auto [one, inner] = nested.to<std::tuple<int64_t, std::tuple<std::string, std::optional<double>>>>();
  EXPECT_EQ(one, 1);
  EXPECT_EQ(std::get<0>(inner), "a");
  EXPECT_FALSE(std::get<1>(inner).has_value());
  EXPECT_EQ(nested.to<std::vector<IValue>>().size(), 2u);
}

// peer: IValueTest.TuplePrint
TEST(IValueTest, TuplePrint) {
  EXPECT_EQ(str(IValue(std::make_tuple(3))), "(3,)");
  EXPECT_EQ(str(IValue(std::make_tuple(3, 3))), "(3, 3)");
  EXPECT_EQ(str(IValue::tuple({})), "()");
}

TEST(IValue, Printing) {
  EXPECT_EQ(str(IValue()), "None");
  EXPECT_EQ(str(IValue(true)), "True");
  EXPECT_EQ(str(IValue(-4)), "-4");
  EXPECT_EQ(str(IValue(2.0)), "2.0");
  EXPECT_EQ(str(IValue(0.25)), "0.25");
  EXPECT_EQ(str(IValue(std::complex<double>(2, -3))), "(2-3j)");
  EXPECT_EQ(str(IValue("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(str(IValue(Device::cuda(1))), "cuda:1");
  EXPECT_EQ(str(IValue(std::vector<int64_t>{1, 2, 3})), "[1, 2, 3]");
  EXPECT_EQ(str(IValue(std::vector<double>{1.0, 0.5})), "[1.0, 0.5]");
  EXPECT_EQ(str(IValue(std::vector<bool>{true, false})), "[True, False]");
  EXPECT_EQ(str(IValue(std::vector<std::string>{"x"})), "[\"x\"]");
  EXPECT_EQ(str(IValue(std::vector<std::optional<Tensor>>{std::nullopt, opd::empty({2})})),
            "[None, Tensor(sizes=[2], dtype=Float, device=cpu)]");
  EXPECT_EQ(str(IValue(std::vector<IValue>{IValue(1), IValue("s"), IValue::tuple({IValue()})})),
            "[1, \"s\", (None,)]");
  EXPECT_EQ(str(IValue::make_object(std::make_shared<Widget>(), "my.Widget")), "Object(my.Widget)");
  EXPECT_EQ(str(IValue(opd::Generator(3))), "Generator(seed=3, device=cpu)");
}

// peer: IValueTest.CopyConstruct
TEST(IValueTest, CopyConstruct) {
  auto samples = make_samples();
  for (const IValue& v : samples) {
    IValue copy(v);
    EXPECT_EQ(copy, v);
    EXPECT_EQ(copy.is_ptr_type(), v.is_ptr_type());
    if (v.is_ptr_type()) {
      EXPECT_TRUE(copy.is_alias_of(v));
    }
  }
}

// peer: IValueTest.MoveConstruct
TEST(IValueTest, MoveConstruct) {
  auto samples = make_samples();
  for (const IValue& v : samples) {
    IValue source(v);
    IValue target(std::move(source));
    EXPECT_EQ(target, v);
    EXPECT_TRUE(source.is_none());  // NOLINT(bugprone-use-after-move)
  }
}

// peer: IValueTest.CopyAssign
TEST(IValueTest, CopyAssign) {
  auto inputs = make_samples();
  auto targets = make_more_samples();
  for (const IValue& input : inputs) {
    for (const IValue& target : targets) {
      IValue copy_to(target);
      IValue copy_from(input);
      copy_to = copy_from;
      EXPECT_EQ(copy_to, input);
      EXPECT_EQ(copy_from, input);
      EXPECT_EQ(copy_to, copy_from);
    }
  }
  // Self-assignment keeps the value.
  IValue self(std::vector<int64_t>{1});
  const IValue& alias = self;
  self = alias;
  EXPECT_EQ(self.to_int_list(), std::vector<int64_t>{1});
}

// peer: IValueTest.MoveAssign
TEST(IValueTest, MoveAssign) {
  auto inputs = make_samples();
  auto targets = make_more_samples();
  for (const IValue& input : inputs) {
    for (const IValue& target : targets) {
      IValue move_to(target);
      IValue move_from(input);
      move_to = std::move(move_from);
      EXPECT_EQ(move_to, input);
      EXPECT_TRUE(move_from.is_none());  // NOLINT(bugprone-use-after-move)
    }
  }
  // Assigning an element of a list the IValue itself owns is safe.
  IValue outer(std::vector<IValue>{IValue("inner")});
  IValue& element = const_cast<IValue&>(outer.to_generic_list()[0]);
  outer = std::move(element);
  EXPECT_EQ(outer.to_string_ref(), "inner");
}

// peer: IValueTest.Swap
TEST(IValueTest, Swap) {
  auto inputs = make_samples();
  auto targets = make_more_samples();
  for (const IValue& input : inputs) {
    for (const IValue& target : targets) {
      IValue a(input);
      IValue b(target);
      EXPECT_EQ(a, input);
      EXPECT_EQ(b, target);
      a.swap(b);
      EXPECT_EQ(a, target);
      EXPECT_EQ(b, input);
    }
  }
}

// peer: IValueTest.TensorEquality / IdentityComparisonAndHashing ("CompareTensor"):
// tensors compare by identity.
TEST(IValueTest, CompareTensor) {
  Tensor t1 = opd::empty({3, 4});
  Tensor t2 = opd::empty({3, 4});
  IValue tv1(t1), tv2(t2), tv1b(t1);
  EXPECT_EQ(tv1, tv1);
  EXPECT_EQ(tv1, tv1b);
  EXPECT_NE(tv1, tv2);
  EXPECT_EQ(IValue(Tensor()), IValue(Tensor()));
  EXPECT_NE(IValue(Tensor()), IValue());
  EXPECT_NE(IValue(t1), IValue(std::vector<Tensor>{t1}));
  EXPECT_EQ(IValue(std::vector<Tensor>{t1, t2}), IValue(std::vector<Tensor>{t1, t2}));
  EXPECT_NE(IValue(std::vector<Tensor>{t1, t2}), IValue(std::vector<Tensor>{t2, t1}));
  // Views alias but are not the same tensor.
  IValue view(t1.as_strided({2}, {1}));
  EXPECT_NE(view, tv1);
  EXPECT_TRUE(view.is_alias_of(tv1));
}

// peer: IValueTest.ValueEquality
TEST(IValueTest, ValueEquality) {
  EXPECT_EQ(IValue("asdf"), IValue("asdf"));
  EXPECT_NE(IValue("asdf"), IValue("ASDF"));
  EXPECT_NE(IValue("2"), IValue(2));
  EXPECT_EQ(IValue(1), IValue(1));
  EXPECT_NE(IValue(1), IValue(1.0));  // strict tags
  EXPECT_NE(IValue(1), IValue(true));
  EXPECT_EQ(IValue(Device::cuda(0)), IValue(Device::cuda(0)));
  EXPECT_NE(IValue(Device::cuda(0)), IValue(Device::cuda(1)));
}

// peer: IValueTest.ListEquality
TEST(IValueTest, ListEquality) {
  IValue c1 = std::vector<int64_t>{0, 1, 2, 3};
  IValue c2 = std::vector<int64_t>{0, 1, 2, 3};
  IValue c3 = std::vector<int64_t>{0, 1, 2, 3, 4};
  EXPECT_EQ(c1, c1);
  EXPECT_EQ(c1, c2);
  EXPECT_FALSE(c1.is_alias_of(c2));
  EXPECT_NE(c1, c3);
  EXPECT_NE(c2, c3);
}

// peer: IValueTest.ListNestedEquality
TEST(IValueTest, ListNestedEquality) {
  IValue c1 = std::vector<std::vector<int64_t>>({{0}, {0, 1}, {0, 1, 2}});
  IValue c2 = std::vector<std::vector<int64_t>>({{0}, {0, 1}, {0, 1, 2}});
  IValue c3 = std::vector<std::vector<int64_t>>({{1}, {0, 1}, {0, 1, 2}});
  EXPECT_TRUE(c1.is_generic_list());
  EXPECT_EQ(c1, c1);
  EXPECT_EQ(c1, c2);
  EXPECT_NE(c1, c3);
  EXPECT_NE(c2, c3);
}

// peer: c10 ListConstruction-style checks: each vector type picks its list kind.
TEST(IValueTest, ListConstruction) {
  EXPECT_EQ(IValue(std::vector<Tensor>{}).tag(), IValueTag::TensorList);
  EXPECT_EQ(IValue(std::vector<std::optional<Tensor>>{}).tag(), IValueTag::OptionalTensorList);
  EXPECT_EQ(IValue(std::vector<int64_t>{}).tag(), IValueTag::IntList);
  EXPECT_EQ(IValue(std::vector<int32_t>{1}).tag(), IValueTag::IntList);
  EXPECT_EQ(IValue(std::vector<double>{}).tag(), IValueTag::DoubleList);
  EXPECT_EQ(IValue(std::vector<bool>{}).tag(), IValueTag::BoolList);
  EXPECT_EQ(IValue(std::vector<std::string>{}).tag(), IValueTag::StringList);
  EXPECT_EQ(IValue(std::vector<IValue>{}).tag(), IValueTag::GenericList);
  EXPECT_EQ(IValue::generic_list({IValue(1)}).tag(), IValueTag::GenericList);
  EXPECT_EQ(IValue(std::vector<opd::Scalar>{1, 2.5}).tag(), IValueTag::GenericList);
  EXPECT_TRUE(IValue(std::vector<int64_t>{}).is_list());
  EXPECT_FALSE(IValue::tuple({}).is_list());

  // Element-wise conversion out of a generic list.
  IValue nested = std::vector<std::vector<int64_t>>{{1, 2}, {3}};
  EXPECT_EQ(nested.to<std::vector<std::vector<int64_t>>>(), (std::vector<std::vector<int64_t>>{{1, 2}, {3}}));
  EXPECT_EQ(std::move(nested).to<std::vector<std::vector<int64_t>>>().size(), 2u);
  IValue scalars = std::vector<opd::Scalar>{1, 2.5};
  const auto back = scalars.to<std::vector<opd::Scalar>>();
  EXPECT_EQ(back[0], opd::Scalar(1));
  EXPECT_EQ(back[1], opd::Scalar(2.5));
}

TEST(IValue, RvalueListAccessMovesWhenUnique) {
  std::vector<int64_t> big(1000, 7);
  IValue iv(std::move(big));
  const int64_t* data = iv.to_int_list().data();
  std::vector<int64_t> out = std::move(iv).to_int_list();
  EXPECT_EQ(out.data(), data);  // moved, not copied
  EXPECT_TRUE(iv.is_none());    // NOLINT(bugprone-use-after-move)

  IValue shared(std::vector<int64_t>{1, 2});
  IValue other = shared;
  std::vector<int64_t> copied = std::move(shared).to_int_list();
  EXPECT_NE(copied.data(), other.to_int_list().data());  // shared: copied
  EXPECT_EQ(other.to_int_list(), (std::vector<int64_t>{1, 2}));

  IValue s(std::string(100, 'x'));
  std::string taken = std::move(s).to<std::string>();
  EXPECT_EQ(taken.size(), 100u);
  EXPECT_TRUE(s.is_none());  // NOLINT(bugprone-use-after-move)
}

// peer: IValueTest.isPtrType
TEST(IValueTest, isPtrType) {
  IValue tensor(opd::empty({3, 4}));
  IValue undefined_tensor((Tensor()));
  IValue integer(42);
  IValue str_value("hello");
  EXPECT_TRUE(tensor.is_ptr_type());
  EXPECT_FALSE(undefined_tensor.is_ptr_type());
  EXPECT_FALSE(integer.is_ptr_type());
  EXPECT_TRUE(str_value.is_ptr_type());
  EXPECT_FALSE(IValue(Device::cpu()).is_ptr_type());
  EXPECT_TRUE(IValue(std::complex<double>()).is_ptr_type());
  EXPECT_FALSE(IValue(opd::Generator()).is_ptr_type());
}

// peer: IValueTest.isAliasOf
TEST(IValueTest, isAliasOf) {
  auto samples = make_samples();
  for (auto& iv : samples) {
    for (auto& iv2 : samples) {
      if (&iv == &iv2 && iv.is_ptr_type()) {
        EXPECT_TRUE(iv.is_alias_of(iv2)) << iv;
      } else {
        EXPECT_FALSE(iv.is_alias_of(iv2)) << iv << " vs " << iv2;
      }
    }
  }
}

TEST(IValue, CustomObjects) {
  auto w = std::make_shared<Widget>();
  w->value = 5;
  IValue obj = IValue::make_object(w, "test.Widget");
  EXPECT_TRUE(obj.is_object());
  EXPECT_EQ(w.use_count(), 2);
  EXPECT_EQ(obj.to_object().type_name, "test.Widget");
  EXPECT_EQ(obj.to_object<Widget>("test.Widget")->value, 5);
  EXPECT_EQ(error_of([&] { (void)obj.to_object<Widget>("other.Thing"); }),
            "Expected object of type other.Thing but got test.Widget");
  EXPECT_EQ(obj, IValue::make_object(w, "test.Widget"));
  EXPECT_NE(obj, IValue::make_object(std::make_shared<Widget>(), "test.Widget"));
  obj = IValue();
  EXPECT_EQ(w.use_count(), 1);
}

TEST(Stack, PushPopPeekDropLast) {
  opd::Stack stack;
  Tensor t = opd::empty({1});
  opd::push(stack, t, 2, 3.5, "four", std::vector<int64_t>{5});
  ASSERT_EQ(stack.size(), 5u);
  EXPECT_EQ(t.use_count(), 2u);
  EXPECT_EQ(opd::peek(stack, 0, 5).to_tensor().use_count(), 2u);
  EXPECT_EQ(opd::peek(stack, 1, 3).to_string_ref(), "four");
  EXPECT_EQ(opd::last(stack, 2).size(), 2u);
  EXPECT_EQ(opd::last(stack, 2)[0].to_string_ref(), "four");
  EXPECT_EQ(opd::pop(stack).to_int_list(), std::vector<int64_t>{5});
  auto two = opd::pop(stack, 2);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0].to_double(), 3.5);  // deepest first
  EXPECT_EQ(two[1].to_string_ref(), "four");
  opd::drop(stack, 1);
  ASSERT_EQ(stack.size(), 1u);
  EXPECT_TRUE(stack[0].is_tensor());
  opd::drop(stack, 1);
  EXPECT_EQ(t.use_count(), 1u);

  EXPECT_EQ(error_of([&] { (void)opd::pop(stack); }), "pop: the stack is empty");
  EXPECT_THROW((void)opd::pop(stack, 1), opd::Error);
  EXPECT_THROW(opd::drop(stack, 1), opd::Error);
  EXPECT_THROW((void)opd::peek(stack, 0, 1), opd::Error);
  EXPECT_THROW((void)opd::last(stack, 1), opd::Error);
}

TEST(IValue, NarrowNumbersNoneAndConverterHook) {
  EXPECT_EQ(IValue(3).to<int16_t>(), 3);
  EXPECT_EQ(IValue(-1).to<opd::DeviceIndex>(), -1);
  EXPECT_EQ(error_of([] { (void)IValue(70000).to<int16_t>(); }),
            "Int value 70000 does not fit in the requested 16-bit integer");
  EXPECT_THROW((void)IValue(-1).to<uint8_t>(), opd::Error);
  EXPECT_EQ(IValue(0.5).to<float>(), 0.5f);
  EXPECT_NO_THROW((void)IValue().to<std::nullopt_t>());
  EXPECT_EQ(error_of([] { (void)IValue(1).to<std::nullopt_t>(); }), "Expected None but got Int");

  IValue c = Color{"red"};
  EXPECT_TRUE(c.is_string());
  EXPECT_EQ(c.to<Color>(), Color{"red"});
  EXPECT_EQ(IValue(std::optional<Color>()).to<std::optional<Color>>(), std::nullopt);
  // A list of a converted type that boxes as strings is a StringList (as
  // PyTorch's Dimname[] is a List[str]), and converts back element-wise.
  IValue colors = std::vector<Color>{{"a"}, {"b"}};
  EXPECT_TRUE(colors.is_string_list());
  EXPECT_EQ(colors.to<std::vector<Color>>(), (std::vector<Color>{{"a"}, {"b"}}));
  EXPECT_EQ(IValue(std::vector<std::string>{"c"}).to<std::vector<Color>>(), (std::vector<Color>{{"c"}}));
  EXPECT_EQ(IValue::generic_list({IValue("d")}).to<std::vector<Color>>(), (std::vector<Color>{{"d"}}));
  EXPECT_TRUE(IValue(std::vector<Color>{}).is_generic_list());  // nothing to tell the kind by
}

// Copies of one IValue (and of the list and tensor inside it) made and
// dropped from several threads leave every refcount where it started.
TEST(ConcurrencyIValue, CopiesFromManyThreads) {
  Tensor t = opd::empty({1});
  const IValue shared(std::vector<Tensor>{t, t});
  const IValue str("shared string");
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int k = 0; k < 5000; ++k) {
        IValue a = shared;
        IValue b = str;
        opd::Stack stack;
        opd::push(stack, a, std::move(b), t);
        opd::drop(stack, 3);
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(t.use_count(), 3u);  // t + two list elements
  EXPECT_EQ(shared.to_tensor_list().size(), 2u);
  EXPECT_EQ(str.to_string_ref(), "shared string");
}

// ---- Dict (dict.hpp): GenericDict IValues and opd::Dict ------------------------

// Ports of c10's ivalue_test: ComplexDict, DictEquality, DictEqualityDifferentOrder.
TEST(IValueTest, ComplexDict) {
  using c_type = std::complex<double>;
  opd::Dict<c_type, c_type> m;
  const c_type num1(2.3, -3.5), num2(0, 5);
  m.insert(num1, 2.0 * num1);
  m.insert(num2, 2.0 * num2);
  IValue dict(m);
  const auto m_ = dict.to<opd::Dict<c_type, c_type>>();
  ASSERT_EQ(m_.at(num1), 2.0 * num1);
  ASSERT_EQ(m_.at(num2), 2.0 * num2);
}

TEST(IValueTest, DictEquality) {
  using Inner = opd::Dict<std::string, std::string>;
  using Outer = opd::Dict<std::string, Inner>;
  Inner inner;
  inner.insert("foo", "bar");
  Outer d1;
  d1.insert("one", inner);
  d1.insert("two", inner);
  d1.insert("three", inner);
  const IValue c1(d1);
  Outer d2;
  d2.insert("one", inner.copy());
  d2.insert("two", inner.copy());
  d2.insert("three", inner.copy());
  const IValue c2(d2);
  Outer d3;
  d3.insert("one", inner.copy());
  d3.insert("two", inner.copy());
  d3.insert("three", inner.copy());
  d3.insert("four", inner.copy());
  const IValue c3(d3);
  Outer d4;
  d4.insert("one", inner.copy());
  d4.insert("two", inner.copy());
  Inner inner_not_equal;
  inner_not_equal.insert("bar", "foo");
  d4.insert("three", inner_not_equal);
  const IValue c4(d4);

  EXPECT_EQ(c1, c1);
  EXPECT_EQ(c1, c2);
  EXPECT_FALSE(c1.is_alias_of(c2));  // c10's c1.is(c2)
  EXPECT_NE(c1, c3);
  EXPECT_NE(c2, c3);
  EXPECT_NE(c1, c4);
  EXPECT_NE(c2, c4);
}

TEST(IValueTest, DictEqualityDifferentOrder) {
  opd::Dict<std::string, int64_t> d1;
  d1.insert("one", 1);
  d1.insert("two", 2);
  opd::Dict<std::string, int64_t> d2;
  d2.insert("two", 2);
  d2.insert("one", 1);
  EXPECT_EQ(d1, d2);
  EXPECT_EQ(IValue(d1), IValue(d2));
}

// Insertion order, c10's insert (a present key keeps its value) and
// insert_or_assign, erase keeping the order of the rest, and the key types.
TEST(Dict, InsertionOrderedWithEveryKeyType) {
  opd::Dict<std::string, int64_t> d{{"b", 1}, {"a", 2}, {"c", 3}};
  EXPECT_FALSE(d.insert("a", 20));
  EXPECT_EQ(d.at("a"), 2);
  EXPECT_FALSE(d.insert_or_assign("a", 20));
  EXPECT_TRUE(d.insert_or_assign("d", 4));
  EXPECT_EQ(d.erase("b"), 1u);
  EXPECT_EQ(d.erase("b"), 0u);
  std::vector<std::string> keys;
  std::vector<int64_t> values;
  for (const auto& e : d) {
    keys.push_back(e.key());
    values.push_back(e.value());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "c", "d"}));
  EXPECT_EQ(values, (std::vector<int64_t>{20, 3, 4}));
  EXPECT_EQ(d.at("c"), 3);  // the index follows the erase
  EXPECT_EQ(str(IValue(d)), "{\"a\": 20, \"c\": 3, \"d\": 4}");
  EXPECT_EQ(d.find("zz"), d.end());
  EXPECT_EQ((*d.find("d")).value(), 4);
  EXPECT_THROW((void)d.at("zz"), opd::IndexError);

  opd::Dict<int64_t, double> by_int{{1, 0.5}};
  opd::Dict<double, bool> by_float{{0.5, true}};
  opd::Dict<bool, std::string> by_bool{{false, "no"}, {true, "yes"}};
  const Tensor t1 = Tensor(), t2 = opd::from_vector<float>({1.f});
  const Tensor t3 = opd::from_vector<float>({1.f});
  opd::Dict<Tensor, int64_t> by_tensor{{t2, 2}, {t3, 3}};  // by identity: equal contents, two keys
  EXPECT_EQ(by_int.at(1), 0.5);
  EXPECT_TRUE(by_float.at(0.5));
  EXPECT_EQ(by_bool.at(true), "yes");
  EXPECT_EQ(by_tensor.size(), 2u);
  EXPECT_EQ(by_tensor.at(t3), 3);
  EXPECT_FALSE(by_tensor.contains(opd::from_vector<float>({1.f})));
  EXPECT_FALSE(by_int.contains(2));
  (void)t1;
}

// Reference semantics, as c10::Dict: copies (typed or boxed) share entries;
// copy() does not.
TEST(Dict, CopiesShareEntriesAndCopyDoesNot) {
  opd::Dict<std::string, int64_t> a{{"x", 1}};
  opd::Dict<std::string, int64_t> shared = a;
  const opd::Dict<std::string, int64_t> separate = a.copy();
  const IValue boxed(a);
  shared.insert("y", 2);
  EXPECT_EQ(a.size(), 2u);
  using StrInt = opd::Dict<std::string, int64_t>;
  EXPECT_EQ(boxed.to<StrInt>().at("y"), 2);
  EXPECT_TRUE(boxed.to<StrInt>().is(a));
  EXPECT_EQ(separate.size(), 1u);
  EXPECT_FALSE(separate.is(a));
  a.clear();
  EXPECT_TRUE(shared.empty());
  // A moved-from Dict still refers to the entries (never a null handle).
  opd::Dict<std::string, int64_t> moved = std::move(shared);
  moved.insert("z", 3);
  EXPECT_EQ(shared.size(), 1u);  // NOLINT(bugprone-use-after-move): the documented behaviour
  EXPECT_TRUE(moved.is(a));
}

// A boxed dict becomes a Dict<K, V> only when its entries fit: nested values
// included; a mismatch names the entry and the kind found.
TEST(Dict, UnboxingChecksKeysAndValues) {
  using Inner = opd::Dict<int64_t, std::vector<int64_t>>;
  using Nested = opd::Dict<std::string, Inner>;
  using StrAny = opd::Dict<std::string, IValue>;
  using WrongInner = opd::Dict<std::string, opd::Dict<int64_t, std::vector<double>>>;
  using StrInt = opd::Dict<std::string, int64_t>;
  Nested nested;
  nested.insert("x", Inner{{1, {1, 2}}});
  const IValue v(nested);
  EXPECT_EQ(str(v), "{\"x\": {1: [1, 2]}}");
  EXPECT_EQ(v.to<Nested>().at("x").at(1), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(v.to<StrAny>().size(), 1u);  // a type variable's value: anything
  EXPECT_THROW((void)v.to<WrongInner>(), opd::TypeError);
  const std::string msg = error_of([&] { (void)v.to<opd::Dict<int64_t, IValue>>(); });
  EXPECT_NE(msg.find("Expected Dict(int, Any) but entry 0 has a key of kind String"), std::string::npos) << msg;
  const std::string wrong_value =
      error_of([&] { (void)IValue(opd::Dict<std::string, int64_t>{{"a", 1}}).to<opd::Dict<std::string, double>>(); });
  EXPECT_NE(wrong_value.find("Expected Dict(str, float) but entry 0 has a value of kind Int"), std::string::npos)
      << wrong_value;
  EXPECT_THROW((void)IValue(int64_t{1}).to<StrInt>(), opd::TypeError);
  // Optional dicts and lists of dicts.
  EXPECT_FALSE(IValue().to<std::optional<StrInt>>().has_value());
  const IValue list(std::vector<StrInt>{{{"a", 1}}, {{"b", 2}}});
  EXPECT_EQ(list.to<std::vector<StrInt>>().at(1).at("b"), 2);
}
