#pragma once
// Schema type -> C++ type, as PyTorch's C++ API spells it, with std types:
//
//   arg_type_t<Op, I>      the kernel parameter type of argument I
//   arg_types_t<Op>        all of them, a boost::mp11::mp_list
//   return_type_t<Op>      the kernel's return type (void, one type, or std::tuple)
//   kernel_signature_t<Op> the kernel's function type R(Args...)
//
// Op is any type with `static constexpr const auto& schema` (a compile-time
// schema from schema_of<"...">(), e.g. opd::op<"...">). The full table and
// the reasons for each choice are in docs/type-mapping.md.
//
// Three mappings, defined over the schema's type tree:
//   value type  what a type is when owned: a return, a list element, the
//               element of an optional, tuple, Dict, Future or RRef.
//   parameter   how a kernel takes an argument: cheap types by value, Tensor,
//               Scalar and other heavy types by const&, a write-annotated
//               Tensor(a!) by Tensor&, lists as std::span<const value type>.
//   return      the value type, except that Tensor(a!) is returned as Tensor&.
#include <array>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <boost/mp11/map.hpp>

#include "dispatch/core/device.hpp"
#include "dispatch/core/generator.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/layout.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/storage.hpp"
#include "dispatch/core/tensor.hpp"
#include "model.hpp"

namespace opd {

// ---------------------------------------------------------------------------
// Placeholders for schema types this library has no real implementation of.
// They exist so that every schema maps to some C++ type; each is the minimum
// a kernel signature needs (a distinct, copyable type). Replace with a real
// type when one is written.

// Placeholder: a dimension name (PyTorch's at::Dimname, named tensors).
struct Dimname {
  std::string_view name;
  friend constexpr bool operator==(const Dimname&, const Dimname&) = default;
};

// Placeholder: a device stream (PyTorch's c10::Stream): a device and an id.
struct Stream {
  Device device = Device::cpu();
  std::int64_t id = 0;
  friend constexpr bool operator==(const Stream&, const Stream&) = default;
};

// PyTorch's quantization schemes, with PyTorch's numbering (travel as Int).
enum class QScheme : std::uint8_t {
  PerTensorAffine = 0,
  PerChannelAffine = 1,
  PerTensorSymmetric = 2,
  PerChannelSymmetric = 3,
  PerChannelAffineFloatQParams = 4,
};

// Placeholder: a handle to a quantizer (schema types Quantizer and
// ConstQuantizerPtr; PyTorch's intrusive_ptr<Quantizer>).
struct QuantizerPtr {
  const void* impl = nullptr;
  friend constexpr bool operator==(const QuantizerPtr&, const QuantizerPtr&) = default;
};

// Placeholder: an opaque Python object (schema type Capsule).
struct Capsule {
  const void* impl = nullptr;
  friend constexpr bool operator==(const Capsule&, const Capsule&) = default;
};

// Placeholder: Dict(K, V), with keys and values as their value types.
template <class K, class V>
struct Dict {
  std::vector<std::pair<K, V>> items;
};

// Placeholder: Future(T), a handle to a value of type T computed later.
template <class T>
struct Future {
  const void* impl = nullptr;
};

// Placeholder: RRef(T), a handle to a (possibly remote) value of type T.
template <class T>
struct RRef {
  const void* impl = nullptr;
};

}  // namespace opd

