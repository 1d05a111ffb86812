#pragma once
// The run-time counterpart of the kernel check, for operators whose schema is
// known only at run time: a typed kernel's C++ signature is described in
// schema terms ("Tensor", "int[]", "float?", "Tensor!" for a written tensor)
// and compared with the declared schema's arguments and returns, normalised
// the same way (names, alias sets and list sizes dropped; SymInt is int).
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <boost/mp11.hpp>

#include "dispatch/core/dict.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/schema/kernel_signature.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd::detail {

// The schema spelling of a plain (not optional, not list) C++ type, "" when none.
template <class U>
constexpr std::string_view base_type_as_schema() {
  if constexpr (std::is_same_v<U, Tensor>) return "Tensor";
  else if constexpr (std::is_same_v<U, int64_t>) return "int";
  else if constexpr (std::is_same_v<U, double>) return "float";
  else if constexpr (std::is_same_v<U, bool>) return "bool";
  else if constexpr (std::is_same_v<U, std::string_view> || std::is_same_v<U, std::string>) return "str";
  else if constexpr (std::is_same_v<U, Scalar>) return "Scalar";
  else if constexpr (std::is_same_v<U, ScalarType>) return "ScalarType";
  else if constexpr (std::is_same_v<U, Layout>) return "Layout";
  else if constexpr (std::is_same_v<U, MemoryFormat>) return "MemoryFormat";
  else if constexpr (std::is_same_v<U, Device>) return "Device";
  else if constexpr (std::is_same_v<U, Generator>) return "Generator";
  else if constexpr (std::is_same_v<U, std::complex<double>>) return "complex";
  else if constexpr (std::is_same_v<U, IValue>) return "Any";
  else return "";
}
// A list type a kernel may take or return (std::span, std::vector, std::array).
template <class U>
inline constexpr bool is_list_type_v =
    boxing::is_span<U>::value || boxing::is_std_array<U>::value || std::is_same_v<U, std::vector<bool>> ||
    (!std::is_same_v<U, std::string> && requires { typename U::value_type; typename U::allocator_type; });
template <class U>
using list_element_t = std::remove_const_t<typename U::value_type>;

// Does the C++ type T have a schema spelling? (The compile-time side of
// cpp_type_as_schema, for opd::def's readable error.)
template <class T>
constexpr bool has_schema_spelling() {
  using U = std::remove_cvref_t<T>;
  if constexpr (boxing::is_optional<U>::value) return has_schema_spelling<typename U::value_type>();
  else if constexpr (is_dict_v<U>)
    return has_schema_spelling<typename U::key_type>() && has_schema_spelling<typename U::mapped_type>();
  else if constexpr (is_list_type_v<U>) return has_schema_spelling<list_element_t<U>>();
  else return !base_type_as_schema<U>().empty();
}

// The schema spelling of a kernel parameter or return type ("" when none fits).
template <class T>
std::string cpp_type_as_schema() {
  using U = std::remove_cvref_t<T>;
  constexpr bool written = std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>;
  if constexpr (std::is_same_v<U, Tensor>) {
    return written ? "Tensor!" : "Tensor";
  } else if constexpr (boxing::is_optional<U>::value) {
    const std::string inner = cpp_type_as_schema<typename U::value_type>();
    return inner.empty() ? inner : inner + "?";
  } else if constexpr (is_list_type_v<U>) {
    const std::string inner = cpp_type_as_schema<list_element_t<U>>();
    return inner.empty() ? inner : inner + "[]";
  } else if constexpr (is_dict_v<U>) {
    const std::string key = cpp_type_as_schema<typename U::key_type>();
    const std::string value = cpp_type_as_schema<typename U::mapped_type>();
    return key.empty() || value.empty() ? std::string() : "Dict(" + key + ", " + value + ")";
  } else {
    return std::string(base_type_as_schema<U>());
  }
}

// The same normalisation of a parsed schema type.
template <class S>
std::string schema_type_normalised(const S& s, std::int16_t t) {
  const auto& n = s.type(t);
  const bool written = n.alias != schema::no_index && s.alias(n.alias).is_write;
  switch (n.kind) {
    case schema::type_kind::base: {
      std::string b(schema::spelling(n.base));
      if (b == "SymInt") b = "int";
      if (b == "SymFloat") b = "float";
      if (b == "SymBool") b = "bool";
      if (b == "Dimname") b = "str";
      return written && b == "Tensor" ? "Tensor!" : b;
    }
    case schema::type_kind::list: {
      std::string e = schema_type_normalised(s, n.child);
      if (e == "Tensor!") e = "Tensor";  // a written Tensor(a!)[] is still a list of handles
      return e + "[]";
    }
    case schema::type_kind::optional: return schema_type_normalised(s, n.child) + "?";
    case schema::type_kind::dict:
      return "Dict(" + schema_type_normalised(s, n.child) + ", " + schema_type_normalised(s, s.type(n.child).next) + ")";
    default: return "Any";
  }
}

