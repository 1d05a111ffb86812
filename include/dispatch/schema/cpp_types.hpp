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
#include "dispatch/core/dict.hpp"
#include "dispatch/core/dimname.hpp"
#include "dispatch/core/generator.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/layout.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/qscheme.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/storage.hpp"
#include "dispatch/core/stream.hpp"
#include "dispatch/core/tensor.hpp"
#include "model.hpp"

namespace opd {

// ---------------------------------------------------------------------------
// Placeholders for schema types this library has no real implementation of.
// They exist so that every schema maps to some C++ type; each is the minimum
// a kernel signature needs (a distinct, copyable type). Replace with a real
// type when one is written.

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

// ---- the same mappings, shared between schemas ----------------------------
// Most argument and return types are a chain of list / optional around a
// leaf (Tensor, int[], Tensor?[], bool[3], ...), and the C++ type depends only
// on that chain. type_code() packs such a chain into an integer, so the types
// are derived once per distinct chain (coded<Code>) instead of once per node
// of every schema. Anything else (tuples, Dict, Future, RRef, deep chains)
// has code 0 and goes through value_of / param_of above.
//
// A code holds one byte per level, outermost first, then the leaf:
inline constexpr unsigned code_base = 1;             // 1 + base_type: a leaf of that base type
inline constexpr unsigned code_mutable_tensor = 29;  // Tensor(a!): a leaf
inline constexpr unsigned code_any = 30;             // a type variable or Union: IValue, a leaf
inline constexpr unsigned code_custom_class = 31;    // a leaf
inline constexpr unsigned code_optional = 32;
inline constexpr unsigned code_list = 33;
inline constexpr unsigned code_bool_array = 34;  // bool[N]: std::array<bool, N>, a leaf; N in bits 40..63
inline constexpr std::uint64_t code_levels = (std::uint64_t{1} << 40) - 1;
static_assert(code_base + static_cast<unsigned>(base_type::NoneType) < code_mutable_tensor);

constexpr std::uint64_t type_code(const type_node* types, const alias_info* aliases, std::int16_t i) {
  std::uint64_t code = 0;
  for (unsigned shift = 0; shift < 40; shift += 8) {
    const type_node& n = types[i];
    const auto level = [&](unsigned c) { code |= std::uint64_t{c} << shift; };
    switch (n.kind) {
      case type_kind::base:
        level(n.base == base_type::Tensor && n.alias != no_index && aliases[n.alias].is_write
                  ? code_mutable_tensor
                  : code_base + static_cast<unsigned>(n.base));
        return code;
      case type_kind::type_var:
      case type_kind::union_: level(code_any); return code;
      case type_kind::custom_class: level(code_custom_class); return code;
      case type_kind::optional: level(code_optional); break;
      case type_kind::list: {
        const type_node& e = types[n.child];
        const bool of_bool = e.kind == type_kind::base && (e.base == base_type::bool_ || e.base == base_type::SymBool);
        if (of_bool && n.fixed_size >= 0) {
          if (n.fixed_size >= (1 << 24)) return 0;
          level(code_bool_array);
          return code | std::uint64_t(n.fixed_size) << 40;
        }
        level(code_list);
        break;
      }
      default: return 0;
    }
    i = n.child;
  }
  return 0;  // deeper than five levels
}

template <std::uint64_t Code, unsigned Level = Code & 0xff>
struct coded;
// The chain inside the outermost level (same N for a bool array).
template <std::uint64_t Code>
using coded_inner = coded<((Code & code_levels) >> 8) | (Code & ~code_levels)>;

template <std::uint64_t Code, unsigned Level>
struct coded {  // a leaf of a base type
  static constexpr base_type base = static_cast<base_type>(Level - code_base);
  static constexpr bool is_bool = base == base_type::bool_ || base == base_type::SymBool;
  static constexpr bool is_none = base == base_type::None || base == base_type::NoneType;
  using value = base_value_t<base>;
  using param = base_param_t<base>;
  using ret = value;
};
struct coded_leaf {  // neither bool nor None
  static constexpr bool is_bool = false;
  static constexpr bool is_none = false;
};
template <std::uint64_t Code>
struct coded<Code, code_mutable_tensor> : coded_leaf {
  using value = Tensor;
  using param = Tensor&;
  using ret = Tensor&;
};
template <std::uint64_t Code>
struct coded<Code, code_any> : coded_leaf {
  using value = IValue;
  using param = const IValue&;
  using ret = value;
};
template <std::uint64_t Code>
struct coded<Code, code_custom_class> : coded_leaf {
  using value = CustomObject;
  using param = const CustomObject&;
  using ret = value;
};
template <std::uint64_t Code>
struct coded<Code, code_bool_array> : coded_leaf {
  using value = std::array<bool, static_cast<std::size_t>(Code >> 40)>;
  using param = value;
  using ret = value;
};
template <std::uint64_t Code>
struct coded<Code, code_list> : coded_leaf {
  using element = coded_inner<Code>;
  using value = std::vector<typename element::value>;
  using param = std::conditional_t<element::is_bool, const std::vector<bool>&, list_view<typename element::value>>;
  using ret = value;
};
template <class Inner>
struct optional_param {  // as param_of: Tensor& -> std::optional<Tensor>&, const X& -> const std::optional<X>&
  using type = std::optional<Inner>;
};
template <>
struct optional_param<Tensor&> {
  using type = std::optional<Tensor>&;
};
template <class Inner>
struct optional_param<const Inner&> {
  using type = const std::optional<Inner>&;
};
template <std::uint64_t Code>
struct coded<Code, code_optional> : coded_leaf {
  using element = coded_inner<Code>;
  using value = std::conditional_t<element::is_none, std::nullopt_t, std::optional<typename element::value>>;
  using param = std::conditional_t<element::is_none, std::nullopt_t, typename optional_param<typename element::param>::type>;
  using ret = value;
};

// The derivation for one node: through its code, or through value_of / param_of.
template <std::uint64_t Code>
struct derive {
  template <class Op, std::int16_t N>
  using param = typename coded<Code>::param;
  template <class Op, std::int16_t N>
  using ret = typename coded<Code>::ret;
};
template <>
struct derive<0> {
  template <class Op, std::int16_t N>
  using param = param_t<Op, N>;
  template <class Op, std::int16_t N>
  using ret = return_t<Op, N>;
};
template <class Op>
constexpr std::uint64_t code_of(std::int16_t node) {
  return type_code(Op::schema.types.begin(), Op::schema.aliases.begin(), node);
}

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

// L, with T appended when Add (and no new list type made when not).
template <bool Add, class L, class T>
struct append_if {
  using type = L;
};
template <class... A, class T>
struct append_if<true, mp::mp_list<A...>, T> {
  using type = mp::mp_list<A..., T>;
};

// Everything a kernel's type is made of, derived in one instantiation per schema.
template <class Op, class Arguments = std::make_index_sequence<Op::schema.arguments.size()>,
          class Returns = std::make_index_sequence<Op::schema.returns.size()>>
struct kernel_types;
template <class Op, std::size_t... A, std::size_t... R>
struct kernel_types<Op, std::index_sequence<A...>, std::index_sequence<R...>> {
  using params = mp::mp_list<
      typename derive<code_of<Op>(Op::schema.arguments[A].type)>::template param<Op, Op::schema.arguments[A].type>...>;
  using results = mp::mp_list<
      typename derive<code_of<Op>(Op::schema.returns[R].type)>::template ret<Op, Op::schema.returns[R].type>...>;
  using args = typename append_if<Op::schema.is_vararg, params, vararg_parameter>::type;
  using returns = typename append_if<Op::schema.is_varret, results, varret_type>::type;
  using return_type = typename combine_returns<returns>::type;
  using signature = typename make_function<return_type, args>::type;
};

// The types are derived from the schema, not from the type that names it:
// opd::op<S> names the one holder of its schema (Op::schema_id), so my_add,
// any other struct derived from op<S>, and op<S> itself share one derivation
// instead of each instantiating its own. (Only where Op::schema is that
// holder's schema: a struct that declares a schema of its own is its own key.)
template <class Op>
struct holder_of {
  using type = Op;
};
template <class Op>
  requires requires { typename Op::schema_id; } && (&Op::schema == &Op::schema_id::schema)
struct holder_of<Op> {
  using type = typename Op::schema_id;
};
template <class Op>
using holder_t = typename holder_of<Op>::type;

}  // namespace detail

