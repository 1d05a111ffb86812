// Schema type -> C++ type: one schema per base type and per nesting, checked
// at compile time (the test is that this file compiles); the few runtime
// tests look at the same types through values.
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <boost/mp11/list.hpp>

#include "dispatch/op.hpp"
#include "dispatch/schema/cpp_types.hpp"

namespace {

using namespace opd;
using opd::schema::arg_type_t;
using opd::schema::return_type_t;
using std::is_same_v;

// Parameter type of the only argument / return type of `f(<T> x) -> <T>`.
template <fixed_string S>
using P = arg_type_t<op<S>, 0>;
template <fixed_string S>
using R = return_type_t<op<S>>;

// ---------------------------------------------------------------- base types ---
// Every base_type of the grammar, as an argument and as a return.
static_assert(is_same_v<P<"f(Tensor x) -> ()">, const Tensor&>);
static_assert(is_same_v<R<"f() -> Tensor">, Tensor>);
static_assert(is_same_v<P<"f(int x) -> ()">, std::int64_t>);
static_assert(is_same_v<R<"f() -> int">, std::int64_t>);
static_assert(is_same_v<P<"f(SymInt x) -> ()">, std::int64_t>);
static_assert(is_same_v<R<"f() -> SymInt">, std::int64_t>);
static_assert(is_same_v<P<"f(float x) -> ()">, double>);
static_assert(is_same_v<R<"f() -> float">, double>);
static_assert(is_same_v<P<"f(SymFloat x) -> ()">, double>);
static_assert(is_same_v<R<"f() -> SymFloat">, double>);
static_assert(is_same_v<P<"f(complex x) -> ()">, std::complex<double>>);
static_assert(is_same_v<R<"f() -> complex">, std::complex<double>>);
static_assert(is_same_v<P<"f(bool x) -> ()">, bool>);
static_assert(is_same_v<R<"f() -> bool">, bool>);
static_assert(is_same_v<P<"f(SymBool x) -> ()">, bool>);
static_assert(is_same_v<R<"f() -> SymBool">, bool>);
static_assert(is_same_v<P<"f(str x) -> ()">, std::string_view>);
static_assert(is_same_v<R<"f() -> str">, std::string>);
static_assert(is_same_v<P<"f(Scalar x) -> ()">, const Scalar&>);
static_assert(is_same_v<R<"f() -> Scalar">, Scalar>);
static_assert(is_same_v<P<"f(ScalarType x) -> ()">, ScalarType>);
static_assert(is_same_v<R<"f() -> ScalarType">, ScalarType>);
static_assert(is_same_v<P<"f(Layout x) -> ()">, Layout>);
static_assert(is_same_v<R<"f() -> Layout">, Layout>);
static_assert(is_same_v<P<"f(MemoryFormat x) -> ()">, MemoryFormat>);
static_assert(is_same_v<R<"f() -> MemoryFormat">, MemoryFormat>);
static_assert(is_same_v<P<"f(Device x) -> ()">, Device>);
static_assert(is_same_v<R<"f() -> Device">, Device>);
static_assert(is_same_v<P<"f(DeviceIndex x) -> ()">, DeviceIndex>);
static_assert(is_same_v<R<"f() -> DeviceIndex">, DeviceIndex>);
static_assert(is_same_v<P<"f(Generator x) -> ()">, Generator>);
static_assert(is_same_v<R<"f() -> Generator">, Generator>);
static_assert(is_same_v<P<"f(Dimname x) -> ()">, Dimname>);
static_assert(is_same_v<R<"f() -> Dimname">, Dimname>);
static_assert(is_same_v<P<"f(Storage x) -> ()">, Storage>);
static_assert(is_same_v<R<"f() -> Storage">, Storage>);
static_assert(is_same_v<P<"f(Stream x) -> ()">, Stream>);
static_assert(is_same_v<R<"f() -> Stream">, Stream>);
static_assert(is_same_v<P<"f(QScheme x) -> ()">, QScheme>);
static_assert(is_same_v<R<"f() -> QScheme">, QScheme>);
static_assert(is_same_v<P<"f(Quantizer x) -> ()">, QuantizerPtr>);
static_assert(is_same_v<R<"f() -> Quantizer">, QuantizerPtr>);
static_assert(is_same_v<P<"f(ConstQuantizerPtr x) -> ()">, QuantizerPtr>);
static_assert(is_same_v<R<"f() -> ConstQuantizerPtr">, QuantizerPtr>);
static_assert(is_same_v<P<"f(Capsule x) -> ()">, Capsule>);
static_assert(is_same_v<R<"f() -> Capsule">, Capsule>);
static_assert(is_same_v<P<"f(Any x) -> ()">, const IValue&>);
static_assert(is_same_v<R<"f() -> Any">, IValue>);
static_assert(is_same_v<P<"f(AnyClassType x) -> ()">, const IValue&>);
static_assert(is_same_v<R<"f() -> AnyClassType">, IValue>);
static_assert(is_same_v<P<"f(AnyEnumType x) -> ()">, const IValue&>);
static_assert(is_same_v<R<"f() -> AnyEnumType">, IValue>);
static_assert(is_same_v<P<"f(None x) -> ()">, std::nullopt_t>);
static_assert(is_same_v<R<"f() -> None">, std::nullopt_t>);
static_assert(is_same_v<P<"f(NoneType x) -> ()">, std::nullopt_t>);
static_assert(is_same_v<R<"f() -> NoneType">, std::nullopt_t>);

// ------------------------------------------------------ other kinds of type ---
// Type variables, Union, custom classes.
static_assert(is_same_v<P<"f(t x) -> ()">, const IValue&>);
static_assert(is_same_v<R<"f(t x) -> t">, IValue>);
static_assert(is_same_v<P<"f(Union(int, str) x) -> ()">, const IValue&>);
static_assert(is_same_v<R<"f() -> Union(Tensor, int)">, IValue>);
static_assert(is_same_v<P<"f(__torch__.torch.classes.ns.Foo x) -> ()">, const CustomObject&>);
static_assert(is_same_v<R<"f() -> __torch__.torch.classes.ns.Foo">, CustomObject>);

// ------------------------------------------------------------ alias annotations ---
static_assert(is_same_v<P<"f(Tensor(a!) x) -> ()">, Tensor&>);
static_assert(is_same_v<P<"f(Tensor! x) -> ()">, Tensor&>);
static_assert(is_same_v<P<"f(Tensor(a -> *) x) -> ()">, const Tensor&>);
static_assert(is_same_v<P<"f(Tensor(a! -> a|b) x) -> ()">, Tensor&>);
static_assert(is_same_v<P<"f(Tensor(a) x) -> ()">, const Tensor&>);  // a view: not written
static_assert(is_same_v<R<"f(Tensor(a!) x) -> Tensor(a!)">, Tensor&>);
static_assert(is_same_v<R<"f(Tensor(a) x) -> Tensor(a)">, Tensor>);
static_assert(is_same_v<P<"f(Tensor(a!)? x) -> ()">, std::optional<Tensor>&>);
static_assert(is_same_v<R<"f(Tensor(a!)? x) -> Tensor(a!)?">, std::optional<Tensor>>);
// Tensors in a list are handles: a written list is still a read-only view.
static_assert(is_same_v<P<"f(Tensor(a!)[] x) -> ()">, std::span<const Tensor>>);
static_assert(is_same_v<P<"f(Tensor[](a!) x) -> ()">, std::span<const Tensor>>);
static_assert(is_same_v<R<"f(Tensor(a!)[] x) -> Tensor(a!)[]">, std::vector<Tensor>>);

// ------------------------------------------------------------------- optional ---
static_assert(is_same_v<P<"f(Tensor? x) -> ()">, const std::optional<Tensor>&>);
static_assert(is_same_v<R<"f() -> Tensor?">, std::optional<Tensor>>);
static_assert(is_same_v<P<"f(int? x) -> ()">, std::optional<std::int64_t>>);
static_assert(is_same_v<P<"f(SymInt? x) -> ()">, std::optional<std::int64_t>>);
static_assert(is_same_v<P<"f(float? x) -> ()">, std::optional<double>>);
static_assert(is_same_v<P<"f(bool? x) -> ()">, std::optional<bool>>);
static_assert(is_same_v<P<"f(complex? x) -> ()">, std::optional<std::complex<double>>>);
static_assert(is_same_v<P<"f(str? x) -> ()">, std::optional<std::string_view>>);
static_assert(is_same_v<R<"f() -> str?">, std::optional<std::string>>);
static_assert(is_same_v<P<"f(Scalar? x) -> ()">, const std::optional<Scalar>&>);
static_assert(is_same_v<P<"f(ScalarType? x) -> ()">, std::optional<ScalarType>>);
static_assert(is_same_v<P<"f(Layout? x) -> ()">, std::optional<Layout>>);
static_assert(is_same_v<P<"f(Device? x) -> ()">, std::optional<Device>>);
static_assert(is_same_v<P<"f(MemoryFormat? x) -> ()">, std::optional<MemoryFormat>>);
static_assert(is_same_v<P<"f(Generator? x) -> ()">, std::optional<Generator>>);
static_assert(is_same_v<P<"f(Dimname? x) -> ()">, std::optional<Dimname>>);
static_assert(is_same_v<P<"f(Any? x) -> ()">, const std::optional<IValue>&>);
static_assert(is_same_v<P<"f(t? x) -> ()">, const std::optional<IValue>&>);
static_assert(is_same_v<P<"f(None? x) -> ()">, std::nullopt_t>);  // std::optional<nullopt_t> is ill-formed
static_assert(is_same_v<P<"f(int?? x) -> ()">, std::optional<std::optional<std::int64_t>>>);
static_assert(is_same_v<P<"f(__torch__.torch.classes.ns.Foo? x) -> ()">, const std::optional<CustomObject>&>);

// ---------------------------------------------------------------------- lists ---
static_assert(is_same_v<P<"f(Tensor[] x) -> ()">, std::span<const Tensor>>);
static_assert(is_same_v<R<"f() -> Tensor[]">, std::vector<Tensor>>);
static_assert(is_same_v<P<"f(Tensor?[] x) -> ()">, std::span<const std::optional<Tensor>>>);
static_assert(is_same_v<R<"f() -> Tensor?[]">, std::vector<std::optional<Tensor>>>);
static_assert(is_same_v<P<"f(int[] x) -> ()">, std::span<const std::int64_t>>);
static_assert(is_same_v<P<"f(int[2] x) -> ()">, std::span<const std::int64_t>>);
static_assert(is_same_v<P<"f(int[1] x=0) -> ()">, std::span<const std::int64_t>>);
static_assert(is_same_v<R<"f() -> int[]">, std::vector<std::int64_t>>);
static_assert(is_same_v<P<"f(SymInt[] x) -> ()">, std::span<const std::int64_t>>);
static_assert(is_same_v<P<"f(SymInt[2] x) -> ()">, std::span<const std::int64_t>>);
static_assert(is_same_v<R<"f() -> SymInt[]">, std::vector<std::int64_t>>);
static_assert(is_same_v<P<"f(float[] x) -> ()">, std::span<const double>>);
static_assert(is_same_v<P<"f(complex[] x) -> ()">, std::span<const std::complex<double>>>);
static_assert(is_same_v<P<"f(str[] x) -> ()">, std::span<const std::string>>);
static_assert(is_same_v<R<"f() -> str[]">, std::vector<std::string>>);
static_assert(is_same_v<P<"f(Scalar[] x) -> ()">, std::span<const Scalar>>);
static_assert(is_same_v<P<"f(Dimname[] x) -> ()">, std::span<const Dimname>>);
static_assert(is_same_v<P<"f(ScalarType[] x) -> ()">, std::span<const ScalarType>>);
static_assert(is_same_v<P<"f(Device[] x) -> ()">, std::span<const Device>>);
static_assert(is_same_v<P<"f(int?[] x) -> ()">, std::span<const std::optional<std::int64_t>>>);
static_assert(is_same_v<P<"f(t[] x) -> ()">, std::span<const IValue>>);
static_assert(is_same_v<R<"f(t[] x) -> t[]">, std::vector<IValue>>);
static_assert(is_same_v<P<"f(Any[] x) -> ()">, std::span<const IValue>>);
static_assert(is_same_v<P<"f(__torch__.torch.classes.ns.Foo[] x) -> ()">, std::span<const CustomObject>>);
// bool: std::array<bool, N> with a size (as PyTorch's bool[3]); a const
// std::vector<bool>& without (no std::span can view a std::vector<bool>).
static_assert(is_same_v<P<"f(bool[3] x) -> ()">, std::array<bool, 3>>);
static_assert(is_same_v<R<"f() -> bool[3]">, std::array<bool, 3>>);
static_assert(is_same_v<P<"f(bool[3] x=[True, False, True]) -> ()">, std::array<bool, 3>>);
static_assert(is_same_v<P<"f(bool[] x) -> ()">, const std::vector<bool>&>);
static_assert(is_same_v<R<"f() -> bool[]">, std::vector<bool>>);
static_assert(is_same_v<P<"f(SymBool[2] x) -> ()">, std::array<bool, 2>>);
static_assert(is_same_v<P<"f(SymBool[] x) -> ()">, const std::vector<bool>&>);
// Lists of lists: spans of vectors.
static_assert(is_same_v<P<"f(int[][] x) -> ()">, std::span<const std::vector<std::int64_t>>>);
static_assert(is_same_v<P<"f(Tensor[][] x) -> ()">, std::span<const std::vector<Tensor>>>);
static_assert(is_same_v<P<"f(bool[][] x) -> ()">, std::span<const std::vector<bool>>>);
static_assert(is_same_v<R<"f() -> int[][]">, std::vector<std::vector<std::int64_t>>>);

// ----------------------------------------------------------- optional lists ---
static_assert(is_same_v<P<"f(int[]? x) -> ()">, std::optional<std::span<const std::int64_t>>>);
static_assert(is_same_v<P<"f(int[2]? x) -> ()">, std::optional<std::span<const std::int64_t>>>);
static_assert(is_same_v<P<"f(SymInt[]? x) -> ()">, std::optional<std::span<const std::int64_t>>>);
static_assert(is_same_v<P<"f(float[]? x) -> ()">, std::optional<std::span<const double>>>);
static_assert(is_same_v<P<"f(Tensor[]? x) -> ()">, std::optional<std::span<const Tensor>>>);
static_assert(is_same_v<P<"f(Dimname[]? x) -> ()">, std::optional<std::span<const Dimname>>>);
static_assert(is_same_v<P<"f(str[]? x) -> ()">, std::optional<std::span<const std::string>>>);
static_assert(is_same_v<P<"f(bool[3]? x) -> ()">, std::optional<std::array<bool, 3>>>);
static_assert(is_same_v<P<"f(bool[]? x) -> ()">, const std::optional<std::vector<bool>>&>);
static_assert(is_same_v<R<"f() -> int[]?">, std::optional<std::vector<std::int64_t>>>);

// ---------------------------------------------------------------- containers ---
static_assert(is_same_v<P<"f((int, Tensor) x) -> ()">, const std::tuple<std::int64_t, Tensor>&>);
static_assert(is_same_v<P<"f(() x) -> ()">, const std::tuple<>&>);
static_assert(is_same_v<P<"f((Tensor, (int, str)) x) -> ()">,
                        const std::tuple<Tensor, std::tuple<std::int64_t, std::string>>&>);
static_assert(is_same_v<P<"f((int, Tensor)? x) -> ()">, const std::optional<std::tuple<std::int64_t, Tensor>>&>);
static_assert(is_same_v<P<"f((int, Tensor)[] x) -> ()">, std::span<const std::tuple<std::int64_t, Tensor>>>);
static_assert(is_same_v<R<"f() -> ((int, Tensor))">, std::tuple<std::int64_t, Tensor>>);
static_assert(is_same_v<P<"f(Dict(str, Tensor) x) -> ()">, const Dict<std::string, Tensor>&>);
static_assert(is_same_v<P<"f(Dict(int, Tensor[]) x) -> ()">, const Dict<std::int64_t, std::vector<Tensor>>&>);
static_assert(is_same_v<P<"f(Dict(str, Tensor)? x) -> ()">, const std::optional<Dict<std::string, Tensor>>&>);
static_assert(is_same_v<R<"f() -> Dict(str, t)">, Dict<std::string, IValue>>);
static_assert(is_same_v<P<"f(Future(Tensor) x) -> ()">, Future<Tensor>>);
static_assert(is_same_v<R<"f() -> Future(int[])">, Future<std::vector<std::int64_t>>>);
static_assert(is_same_v<P<"f(RRef(t) x) -> ()">, RRef<IValue>>);
static_assert(is_same_v<R<"f() -> RRef(Tensor?)">, RRef<std::optional<Tensor>>>);
static_assert(is_same_v<P<"f(Future(Tensor)? x) -> ()">, std::optional<Future<Tensor>>>);

// -------------------------------------------------------------------- returns ---
static_assert(is_same_v<R<"f() -> ()">, void>);
static_assert(is_same_v<R<"f() -> (Tensor)">, Tensor>);
static_assert(is_same_v<R<"f() -> (Tensor values, Tensor indices)">, std::tuple<Tensor, Tensor>>);
static_assert(is_same_v<R<"f(Tensor(a!) v, Tensor(b!) i) -> (Tensor(a!) values, Tensor(b!) indices)">,
                        std::tuple<Tensor&, Tensor&>>);
static_assert(is_same_v<R<"f() -> (Tensor, int, float[], str)">,
                        std::tuple<Tensor, std::int64_t, std::vector<double>, std::string>>);

// ------------------------------------------------------------------ varargs ---
// `...` is a trailing std::span<const IValue>; `-> ...` a std::vector<IValue>.
static_assert(opd::schema::arg_count_v<op<"f(...) -> ()">> == 1);
static_assert(is_same_v<P<"f(...) -> ()">, std::span<const IValue>>);
static_assert(is_same_v<arg_type_t<op<"f(str s, ...) -> ()">, 1>, std::span<const IValue>>);
static_assert(is_same_v<R<"f() -> ...">, std::vector<IValue>>);
static_assert(is_same_v<R<"f() -> (Tensor, ...)">, std::tuple<Tensor, std::vector<IValue>>>);

// ----------------------------------------------------------- whole signatures ---
using add = op<"myops::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor">;
static_assert(is_same_v<opd::schema::kernel_signature_t<add>, Tensor(const Tensor&, const Tensor&, const Scalar&)>);
static_assert(is_same_v<opd::schema::arg_types_t<add>, boost::mp11::mp_list<const Tensor&, const Tensor&, const Scalar&>>);
static_assert(opd::schema::arg_count_v<add> == 3);

using max_out = op<"aten::max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, "
                   "Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)">;
static_assert(is_same_v<opd::schema::kernel_signature_t<max_out>,
                        std::tuple<Tensor&, Tensor&>(const Tensor&, std::int64_t, bool, Tensor&, Tensor&)>);

using index_put = op<"aten::index_put_(Tensor(a!) self, Tensor?[] indices, Tensor values, bool accumulate=False) "
                     "-> Tensor(a!)">;
static_assert(is_same_v<opd::schema::kernel_signature_t<index_put>,
                        Tensor&(Tensor&, std::span<const std::optional<Tensor>>, const Tensor&, bool)>);

using empty = op<"aten::empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
                 "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor">;
static_assert(is_same_v<opd::schema::kernel_signature_t<empty>,
                        Tensor(std::span<const std::int64_t>, std::optional<ScalarType>, std::optional<Layout>,
                               std::optional<Device>, std::optional<bool>, std::optional<MemoryFormat>)>);

using split = op<"aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]">;
static_assert(is_same_v<opd::schema::kernel_signature_t<split>,
                        std::vector<Tensor>(const Tensor&, std::int64_t, std::int64_t)>);

using foreach_add = op<"aten::_foreach_add_.List(Tensor(a!)[] self, Tensor[] other, *, Scalar alpha=1) -> ()">;
static_assert(is_same_v<opd::schema::kernel_signature_t<foreach_add>,
                        void(std::span<const Tensor>, std::span<const Tensor>, const Scalar&)>);

using conv = op<"aten::convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, "
                "SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor">;
static_assert(is_same_v<opd::schema::arg_type_t<conv, 2>, const std::optional<Tensor>&>);
static_assert(is_same_v<opd::schema::arg_type_t<conv, 8>, std::int64_t>);

using lstm_mps = op<"aten::_lstm_mps(Tensor input, Tensor[] hx, Tensor[] params, bool has_biases, int num_layers, "
                    "float dropout, bool train, bool bidirectional, bool batch_first) -> "
                    "(Tensor, Tensor, Tensor, Tensor, Tensor, Tensor)">;
static_assert(std::tuple_size_v<opd::schema::return_type_t<lstm_mps>> == 6);

using normal = op<"aten::normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor">;
static_assert(is_same_v<opd::schema::arg_type_t<normal, 2>, std::optional<Generator>>);

// value_type_t / param_type_t work on any node of the type tree.
using nested = op<"f(Dict(str, int[])? x) -> ()">;
static_assert(is_same_v<opd::schema::value_type_t<nested, nested::schema.arguments[0].type>,
                        std::optional<Dict<std::string, std::vector<std::int64_t>>>>);

TEST(TypeMap, MappedTypesHoldTheirValues) {
  // A span parameter views a vector, as the boxed path does with an IValue's list.
  std::vector<std::int64_t> sizes{2, 3};
  P<"f(int[] x) -> ()"> view = sizes;
  EXPECT_EQ(view.size(), 2u);
  EXPECT_EQ(view[1], 3);

  P<"f(int[]? x) -> ()"> maybe_view;
  EXPECT_FALSE(maybe_view.has_value());
  maybe_view = view;
  EXPECT_EQ((*maybe_view)[0], 2);

  P<"f(bool[3] x) -> ()"> mask{true, false, true};
  EXPECT_TRUE(mask[2]);

  std::vector<bool> flags{true, false};
  P<"f(bool[] x) -> ()"> flags_ref = flags;
  EXPECT_FALSE(flags_ref[1]);

  R<"f() -> (Tensor, int, str)"> ret{Tensor(), 7, "seven"};
  EXPECT_EQ(std::get<1>(ret), 7);
  EXPECT_EQ(std::get<2>(ret), "seven");

  IValue list(std::vector<std::string>{"a", "b"});
  P<"f(str[] x) -> ()"> strings = list.to_string_list();
  EXPECT_EQ(strings[1], "b");
}

TEST(TypeMap, PlaceholderTypes) {
  EXPECT_EQ(Dimname{"N"}, Dimname{"N"});
  EXPECT_EQ(Stream{}.device, Device::cpu());
  EXPECT_EQ(static_cast<int>(QScheme::PerChannelAffineFloatQParams), 4);
  Dict<std::string, std::int64_t> d{{{"a", 1}}};
  EXPECT_EQ(d.at("a"), 1);  // opd::Dict, no longer a placeholder (core/dict.hpp)
}

}  // namespace
