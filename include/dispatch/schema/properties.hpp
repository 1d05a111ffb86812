#pragma once
// What a schema says about itself: its kind (torchgen's SchemaKind), whether
// it is a view, which arguments it mutates, writes as out=, or carries tensors
// in, and the alias information PyTorch reports for an argument.
//
// Everything here is constexpr and generic over the schema type, so it works
// on a compile-time schema (schema_of<"...">()) and on a run-time one
// (schema::parse(...), pass either the runtime_schema or *it).
//
// Two views of an argument's alias annotation are in play, and both are needed:
//  - PyTorch's (c10) alias info, what torch._C.parse_schema reports and what
//    decides is_out / is_mutable: top_level_alias() of queries.hpp (by
//    position: argument_alias / return_alias). For Tensor(a!)[] it is a
//    container alias with empty alias sets that inherits is_write from the element.
//  - torchgen's Argument.annotation: the annotation written on the Tensor of
//    Tensor / Tensor? / Tensor[], letters and all (properties_detail::annotation).
//    It drives the kind, view and variant rules, which are torchgen's.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "fixed_string.hpp"
#include "literal.hpp"
#include "model.hpp"
#include "queries.hpp"

namespace opd::schema {

// torchgen's SchemaKind. `scratch` (an out= schema whose out arguments include
// a `_scratch_*` one) is newer than PyTorch 1.13, which calls those `out`.
enum class schema_kind : std::uint8_t { functional, inplace, out, mutable_, scratch };

constexpr std::string_view kind_name(schema_kind k) {
  switch (k) {
    case schema_kind::functional: return "functional";
    case schema_kind::inplace: return "inplace";
    case schema_kind::out: return "out";
    case schema_kind::mutable_: return "mutable";
    case schema_kind::scratch: return "scratch";
  }
  return "?";
}

inline constexpr std::size_t no_position = static_cast<std::size_t>(-1);

namespace properties_detail {

// runtime_schema (or anything else with value()) stands for its parsed schema.
template <class S>
constexpr const auto& schema_value(const S& s) {
  if constexpr (requires { s.value().arguments; }) {
    return s.value();
  } else {
    return s;
  }
}

// torchgen's Argument.annotation: the annotation on the Tensor of Tensor,
// Tensor?, Tensor[] (found through list and optional layers), or null.
template <class S>
constexpr const alias_info* annotation(const S& s, std::int16_t t) {
  while (t != no_index) {
    const type_node& n = s.type(t);
    if (n.alias != no_index) return &s.alias(n.alias);
    if (n.kind != type_kind::list && n.kind != type_kind::optional) return nullptr;
    t = n.child;
  }
  return nullptr;
}
constexpr bool writes(const alias_info* a) { return a != nullptr && a->is_write; }

constexpr bool same_set(const alias_set& a, const alias_set& b) {
  if (a.count != b.count) return false;
  for (std::size_t i = 0; i < a.count; ++i)
    if (a.names[i] != b.names[i]) return false;
  return true;
}
// torchgen's Annotation equality: alias set, is_write and the set after '->'.
// Two '!' shorthands are fresh, distinct sets, so never equal.
constexpr bool same_annotation(const alias_info* a, const alias_info* b) {
  if (a == nullptr || b == nullptr) return a == b;
  if (a->shorthand || b->shorthand) return false;
  if (!same_set(a->before, b->before) || a->is_write != b->is_write || a->has_arrow != b->has_arrow) return false;
  return !a->has_arrow || same_set(a->after, b->after);
}

// Is type t, under any list / optional layers, a Tensor?
template <class S>
constexpr bool tensor_like(const S& s, std::int16_t t) {
  while (t != no_index) {
    const type_node& n = s.type(t);
    if (n.kind == type_kind::base) return n.base == base_type::Tensor;
    if (n.kind != type_kind::list && n.kind != type_kind::optional) return false;
    t = n.child;
  }
  return false;
}
template <class S>
constexpr bool plain_tensor(const S& s, std::int16_t t) {
  const type_node& n = s.type(t);
  return n.kind == type_kind::base && n.base == base_type::Tensor;
}

// torchgen's BaseOperatorName, read from the operator name.
struct name_parts {
  std::string_view base;     // without '_', the dunder underscores, '_functional'
  bool inplace = false;      // add_ or __iadd__
  bool dunder = false;       // __add__
  bool functional = false;   // foo_functional (torchgen's functional_overload)
};
constexpr name_parts parse_name(std::string_view op) {
  constexpr std::string_view augmented[] = {"add", "sub", "mul", "div", "mod", "pow",
                                            "lshift", "rshift", "and", "xor", "or"};
  name_parts r;
  r.base = op;
  // torchgen's dunder pattern ^__([^_]+)__$
  if (op.size() > 4 && op.substr(0, 2) == "__" && op.substr(op.size() - 2) == "__" &&
      op.substr(2, op.size() - 4).find('_') == std::string_view::npos) {
    r.dunder = true;
    r.base = op.substr(2, op.size() - 4);
    if (r.base.size() > 1 && r.base[0] == 'i')
      for (std::string_view a : augmented)
        if (r.base.substr(1) == a) {
          r.inplace = true;
          r.base.remove_prefix(1);
          break;
        }
    return r;
  }
  if (!r.base.empty() && r.base.back() == '_') {
    r.inplace = true;
    r.base.remove_suffix(1);
  }
  constexpr std::string_view suffix = "_functional";
  if (r.base.size() > suffix.size() && r.base.substr(r.base.size() - suffix.size()) == suffix) {
    r.functional = true;
    r.base.remove_suffix(suffix.size());
  }
  return r;
}

// How torchgen's Arguments splits an argument list.
struct layout {
  std::size_t self = no_position;     // the first positional argument named self
  std::size_t first_kwarg = 0;        // positional arguments are [0, first_kwarg)
  std::size_t first_out = 0;          // out arguments: kwarg-only ones from the first written one on
  std::size_t options = no_position;  // dtype, layout, device, pin_memory (kwarg-only, consecutive)
  std::size_t count = 0;
  constexpr bool is_options(std::size_t i) const { return options != no_position && i >= options && i < options + 4; }
  // torchgen's post_self_positional: positional arguments after self (all of them without self)
  constexpr bool post_self(std::size_t i) const { return i < first_kwarg && (self == no_position || i > self); }
};

template <class S>
constexpr bool is_option_argument(const S& s, const argument& a, std::string_view name, base_type b) {
  if (a.name != name) return false;
  const type_node* n = &s.type(a.type);
  if (n->kind == type_kind::optional) n = &s.type(n->child);
  return n->kind == type_kind::base && n->base == b && n->alias == no_index;
}

template <class S>
constexpr layout layout_of(const S& s) {
  layout l;
  l.count = s.arguments.size();
  while (l.first_kwarg < l.count && !s.arguments[l.first_kwarg].kwarg_only) ++l.first_kwarg;
  for (std::size_t i = 0; i < l.first_kwarg; ++i)
    if (s.arguments[i].name == "self") {
      l.self = i;
      break;
    }
  l.first_out = l.first_kwarg;
  while (l.first_out < l.count && !writes(annotation(s, s.arguments[l.first_out].type))) ++l.first_out;
  for (std::size_t i = l.first_kwarg; i + 4 <= l.first_out; ++i)
    if (is_option_argument(s, s.arguments[i], "dtype", base_type::ScalarType) &&
        is_option_argument(s, s.arguments[i + 1], "layout", base_type::Layout) &&
        is_option_argument(s, s.arguments[i + 2], "device", base_type::Device) &&
        is_option_argument(s, s.arguments[i + 3], "pin_memory", base_type::bool_)) {
      l.options = i;
      break;
    }
  return l;
}

}  // namespace properties_detail

// ---- alias information ---------------------------------------------------

// PyTorch's alias info of a value (c10::Argument::alias_info()) is
// top_level_alias(schema, type_index) of queries.hpp; here by position.
template <class Schema>
constexpr std::optional<alias_info> argument_alias(const Schema& schema, std::size_t i) {
  const auto& s = properties_detail::schema_value(schema);
  return top_level_alias(s, s.arguments[i].type);
}
template <class Schema>
constexpr std::optional<alias_info> return_alias(const Schema& schema, std::size_t i) {
  const auto& s = properties_detail::schema_value(schema);
  return top_level_alias(s, s.returns[i].type);
}

// ---- per argument ----------------------------------------------------------

// Written to (PyTorch: the argument's alias info is a write).
template <class Schema>
constexpr bool is_mutable_argument(const Schema& schema, std::size_t i) {
  const std::optional<alias_info> a = argument_alias(schema, i);
  return a && a->is_write;
}
// PyTorch's Argument::is_out(): kwarg-only and written to.
template <class Schema>
constexpr bool is_out_argument(const Schema& schema, std::size_t i) {
  const auto& s = properties_detail::schema_value(schema);
  return s.arguments[i].kwarg_only && is_mutable_argument(s, i);
}
// Carries tensors the dispatcher looks at to pick a kernel: Tensor, Tensor?,
// Tensor[], Tensor?[] (any nesting of lists and optionals around a Tensor).
template <class Schema>
constexpr bool is_tensor_argument(const Schema& schema, std::size_t i) {
  const auto& s = properties_detail::schema_value(schema);
  return properties_detail::tensor_like(s, s.arguments[i].type);
}

enum class argument_class : std::uint8_t { tensor, mutable_, out };

template <class Schema>
constexpr bool is_argument(const Schema& schema, std::size_t i, argument_class c) {
  switch (c) {
    case argument_class::tensor: return is_tensor_argument(schema, i);
    case argument_class::mutable_: return is_mutable_argument(schema, i);
    case argument_class::out: return is_out_argument(schema, i);
  }
  return false;
}
template <class Schema>
constexpr std::size_t count_arguments(const Schema& schema, argument_class c) {
  const auto& s = properties_detail::schema_value(schema);
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.arguments.size(); ++i) n += is_argument(s, i, c) ? 1u : 0u;
  return n;
}
// Positions (indices into arguments) of one class, in schema order.
template <class Schema>
std::vector<std::size_t> argument_indices(const Schema& schema, argument_class c) {
  const auto& s = properties_detail::schema_value(schema);
  std::vector<std::size_t> r;
  for (std::size_t i = 0; i < s.arguments.size(); ++i)
    if (is_argument(s, i, c)) r.push_back(i);
  return r;
}
template <class Schema>
std::vector<std::size_t> tensor_argument_indices(const Schema& s) { return argument_indices(s, argument_class::tensor); }
template <class Schema>
std::vector<std::size_t> mutable_argument_indices(const Schema& s) { return argument_indices(s, argument_class::mutable_); }
template <class Schema>
std::vector<std::size_t> out_argument_indices(const Schema& s) { return argument_indices(s, argument_class::out); }

