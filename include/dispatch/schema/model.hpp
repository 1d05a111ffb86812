#pragma once
// The parsed form of an operator schema. One template serves both worlds: with
// static_vector storage it is a compile-time value (opd::op<"...">::schema),
// with std::vector storage it is the run-time result of schema::parse().
// Names and default texts are string_views into the schema's own text.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "lexer.hpp"

namespace opd::schema {

// The leaf types of the language, as PyTorch's SchemaTypeParser knows them.
enum class base_type : std::uint8_t {
  Tensor, int_, SymInt, float_, SymFloat, complex, bool_, SymBool, str, Scalar,
  ScalarType, Layout, MemoryFormat, Device, DeviceIndex, Generator, Dimname, Storage,
  Stream, QScheme, Quantizer, ConstQuantizerPtr, Capsule, Any, AnyClassType,
  AnyEnumType, None, NoneType,
};

struct base_type_name {
  std::string_view spelling;
  base_type type;
};
inline constexpr base_type_name base_type_names[] = {
    {"Tensor", base_type::Tensor},         {"int", base_type::int_},
    {"SymInt", base_type::SymInt},         {"float", base_type::float_},
    {"SymFloat", base_type::SymFloat},     {"complex", base_type::complex},
    {"bool", base_type::bool_},            {"SymBool", base_type::SymBool},
    {"str", base_type::str},               {"Scalar", base_type::Scalar},
    {"ScalarType", base_type::ScalarType}, {"Layout", base_type::Layout},
    {"MemoryFormat", base_type::MemoryFormat}, {"Device", base_type::Device},
    {"DeviceIndex", base_type::DeviceIndex}, {"Generator", base_type::Generator},
    {"Dimname", base_type::Dimname},       {"Storage", base_type::Storage},
    {"Stream", base_type::Stream},         {"QScheme", base_type::QScheme},
    {"Quantizer", base_type::Quantizer},   {"ConstQuantizerPtr", base_type::ConstQuantizerPtr},
    {"Capsule", base_type::Capsule},       {"Any", base_type::Any},
    {"AnyClassType", base_type::AnyClassType}, {"AnyEnumType", base_type::AnyEnumType},
    {"None", base_type::None},             {"NoneType", base_type::NoneType},
};

constexpr std::string_view spelling(base_type t) {
  for (const auto& b : base_type_names)
    if (b.type == t) return b.spelling;
  return "?";
}

enum class type_kind : std::uint8_t {
  base,          // a leaf: base_type
  type_var,      // a lower-case name that is no known type (t, t1, ...): any value
  custom_class,  // __torch__.torch.classes.ns.Name
  list,          // T[] or T[N]
  optional,      // T?
  tuple,         // (T1, T2, ...)
  dict,          // Dict(K, V)
  future,        // Future(T)
  rref,          // RRef(T)
  union_,        // Union(T1, T2, ...)
};

inline constexpr std::int16_t no_index = -1;

// One node of a type tree; trees live flat in schema::types. Children of a
// tuple / dict / union are chained through `next`.
struct type_node {
  type_kind kind = type_kind::base;
  base_type base = base_type::Tensor;
  std::int16_t child = no_index;   // list/optional/future/rref element, first tuple/dict/union member
  std::int16_t next = no_index;    // next sibling inside a tuple/dict/union
  std::int16_t alias = no_index;   // index into schema::aliases, annotation written on this node
  std::int32_t fixed_size = -1;    // N of T[N]
  std::string_view name;           // type_var / custom_class spelling
};

inline constexpr std::size_t max_alias_set = 4;

struct alias_set {
  std::string_view names[max_alias_set]{};  // "*" is the wildcard
  std::uint8_t count = 0;
  constexpr bool contains(std::string_view n) const {
    for (std::size_t i = 0; i < count; ++i)
      if (text_equal(names[i], n)) return true;
    return false;
  }
};

// Tensor(a), Tensor(a!), Tensor(a -> *), Tensor(a|b), or the shorthand Tensor!
// (a write to a fresh alias set of its own).
struct alias_info {
  alias_set before;
  alias_set after;
  bool is_write = false;
  bool shorthand = false;  // written as '!' alone
  bool has_arrow = false;  // written with an explicit '->' after set
};

enum class default_kind : std::uint8_t {
  none,       // None
  boolean,    // True / False
  integer,
  floating,
  complex,    // 2j (imaginary part in `floating`)
  string,     // 'text' / "text" (value = text between the quotes, escapes not applied)
  symbol,     // Mean, long, contiguous_format, ... resolved to `integer`
  list,       // [a, b, ...]: elements are re-read from `text` on demand
  repeated,   // int[2] x=1 : a single value standing for N copies
};

struct default_value {
  default_kind kind = default_kind::none;
  default_kind element = default_kind::none;  // for list / repeated: kind of the elements
  std::string_view text;                      // as written (tokens, without surrounding space)
  bool boolean = false;
  std::int64_t integer = 0;
  double floating = 0.0;
  std::int32_t length = 0;  // list length
};

struct argument {
  std::string_view name;  // may be empty for returns
  std::int16_t type = no_index;
  bool kwarg_only = false;
  bool has_default = false;
  default_value def{};
};

// (RetVec: compile-time storage sizes the returns apart from the arguments.)
template <class ArgVec, class TypeVec, class AliasVec, class RetVec = ArgVec>
struct basic_schema {
  std::string_view text;  // the whole schema as given
  std::string_view ns;    // "myops" of myops::add, empty without namespace
  std::string_view name;
  std::string_view overload;
  ArgVec arguments{};
  RetVec returns{};
  TypeVec types{};
  AliasVec aliases{};
  std::int16_t kwarg_marker = no_index;  // arguments before the first '*'
  bool is_vararg = false;                // (..., ...)
  bool is_varret = false;                // -> ...
  bool returns_parenthesized = false;

  constexpr const type_node& type(std::int16_t i) const { return types[static_cast<std::size_t>(i)]; }
  constexpr const alias_info& alias(std::int16_t i) const { return aliases[static_cast<std::size_t>(i)]; }
  constexpr const type_node& type_of(const argument& a) const { return type(a.type); }
};

}  // namespace opd::schema