// Value type (owned form) of the type tree node `Node` of Op's schema.
template <schema_holder Op, std::int16_t Node>
using value_type_t = detail::value_t<detail::holder_t<Op>, Node>;
// Kernel parameter type of the type tree node `Node` of Op's schema.
template <schema_holder Op, std::int16_t Node>
using param_type_t = detail::param_t<detail::holder_t<Op>, Node>;

// Number of kernel parameters: the schema's arguments, plus one for `...`.
template <schema_holder Op>
inline constexpr std::size_t arg_count_v = Op::schema.arguments.size() + (Op::schema.is_vararg ? 1 : 0);

// The kernel parameter types, in order, as a boost::mp11::mp_list.
template <schema_holder Op>
using arg_types_t = typename detail::kernel_types<detail::holder_t<Op>>::args;

// The kernel parameter type of argument I (0-based, as in the schema; for a
// vararg schema, I == number of arguments is the `...` parameter).
template <schema_holder Op, std::size_t I>
  requires(I < arg_count_v<Op>)
using arg_type_t = boost::mp11::mp_at_c<arg_types_t<Op>, I>;

// The kernel return type of each return, as a boost::mp11::mp_list.
template <schema_holder Op>
using return_types_t = typename detail::kernel_types<detail::holder_t<Op>>::returns;

// The kernel's return type: void for `()`, the single return's type, or a
// std::tuple of all of them.
template <schema_holder Op>
using return_type_t = typename detail::kernel_types<detail::holder_t<Op>>::return_type;

// The kernel's function type R(Args...).
template <schema_holder Op>
using kernel_signature_t = typename detail::kernel_types<detail::holder_t<Op>>::signature;

}  // namespace opd::schema