// torchgen's self argument: the first positional argument named `self`, or no_position.
template <class Schema>
constexpr std::size_t self_argument(const Schema& schema) {
  return properties_detail::layout_of(properties_detail::schema_value(schema)).self;
}

// ---- whole schema ------------------------------------------------------------

// torchgen's SchemaKind:
//   inplace    the name is in-place (add_, __iadd__) and self is written to
//   out        some kwarg-only argument is written to (scratch: one is _scratch_*)
//   mutable    a positional argument after self (or any, without self) is written to
//   functional otherwise
// torchgen decides `inplace` from the name alone (and rejects an in-place name
// whose self is not written); here such a schema is classified by the rest.
template <class Schema>
constexpr schema_kind kind_of(const Schema& schema) {
  const auto& s = properties_detail::schema_value(schema);
  const properties_detail::layout l = properties_detail::layout_of(s);
  if (properties_detail::parse_name(s.name).inplace && l.self != no_position &&
      properties_detail::writes(properties_detail::annotation(s, s.arguments[l.self].type)))
    return schema_kind::inplace;
  if (l.first_out < l.count) {
    for (std::size_t i = l.first_out; i < l.count; ++i)
      if (s.arguments[i].name.substr(0, 9) == "_scratch_") return schema_kind::scratch;
    return schema_kind::out;
  }
  for (std::size_t i = 0; i < l.first_kwarg; ++i)
    if (l.post_self(i) && properties_detail::writes(properties_detail::annotation(s, s.arguments[i].type)))
      return schema_kind::mutable_;
  return schema_kind::functional;
}

