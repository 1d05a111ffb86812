#pragma once
// Header-only, the definitions come after the declarations of every lazy
// header this one includes: only the outermost lazy header includes them,
// at its end (an inner one would reach lazy-inl.hpp mid-declaration).
#ifndef OPD_LAZY_DECLARING
#define OPD_LAZY_DECLARING
#define OPD_LAZY_OUTERMOST_OP_NODE
#endif
// The typed IR node of one operator, derived at compile time from its schema
// (docs/lazy.md, "Typed nodes"): what PyTorch's LTC generates as one class
// per operator (lazy_ir.py), for a backend author's lowering code.
//
//   if (auto add = opd::lazy::OpNode<ops::add::functional>::match(*node)) {
//     const opd::lazy::Operand& self = add->get<"self">();   // an operand
//     opd::Scalar alpha = add->get<"alpha">();               // an attribute, typed
//     auto [a] = add->attributes();                          // every attribute
//   }
//
// The node's storage is the one every operator shares (ir.hpp: owned IValue
// attributes, operands), so that an operator known only at run time (a
// user's, declared from a string) traces with no code; OpNode<Op> reads it
// with the types Op's schema gives, checked at compile time:
//
//   get<"name">()   an attribute as the kernel's parameter type (Scalar,
//                   int64_t, std::optional<ScalarType>, ...), except that a
//                   list is a std::span viewing the node's own list (or a
//                   std::vector when the list stores other elements) and a
//                   string a std::string_view into the node; a Tensor
//                   argument is its Operand (Tensor?: a pointer, null for
//                   None), a Tensor[] / Tensor?[] argument a span of them;
//   attributes()    every non-tensor argument, in schema order, as a tuple;
//   schema_hash     the compile-time hash of the schema text: the one the
//                   tracer starts every node's hash from (lazy::schema_hash).
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

#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/schema/cpp_types.hpp"
#include "dispatch/schema/fixed_string.hpp"
#include "lazy/ir.hpp"

namespace opd::lazy {

namespace op_node_detail {

template <class P>
inline constexpr bool is_tensor_arg =
    std::is_same_v<std::remove_cvref_t<P>, Tensor> || std::is_same_v<std::remove_cvref_t<P>, std::optional<Tensor>>;
template <class P>
inline constexpr bool is_tensor_list_arg = std::is_same_v<P, std::span<const Tensor>> ||
                                           std::is_same_v<P, std::span<const std::optional<Tensor>>>;

// What get<> returns for an attribute whose kernel parameter type is P: the
// parameter type itself unless it would refer to a temporary of the unboxing.
template <class P>
struct attribute {
  using type = std::remove_cvref_t<P>;  // by value, or a copy of a const& (Scalar, ...)
};
template <>
struct attribute<const IValue&> {
  using type = const IValue&;
};
template <>
struct attribute<const std::vector<bool>&> {
  using type = const std::vector<bool>&;
};
template <class E>
struct attribute<std::span<const E>> {
  using type = std::conditional_t<boxing::list_stored_directly<E>, std::span<const E>, std::vector<E>>;
};
template <class E>
struct attribute<std::optional<std::span<const E>>> {
  using type = std::optional<typename attribute<std::span<const E>>::type>;
};

template <class P>
typename attribute<P>::type read_attribute(const IValue& v) {
  using R = typename attribute<P>::type;
  if constexpr (std::is_reference_v<R>) {
    return boxing::unboxed_arg<P>(v).get();  // views the node's IValue itself
  } else if constexpr (std::is_same_v<R, std::remove_cvref_t<P>>) {
    return R(boxing::unboxed_arg<P>(v).get());
  } else {
    return v.to<R>();  // a list converted element by element, owned
  }
}

template <class Op>
constexpr std::size_t index_of(std::string_view name) {
  std::size_t i = 0;
  for (const auto& a : Op::schema.arguments) {
    if (a.name == name) return i;
    ++i;
  }
  return Op::schema.arguments.size();
}

}  // namespace op_node_detail

// The compile error of get<"name"> for a name that is not an argument of
// Op's schema: it names both (the template arguments in the message's context).
template <class Op, fixed_string Name>
struct op_node_names_no_argument {
  static_assert(std::is_void_v<Op*>,
                "opd::lazy::OpNode::get: the name is not an argument of the operator (Op, Name: the template arguments above)");
};

template <schema::schema_holder Op>
class OpNode {
  using params = schema::arg_types_t<Op>;
  static constexpr std::size_t num_arguments = boost::mp11::mp_size<params>::value;

