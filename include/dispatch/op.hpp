#pragma once
// An operator, declared once:
//
//   struct my_add : opd::op<"myops::add(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"> {};
//
// The schema is parsed at compile time (a malformed one is a compile error,
// opd::malformed_schema<error, column, text...>), and everything else is
// derived from it: my_add::signature is the kernel function type
// (const Tensor&, const Tensor&, const Scalar&) -> Tensor, and
// opd::schema::check_kernel<my_add, F>() checks a kernel against it.
//
// opd::op holds only what the schema determines. The dispatcher adds the call
// machinery on top (as further members here, or as free functions taking the
// op type); a derived struct such as my_add is the operator's identity
// everywhere (opd::schema::arg_type_t<my_add, 0>, check_kernel<my_add, F>()).
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <cstddef>
#include <string_view>

#include "schema/cpp_types.hpp"
#include "schema/fixed_string.hpp"
#include "schema/kernel_signature.hpp"
#include "schema/literal.hpp"

namespace opd {

namespace detail {

// The schema alone, so that op<S> can derive its types from a complete class.
template <fixed_string S>
struct op_schema {
  static constexpr const auto& schema = schema::schema_of<S>();
  // Reported once, by schema_of; what is derived from the schema then stays quiet.
  static constexpr bool malformed = schema::compiled<S>::malformed;
};

// "ns::name" as written in the schema text (just "name" without a namespace).
// (Not a template on the schema's type: one function for every schema.)
constexpr std::string_view qualified_name(std::string_view ns, std::string_view name) {
  if (ns.empty()) return name;
  return std::string_view(ns.data(), static_cast<std::size_t>(name.data() + name.size() - ns.data()));
}

}  // namespace detail

template <fixed_string S>
struct op {
  // The one type every schema:: derivation for this schema is keyed on, so
  // that a struct derived from op<S> reuses op<S>'s (see schema::detail::holder_of).
  using schema_id = detail::op_schema<S>;
  // The parsed schema (opd::schema::basic_schema, a compile-time constant).
  static constexpr const auto& schema = schema_id::schema;
  // The schema text as given.
  static constexpr std::string_view schema_str = S.view();
  // "myops::add" (PyTorch's OperatorName::name) and "Tensor" of add.Tensor
  // (empty when the schema has no overload name).
  static constexpr std::string_view name = detail::qualified_name(schema.ns, schema.name);
  static constexpr std::string_view overload_name = schema.overload;

  // The kernel function type R(Args...), see opd::schema::kernel_signature_t.
  using signature = schema::kernel_signature_t<schema_id>;
  using return_type = schema::return_type_t<schema_id>;
};

}  // namespace opd