// torchgen's NativeFunction.is_view_op as far as the schema tells: a return
// carries an alias annotation that is not a write (it aliases an input), or an
// argument's annotation has a set after '->' (Tensor(a -> *), a wildcard view).
template <class Schema>
constexpr bool is_view(const Schema& schema) {
  const auto& s = properties_detail::schema_value(schema);
  for (const argument& r : s.returns) {
    const alias_info* a = properties_detail::annotation(s, r.type);
    if (a != nullptr && !a->is_write) return true;
  }
  for (const argument& arg : s.arguments) {
    const alias_info* a = properties_detail::annotation(s, arg.type);
    if (a != nullptr && a->has_arrow && a->after.count != 0) return true;
  }
  return false;
}

// The whole of torchgen's is_view_op: in-place views (squeeze_, t_, ...) look
// like any in-place op in their schema; native_functions.yaml marks them with
// the `inplace_view` tag, which resize_ and resize_as_ carry without counting.
template <class Schema>
constexpr bool is_view_op(const Schema& schema, bool inplace_view_tag) {
  const auto& s = properties_detail::schema_value(schema);
  const bool resize = s.overload.empty() && (s.name == "resize_" || s.name == "resize_as_");
  return is_view(s) || (inplace_view_tag && !resize);
}

// ---- compile-time positions ------------------------------------------------