  template <std::size_t I>
  using param_t = boost::mp11::mp_at_c<params, I>;
  template <std::size_t I>
  static constexpr bool is_attribute =
      !op_node_detail::is_tensor_arg<param_t<I>> && !op_node_detail::is_tensor_list_arg<param_t<I>>;

 public:
  // The hash the tracer starts this operator's nodes from.
  static constexpr std::uint64_t schema_hash = lazy::schema_hash(Op::schema_str);

  // The node as Op's, or nothing when it is another operator's (or data).
  static std::optional<OpNode> match(const Node& n) {
    if (n.is_data() || n.op != &entry_for<Op>()) return std::nullopt;
    return OpNode(n);
  }

  const Node& node() const noexcept { return *node_; }

  template <fixed_string Name>
  decltype(auto) get() const {
    constexpr std::size_t i = op_node_detail::index_of<Op>(Name.view());
    if constexpr (i == num_arguments) {
      return op_node_names_no_argument<Op, Name>{};
    } else {
      return read<i>();
    }
  }

  // Every non-tensor argument, in schema order.
  auto attributes() const { return attributes_of(std::make_index_sequence<num_arguments>{}); }

  // "aten::add.Tensor(alpha=1)": the operator and its attributes by name.
  std::string str() const { return node_->op_name() + "(" + node_->attributes_str() + ")"; }

 private:
  explicit OpNode(const Node& n) noexcept : node_(&n) {}

  template <std::size_t I>
  decltype(auto) read() const {
    using P = param_t<I>;
    if constexpr (op_node_detail::is_tensor_list_arg<P>) {
      const std::size_t first = node_->first_operand(I);
      const auto n = static_cast<std::size_t>(node_->attributes[I].to_int());
      return std::span<const Operand>(node_->operands.data() + first, n);
    } else if constexpr (op_node_detail::is_tensor_arg<P>) {
      if constexpr (std::is_same_v<std::remove_cvref_t<P>, Tensor>) {
        return static_cast<const Operand&>(node_->operands[node_->first_operand(I)]);
      } else {  // Tensor?: None is no operand
        return node_->kinds[I] == ArgKind::tensor ? &node_->operands[node_->first_operand(I)]
                                                  : static_cast<const Operand*>(nullptr);
      }
    } else {
      return op_node_detail::read_attribute<P>(node_->attributes[I]);
    }
  }

  // The attribute tuple: one element per attribute position, none per tensor.
  template <std::size_t... I>
  auto attributes_of(std::index_sequence<I...>) const {
    return std::tuple_cat(element<I>(std::bool_constant<is_attribute<I>>{})...);
  }
  template <std::size_t I>
  auto element(std::true_type) const {
    return std::tuple<typename op_node_detail::attribute<param_t<I>>::type>(read<I>());
  }
  template <std::size_t I>
  std::tuple<> element(std::false_type) const {
    return {};
  }

  const Node* node_;
};

}  // namespace opd::lazy

#ifdef OPD_LAZY_OUTERMOST_OP_NODE
#undef OPD_LAZY_OUTERMOST_OP_NODE
#undef OPD_LAZY_DECLARING
// Header-only: the definitions (lazy/lazy.hpp includes them).
#ifdef OPD_HEADER_ONLY
#include "lazy/lazy.hpp"
#endif
#endif
