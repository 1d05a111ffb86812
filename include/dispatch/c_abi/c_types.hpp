#pragma once
// Schema type -> C form: how one argument or return crosses the C ABI
// (opd_c.h). Plain constexpr functions over any basic_schema, so that the
// templates (shim.hpp), the printed prototypes (c_signature.hpp) and the tool
// (`opd-schema --c`) run the same code, at compile time and at run time.
//
// The C type of a leaf comes from one table row per base_type (leaf_table,
// completeness-checked like cpp_types.hpp's); around a leaf:
//   T          the leaf's C type               (Device: int32_t type + int32_t index)
//   T?         a pointer to it, null = None    (Device?: const int32_t* type + int32_t index)
//   T[]        const T* + int64_t length       (T[N] too: the length is checked)
//   T?[]       an array of pointers            (const T* const* + length; an element null = None)
//   T[]?, T?[]? one more pointer, null = None
//   anything else (nested lists, tuples, Dict, type variables, Union, ...):
//              one opd_any, converted through the boxed path.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dispatch/schema/model.hpp"

namespace opd::c_abi {

// The C types a parameter is built from (opd_c.h spells them).
enum class c_base : std::uint8_t { tensor, i64, f64, i32, str, scalar, complex, any, value };

inline constexpr std::string_view c_base_spellings[] = {"opd_tensor", "int64_t",     "double",  "int32_t", "opd_str",
                                                        "opd_scalar", "opd_complex", "opd_any", "opd_value"};
constexpr std::string_view spelling(c_base b) { return c_base_spellings[static_cast<std::size_t>(b)]; }

// One row per schema base_type: its C leaf, and whether it takes two
// parameters (Device: type + index).
// (BT: a short name for the table below.)
using BT = schema::base_type;
struct leaf_row {
  schema::base_type type;
  c_base base;
  bool device = false;
};
inline constexpr leaf_row leaf_table[] = {
    {BT::Tensor, c_base::tensor},   {BT::int_, c_base::i64},         {BT::SymInt, c_base::i64},
    {BT::float_, c_base::f64},      {BT::SymFloat, c_base::f64},     {BT::complex, c_base::complex},
    {BT::bool_, c_base::i32},       {BT::SymBool, c_base::i32},      {BT::str, c_base::str},
    {BT::Scalar, c_base::scalar},   {BT::ScalarType, c_base::i32},   {BT::Layout, c_base::i32},
    {BT::MemoryFormat, c_base::i32}, {BT::Device, c_base::i32, true}, {BT::DeviceIndex, c_base::i64},
    {BT::Generator, c_base::any},   {BT::Dimname, c_base::str},      {BT::Storage, c_base::any},
    {BT::Stream, c_base::any},      {BT::QScheme, c_base::i32},      {BT::Quantizer, c_base::any},
    {BT::ConstQuantizerPtr, c_base::any}, {BT::Capsule, c_base::any}, {BT::Any, c_base::any},
    {BT::AnyClassType, c_base::any}, {BT::AnyEnumType, c_base::any}, {BT::None, c_base::any},
    {BT::NoneType, c_base::any},
};
constexpr bool leaf_table_complete() {
  if (std::size(leaf_table) != static_cast<std::size_t>(BT::NoneType) + 1) return false;
  for (std::size_t i = 0; i < std::size(leaf_table); ++i)
    if (static_cast<std::size_t>(leaf_table[i].type) != i) return false;  // in enum order, one each
  return true;
}
static_assert(leaf_table_complete(), "leaf_table: one row per schema::base_type, in enum order");

constexpr const leaf_row& leaf_of(schema::base_type t) { return leaf_table[static_cast<std::size_t>(t)]; }

// The shape of an argument's C parameters.
enum class c_shape : std::uint8_t {
  leaf,           // T (two parameters for Device)
  optional,       // const T* (Device?: const int32_t* + int32_t)
  list,           // const E* + int64_t, E = T or const T*
  optional_list,  // const E* const* + int64_t
  any,            // opd_any
};

struct c_form {
  c_shape shape = c_shape::any;
  c_base base = c_base::any;
  schema::base_type leaf = schema::base_type::Any;  // the schema leaf (decides e.g. bool vs dtype code)
  bool device = false;                               // Device / Device?: a second, index parameter
  bool optional_elements = false;                    // T?[]: elements are pointers
  bool mutable_tensor = false;                       // Tensor(a!): written in place
  std::int32_t fixed_size = -1;                      // T[N]
  // Number of C parameters and pointer depth of the first one.
  constexpr std::size_t arity() const { return shape == c_shape::list || shape == c_shape::optional_list || device ? 2 : 1; }
  constexpr std::uint8_t depth() const {
    switch (shape) {
      case c_shape::leaf: case c_shape::any: return 0;
      case c_shape::optional: return 1;
      case c_shape::list: return static_cast<std::uint8_t>(1 + optional_elements);
      case c_shape::optional_list: return static_cast<std::uint8_t>(2 + optional_elements);
    }
    return 0;
  }
};

namespace detail {
template <class Schema>
constexpr bool is_leaf(const Schema& s, std::int16_t i) {
  const schema::type_node& n = s.type(i);
  if (n.kind != schema::type_kind::base) return false;
  return n.base != BT::None && n.base != BT::NoneType;  // None is no value: it goes as opd_any
}
template <class Schema>
constexpr c_form leaf_form(const Schema& s, std::int16_t i, c_shape shape) {
  const schema::type_node& n = s.type(i);
  c_form f;
  f.shape = shape;
  f.leaf = n.base;
  f.base = leaf_of(n.base).base;
  f.device = leaf_of(n.base).device;
  f.mutable_tensor = n.base == BT::Tensor && n.alias != schema::no_index && s.alias(n.alias).is_write;
  return f;
}
// A list T[] / T?[] whose element has a one-parameter C form.
template <class Schema>
constexpr c_form list_form(const Schema& s, std::int16_t i, c_shape shape) {
  const schema::type_node& n = s.type(i);
  const schema::type_node& e = s.type(n.child);
  c_form f;
  if (is_leaf(s, n.child)) {
    f = leaf_form(s, n.child, shape);
  } else if (e.kind == schema::type_kind::optional && is_leaf(s, e.child)) {
    f = leaf_form(s, e.child, shape);
    f.optional_elements = true;
  } else {
    return c_form{};
  }
  if (f.device) return c_form{};  // Device[]: no flat form
  f.fixed_size = n.fixed_size;
  return f;
}
}  // namespace detail

// The C form of the value of type node `i` as an argument.
template <class Schema>
constexpr c_form arg_form(const Schema& s, std::int16_t i) {
  const schema::type_node& n = s.type(i);
  if (detail::is_leaf(s, i)) return detail::leaf_form(s, i, c_shape::leaf);
  if (n.kind == schema::type_kind::optional) {
    const schema::type_node& c = s.type(n.child);
    if (detail::is_leaf(s, n.child)) return detail::leaf_form(s, n.child, c_shape::optional);
    if (c.kind == schema::type_kind::list) return detail::list_form(s, n.child, c_shape::optional_list);
    return c_form{};
  }
  if (n.kind == schema::type_kind::list) return detail::list_form(s, i, c_shape::list);
  return c_form{};
}

// How a return comes back: through out-pointers to its flat C form (a leaf
// that is neither opd_any nor a string), as an opd_value (everything else), or not at all
// (a write-annotated return: it is one of the caller's own arguments, which
// the caller already holds, as with AOTInductor's out= shims).
enum class c_return : std::uint8_t { flat, value, omitted };
template <class Schema>
constexpr c_return return_kind(const Schema& s, std::int16_t i) {
  const schema::type_node& n = s.type(i);
  if (n.alias != schema::no_index && s.alias(n.alias).is_write) return c_return::omitted;
  if (n.kind == schema::type_kind::list) {
    const schema::type_node& e = s.type(n.child);
    if (e.alias != schema::no_index && s.alias(e.alias).is_write) return c_return::omitted;  // Tensor(a!)[]
  }
  // A string has no owner on the C side: it comes back in an opd_value.
  if (detail::is_leaf(s, i) && leaf_of(n.base).base != c_base::any && leaf_of(n.base).base != c_base::str)
    return c_return::flat;
  return c_return::value;
}

}  // namespace opd::c_abi