// A compile-time schema named through a type: `Op::schema` is the schema
// (what schema_ref / schema_literal provide, or any struct with
// `static constexpr const auto& schema = ...;`).
template <const auto& S>
struct schema_ref {
  static constexpr const auto& schema = S;
};
template <fixed_string Text>
struct schema_literal {
  static constexpr const auto& schema = schema_of<Text>();
};

namespace properties_detail {
template <class Op, argument_class C>
struct positions_of {
  static constexpr std::size_t count = count_arguments(Op::schema, C);
  static constexpr std::array<std::size_t, count> make() {
    std::array<std::size_t, count> r{};
    std::size_t k = 0;
    for (std::size_t i = 0; i < Op::schema.arguments.size(); ++i)
      if (is_argument(Op::schema, i, C)) r[k++] = i;
    return r;
  }
  static constexpr std::array<std::size_t, count> value = make();
};
}  // namespace properties_detail

// std::array<std::size_t, N> of the argument positions of one class, sized
// exactly, for the schema Op::schema:
//   struct Mul { static constexpr const auto& schema = opd::schema::schema_of<"mul(Tensor a, int b, Tensor c) -> Tensor">(); };
//   static_assert(argument_positions<Mul>::tensors == std::array<std::size_t, 2>{0, 2});
template <class Op>
struct argument_positions {
  static constexpr const auto& tensors = properties_detail::positions_of<Op, argument_class::tensor>::value;
  static constexpr const auto& mutables = properties_detail::positions_of<Op, argument_class::mutable_>::value;
  static constexpr const auto& outs = properties_detail::positions_of<Op, argument_class::out>::value;
};

// The same keyed by a schema object with static storage duration (a namespace
// or static constexpr variable; clang does not accept a reference to a
// subobject such as schema_of<"...">() itself as a template argument, so copy
// it into a variable first):
//   constexpr auto mul = opd::schema::schema_of<"mul(Tensor a, int b, Tensor c) -> Tensor">();
//   static_assert(tensor_argument_positions<mul>.size() == 2);
template <const auto& S>
inline constexpr const auto& tensor_argument_positions = argument_positions<schema_ref<S>>::tensors;
template <const auto& S>
inline constexpr const auto& mutable_argument_positions = argument_positions<schema_ref<S>>::mutables;
template <const auto& S>
inline constexpr const auto& out_argument_positions = argument_positions<schema_ref<S>>::outs;

}  // namespace opd::schema