template <class List>
struct cpp_types_as_schema;
template <class... A>
struct cpp_types_as_schema<boost::mp11::mp_list<A...>> {
  static std::vector<std::string> get() { return {cpp_type_as_schema<A>()...}; }
};

template <class R>
std::vector<std::string> cpp_returns_as_schema() {
  if constexpr (std::is_void_v<R>) return {};
  else if constexpr (boxing::is_tuple<std::remove_cvref_t<R>>::value)
    return cpp_types_as_schema<boost::mp11::mp_rename<std::remove_cvref_t<R>, boost::mp11::mp_list>>::get();
  else return {cpp_type_as_schema<R>()};
}

inline std::string join_types(const std::vector<std::string>& v) {
  std::string out = "(";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + (v[i].empty() ? std::string("<unmappable>") : v[i]);
  return out + ")";
}

// Throws opd::TypeError when the kernel type F does not fit op's schema.
template <class F>
void check_kernel_at_run_time(const OperatorEntry& op) {
  using info = schema::detail::kernel_info<F>;
  static_assert(info::deducible, "a typed kernel for a run-time schema needs deducible parameter types (no generic lambda)");
  const auto& s = op.schema().value();
  const auto args = cpp_types_as_schema<typename schema::detail::schema_params<typename info::params>::type>::get();
  const auto rets = cpp_returns_as_schema<typename info::return_type>();
  std::vector<std::string> want_args, want_rets;
  for (const auto& a : s.arguments) want_args.push_back(schema_type_normalised(s, a.type));
  for (const auto& r : s.returns) want_rets.push_back(schema_type_normalised(s, r.type));
  if (args != want_args || rets != want_rets)
    throw TypeError(op.name() + ": the kernel's signature " + join_types(args) + " -> " + join_types(rets) +
                    " does not match the schema's " + join_types(want_args) + " -> " + join_types(want_rets));
}

// ---- a schema inferred from a kernel (c10's m.def("name", fn)) --------------
template <class T>
struct inferable_parameter {
  static_assert(has_schema_spelling<T>(),
                "opd::def: a kernel parameter type has no schema type (the template argument of "
                "opd::detail::inferable_parameter above); declare the schema yourself (opd::declare, or an opd::op<>)");
  static constexpr bool ok = has_schema_spelling<T>();
};
template <class T>
struct inferable_return {
  static_assert(has_schema_spelling<T>() && !(std::is_lvalue_reference_v<T> && !std::is_const_v<std::remove_reference_t<T>>),
                "opd::def: a kernel return type has no schema type, or is a Tensor& whose alias a schema must state "
                "(the template argument of opd::detail::inferable_return above); declare the schema yourself");
  static constexpr bool ok = has_schema_spelling<T>();
};

template <class... A, class... R>
constexpr bool all_inferable(boost::mp11::mp_list<A...>, boost::mp11::mp_list<R...>) {
  const bool each[] = {true, inferable_parameter<A>::ok..., inferable_return<R>::ok...};  // every one reported
  bool ok = true;
  for (bool b : each) ok = ok && b;
  return ok;
}

template <class... A>
std::string inferred_arguments(boost::mp11::mp_list<A...>) {
  std::string out = "(";
  std::size_t i = 0;
  char alias_set = 'a';
  auto one = [&](std::string spelled) {
    if (spelled == "Tensor!") spelled = std::string("Tensor(") + alias_set++ + "!)";
    out += (i ? ", " : "") + spelled + " _" + std::to_string(i);
    ++i;
  };
  (one(cpp_type_as_schema<A>()), ...);
  return out + ")";
}
template <class... R>
std::string inferred_returns(boost::mp11::mp_list<R...>) {
  std::string out;
  std::size_t i = 0;
  ((out += (i++ ? ", " : "") + cpp_type_as_schema<R>()), ...);
  return sizeof...(R) == 1 ? out : "(" + out + ")";
}

// A kernel's results as a list: none, the elements of a tuple, or one.
template <class R>
struct returns_of {
  using type = boost::mp11::mp_list<R>;
};
template <>
struct returns_of<void> {
  using type = boost::mp11::mp_list<>;
};
template <class... T>
struct returns_of<std::tuple<T...>> {
  using type = boost::mp11::mp_list<T...>;
};

// "ns::name(Tensor _0, int _1) -> Tensor" for a kernel F (arguments named
// _0, _1, ... as c10 names them; a Tensor& parameter is written: Tensor(a!)).
template <class F>
std::string inferred_schema(std::string_view name) {
  namespace mp = boost::mp11;
  using info = schema::detail::kernel_info<F>;
  static_assert(info::deducible, "opd::def needs a kernel with deducible parameter types (no generic lambda)");
  using params = typename schema::detail::schema_params<typename info::params>::type;
  using R = typename info::return_type;
  using returns = typename returns_of<R>::type;
  static_assert(all_inferable(params{}, returns{}), "opd::def: see the error above");
  return std::string(name) + inferred_arguments(params{}) + " -> " + inferred_returns(returns{});
}

}  // namespace opd::detail