namespace opd::schema {

// A type that carries a compile-time schema: opd::op<"...">, a struct derived
// from it, or any struct with `static constexpr const auto& schema = schema_of<"...">();`.
template <class Op>
concept schema_holder = requires {
  Op::schema.arguments.size();
  Op::schema.returns.size();
  Op::schema.types.size();
  Op::schema.is_vararg;
};

// How a kernel takes a list argument T[] (T's value type), except bool[]:
// a non-owning view of the elements, which the boxed path can point at the
// std::vector inside an IValue without copying.
template <class T>
using list_view = std::span<const T>;

// The parameter through which a kernel receives the values matched by `...`
// in a vararg schema (opdispatch's choice; PyTorch has no unboxed form).
using vararg_parameter = std::span<const IValue>;
// The return of `-> ...`.
using varret_type = std::vector<IValue>;

namespace detail {

namespace mp = boost::mp11;

template <base_type B>
using base_c = std::integral_constant<base_type, B>;

// One row per base_type: { key, value type, parameter type }.
// (Tensor's parameter type is const Tensor& unless the argument is written
// Tensor(a!); that case is decided by the alias annotation, below.)
using base_type_table = mp::mp_list<
    mp::mp_list<base_c<base_type::Tensor>, Tensor, const Tensor&>,
    mp::mp_list<base_c<base_type::int_>, std::int64_t, std::int64_t>,
    mp::mp_list<base_c<base_type::SymInt>, std::int64_t, std::int64_t>,
    mp::mp_list<base_c<base_type::float_>, double, double>,
    mp::mp_list<base_c<base_type::SymFloat>, double, double>,
    mp::mp_list<base_c<base_type::complex>, std::complex<double>, std::complex<double>>,
    mp::mp_list<base_c<base_type::bool_>, bool, bool>,
    mp::mp_list<base_c<base_type::SymBool>, bool, bool>,
    mp::mp_list<base_c<base_type::str>, std::string, std::string_view>,
    mp::mp_list<base_c<base_type::Scalar>, Scalar, const Scalar&>,
    mp::mp_list<base_c<base_type::ScalarType>, ScalarType, ScalarType>,
    mp::mp_list<base_c<base_type::Layout>, Layout, Layout>,
    mp::mp_list<base_c<base_type::MemoryFormat>, MemoryFormat, MemoryFormat>,
    mp::mp_list<base_c<base_type::Device>, Device, Device>,
    mp::mp_list<base_c<base_type::DeviceIndex>, DeviceIndex, DeviceIndex>,
    mp::mp_list<base_c<base_type::Generator>, Generator, Generator>,
    mp::mp_list<base_c<base_type::Dimname>, Dimname, Dimname>,
    mp::mp_list<base_c<base_type::Storage>, Storage, Storage>,
    mp::mp_list<base_c<base_type::Stream>, Stream, Stream>,
    mp::mp_list<base_c<base_type::QScheme>, QScheme, QScheme>,
    mp::mp_list<base_c<base_type::Quantizer>, QuantizerPtr, QuantizerPtr>,
    mp::mp_list<base_c<base_type::ConstQuantizerPtr>, QuantizerPtr, QuantizerPtr>,
    mp::mp_list<base_c<base_type::Capsule>, Capsule, Capsule>,
    mp::mp_list<base_c<base_type::Any>, IValue, const IValue&>,
    mp::mp_list<base_c<base_type::AnyClassType>, IValue, const IValue&>,
    mp::mp_list<base_c<base_type::AnyEnumType>, IValue, const IValue&>,
    mp::mp_list<base_c<base_type::None>, std::nullopt_t, std::nullopt_t>,
    mp::mp_list<base_c<base_type::NoneType>, std::nullopt_t, std::nullopt_t>>;

static_assert(mp::mp_is_map<base_type_table>::value, "base_type_table: one row per base_type");
static_assert(mp::mp_size<base_type_table>::value == static_cast<std::size_t>(base_type::NoneType) + 1,
              "base_type_table: every base_type needs a row");

template <base_type B>
using base_row = mp::mp_map_find<base_type_table, base_c<B>>;
template <base_type B>
using base_value_t = mp::mp_at_c<base_row<B>, 1>;
template <base_type B>
using base_param_t = mp::mp_at_c<base_row<B>, 2>;

template <class Op>
constexpr const type_node& node(std::int16_t i) {
  return Op::schema.type(i);
}

// Tensor(a!) (or Tensor!): a tensor the operator writes to.
template <class Op>
constexpr bool is_mutable_tensor(std::int16_t i) {
  const type_node& n = node<Op>(i);
  return n.kind == type_kind::base && n.base == base_type::Tensor && n.alias != no_index &&
         Op::schema.alias(n.alias).is_write;
}

template <class Op>
constexpr bool is_bool(std::int16_t i) {
  const type_node& n = node<Op>(i);
  return n.kind == type_kind::base && (n.base == base_type::bool_ || n.base == base_type::SymBool);
}

template <class Op>
constexpr bool is_none(std::int16_t i) {
  const type_node& n = node<Op>(i);
  return n.kind == type_kind::base && (n.base == base_type::None || n.base == base_type::NoneType);
}

template <std::int16_t I>
using index_c = std::integral_constant<std::int16_t, I>;

// The members of a tuple / Dict / Union, as index_c's, following `next`.
template <class Op, std::int16_t First>
struct members_of {
  using type = mp::mp_push_front<typename members_of<Op, node<Op>(First).next>::type, index_c<First>>;
};
template <class Op>
struct members_of<Op, no_index> {
  using type = mp::mp_list<>;
};

template <class Op, std::int16_t N>
struct value_of;
template <class Op, std::int16_t N>
using value_t = typename value_of<Op, N>::type;

template <class Op>
struct value_q {
  template <class I>
  using fn = value_t<Op, I::value>;
};

template <class Op, std::int16_t N>
struct value_of {
  static constexpr type_node n = node<Op>(N);
  static constexpr auto pick() {
    if constexpr (n.kind == type_kind::base) {
      return std::type_identity<base_value_t<n.base>>{};
    } else if constexpr (n.kind == type_kind::type_var || n.kind == type_kind::union_) {
      return std::type_identity<IValue>{};
    } else if constexpr (n.kind == type_kind::custom_class) {
      return std::type_identity<CustomObject>{};
    } else if constexpr (n.kind == type_kind::list) {
      if constexpr (is_bool<Op>(n.child) && n.fixed_size >= 0)
        return std::type_identity<std::array<bool, static_cast<std::size_t>(n.fixed_size)>>{};
      else
        return std::type_identity<std::vector<value_t<Op, n.child>>>{};
    } else if constexpr (n.kind == type_kind::optional) {
      if constexpr (is_none<Op>(n.child))  // None? is just None (std::optional<nullopt_t> is ill-formed)
        return std::type_identity<std::nullopt_t>{};
      else
        return std::type_identity<std::optional<value_t<Op, n.child>>>{};
    } else if constexpr (n.kind == type_kind::tuple) {
      using members = mp::mp_transform_q<value_q<Op>, typename members_of<Op, n.child>::type>;
      return std::type_identity<mp::mp_rename<members, std::tuple>>{};
    } else if constexpr (n.kind == type_kind::dict) {
      using members = mp::mp_transform_q<value_q<Op>, typename members_of<Op, n.child>::type>;
      return std::type_identity<Dict<mp::mp_first<members>, mp::mp_second<members>>>{};
    } else if constexpr (n.kind == type_kind::future) {
      return std::type_identity<Future<value_t<Op, n.child>>>{};
    } else {
      static_assert(n.kind == type_kind::rref);
      return std::type_identity<RRef<value_t<Op, n.child>>>{};
    }
  }
  using type = typename decltype(pick())::type;
};

template <class Op, std::int16_t N>
struct param_of {
  static constexpr type_node n = node<Op>(N);
  static constexpr auto pick() {
    if constexpr (is_mutable_tensor<Op>(N)) {
      return std::type_identity<Tensor&>{};
    } else if constexpr (n.kind == type_kind::base) {
      return std::type_identity<base_param_t<n.base>>{};
    } else if constexpr (n.kind == type_kind::type_var || n.kind == type_kind::union_) {
      return std::type_identity<const IValue&>{};
    } else if constexpr (n.kind == type_kind::custom_class) {  // the object IValue holds, shared
      return std::type_identity<const CustomObject&>{};
    } else if constexpr (n.kind == type_kind::list) {
      if constexpr (is_bool<Op>(n.child) && n.fixed_size >= 0)  // bool[3]: std::array<bool, 3>, as PyTorch
        return std::type_identity<value_t<Op, N>>{};
      else if constexpr (is_bool<Op>(n.child))  // no std::span over std::vector<bool>
        return std::type_identity<const std::vector<bool>&>{};
      else
        return std::type_identity<list_view<value_t<Op, n.child>>>{};
    } else if constexpr (n.kind == type_kind::optional) {
      using inner = typename param_of<Op, n.child>::type;
      if constexpr (is_none<Op>(n.child))
        return std::type_identity<std::nullopt_t>{};
      else if constexpr (std::is_same_v<inner, Tensor&>)  // Tensor(a!)?: std::optional<Tensor>&, as PyTorch
        return std::type_identity<std::optional<Tensor>&>{};
      else if constexpr (std::is_reference_v<inner>)  // const X& -> const std::optional<X>&
        return std::type_identity<const std::optional<std::remove_cvref_t<inner>>&>{};
      else  // by value -> std::optional<by value>
        return std::type_identity<std::optional<inner>>{};
    } else if constexpr (n.kind == type_kind::tuple || n.kind == type_kind::dict) {
      return std::type_identity<const value_t<Op, N>&>{};
    } else {
      static_assert(n.kind == type_kind::future || n.kind == type_kind::rref);
      return std::type_identity<value_t<Op, N>>{};  // handles: by value
    }
  }
  using type = typename decltype(pick())::type;
};
template <class Op, std::int16_t N>
using param_t = typename param_of<Op, N>::type;

template <class Op, std::int16_t N>
using return_t = std::conditional_t<is_mutable_tensor<Op>(N), Tensor&, value_t<Op, N>>;

template <class Op>
struct arg_param_q {
  template <class I>
  using fn = param_t<Op, Op::schema.arguments[I::value].type>;
};
template <class Op>
struct return_q {
  template <class I>
  using fn = return_t<Op, Op::schema.returns[I::value].type>;
};

template <class Op>
using arg_types = mp::mp_append<mp::mp_transform_q<arg_param_q<Op>, mp::mp_iota_c<Op::schema.arguments.size()>>,
                                mp::mp_if_c<Op::schema.is_vararg, mp::mp_list<vararg_parameter>, mp::mp_list<>>>;

template <class Op>
using return_types = mp::mp_append<mp::mp_transform_q<return_q<Op>, mp::mp_iota_c<Op::schema.returns.size()>>,
                                   mp::mp_if_c<Op::schema.is_varret, mp::mp_list<varret_type>, mp::mp_list<>>>;

template <class L>
struct combine_returns {
  using type = mp::mp_rename<L, std::tuple>;
};
template <>
struct combine_returns<mp::mp_list<>> {
  using type = void;
};
template <class R>
struct combine_returns<mp::mp_list<R>> {
  using type = R;
};

template <class R, class L>
struct make_function;
template <class R, class... A>
struct make_function<R, mp::mp_list<A...>> {
  using type = R(A...);
};

}  // namespace detail

// Value type (owned form) of the type tree node `Node` of Op's schema.
template <schema_holder Op, std::int16_t Node>
using value_type_t = detail::value_t<Op, Node>;
// Kernel parameter type of the type tree node `Node` of Op's schema.
template <schema_holder Op, std::int16_t Node>
using param_type_t = detail::param_t<Op, Node>;

// Number of kernel parameters: the schema's arguments, plus one for `...`.
template <schema_holder Op>
inline constexpr std::size_t arg_count_v = Op::schema.arguments.size() + (Op::schema.is_vararg ? 1 : 0);

// The kernel parameter types, in order, as a boost::mp11::mp_list.
template <schema_holder Op>
using arg_types_t = detail::arg_types<Op>;

// The kernel parameter type of argument I (0-based, as in the schema; for a
// vararg schema, I == number of arguments is the `...` parameter).
template <schema_holder Op, std::size_t I>
  requires(I < arg_count_v<Op>)
using arg_type_t = boost::mp11::mp_at_c<arg_types_t<Op>, I>;

// The kernel return type of each return, as a boost::mp11::mp_list.
template <schema_holder Op>
using return_types_t = detail::return_types<Op>;

// The kernel's return type: void for `()`, the single return's type, or a
// std::tuple of all of them.
template <schema_holder Op>
using return_type_t = typename detail::combine_returns<return_types_t<Op>>::type;

// The kernel's function type R(Args...).
template <schema_holder Op>
using kernel_signature_t = typename detail::make_function<return_type_t<Op>, arg_types_t<Op>>::type;

}  // namespace opd::schema
