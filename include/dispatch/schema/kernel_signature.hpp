#pragma once
// Checks a kernel against an operator's schema at compile time.
//
//   static_assert(opd::schema::check_kernel<my_add, decltype(my_add_cpu)>());
//   static_assert(opd::schema::check_kernel<my_add>(some_lambda));
//   opd::schema::kernel_matches_v<my_add, F>   // the same test, as a plain bool
//
// F may be a function, a function pointer or reference, or a class with one
// non-template operator() (a lambda, a functor, std::function). Its
// parameters must be EXACTLY kernel_signature_t<Op>'s (cpp_types.hpp), with
// an optional leading opd::DispatchKeySet taken by value; its return type
// must be exactly return_type_t<Op>. The forms c10 also accepts are the only
// exceptions (param_form_accepted_v below: a Tensor taken by value, a str
// taken as std::string, std::tuple<> returned for `-> ()`); the kernel's
// entry points (make_kernel.hpp) adapt them, so the dispatcher still calls
// every kernel through a function pointer of exactly the schema's type.
//
// A mismatch stops compilation in one of these (the template arguments say
// what is wrong; argument positions count from 0, as the schema's arguments,
// not counting a DispatchKeySet; the argument's name follows as characters):
//   opd::kernel_arity_mismatch<Expected, Actual>
//   opd::kernel_argument_mismatch<Position, Expected, Actual, 'n','a','m','e'>
//   opd::mutable_tensor_taken_by_const_reference<Position, 'n','a','m','e'>
//   opd::kernel_return_mismatch<Expected, Actual>
//   opd::kernel_parameter_types_not_deducible<F>   (generic lambda, overloaded operator(), not callable)
// and, after any of the first four, when the schema has a type variable that
// looks like a typo (schema/typo.hpp):
//   opd::is_read_as_a_type_variable<'t','e','n','s','o','r'>::did_you_mean<'T','e','n','s','o','r'>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "cpp_types.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"
#include "typo.hpp"

namespace opd {

namespace schema::detail {
// T, made dependent on V (a static_assert condition that names the types involved).
template <auto V, class T>
using dependent_t = std::conditional_t<(static_cast<void>(V), true), T, T>;
}  // namespace schema::detail

template <std::size_t Expected, std::size_t Actual>
struct kernel_arity_mismatch {
  static_assert(Expected == Actual,
                "kernel has the wrong number of parameters for its schema (Expected, Actual: the template "
                "arguments of opd::kernel_arity_mismatch above; a leading DispatchKeySet is not counted)");
  static constexpr bool ok = false;
};

template <std::size_t Position, class Expected, class Actual, char... ArgumentName>
struct kernel_argument_mismatch {
  static_assert(std::is_same_v<Expected, Actual>,
                "kernel parameter type does not match the schema (Position, Expected, Actual, argument name: the "
                "template arguments of opd::kernel_argument_mismatch above)");
  static constexpr bool ok = false;
};

template <std::size_t Position, char... ArgumentName>
struct mutable_tensor_taken_by_const_reference {
  static_assert(std::is_same_v<Tensor&, schema::detail::dependent_t<Position, const Tensor&>>,
                "the schema writes to this tensor (Tensor(a!)): the kernel must take it as Tensor& (Tensor(a!)?: "
                "std::optional<Tensor>&), not by const reference (Position, argument name: the template arguments "
                "of opd::mutable_tensor_taken_by_const_reference above)");
  static constexpr bool ok = false;
};

template <class Expected, class Actual>
struct kernel_return_mismatch {
  static_assert(std::is_same_v<Expected, Actual>,
                "kernel return type does not match the schema (Expected, Actual: the template arguments of "
                "opd::kernel_return_mismatch above)");
  static constexpr bool ok = false;
};

// A kernel mismatch where the schema has a type variable that looks like a
// typo: opd::is_read_as_a_type_variable<'t','e','n','s','o','r'>::did_you_mean<'T','e','n','s','o','r'>
// ("'tensor' is read as a type variable; did you mean 'Tensor'?").
template <char... Written>
struct is_read_as_a_type_variable {
  template <char... Meant>
  struct did_you_mean {
    static_assert(sizeof...(Meant) == 0,
                  "a lower-case type name that is no known type is read as a type variable (any value, taken as "
                  "const opd::IValue&): the schema's name is the template argument of "
                  "opd::is_read_as_a_type_variable above, the type probably meant that of did_you_mean");
    static constexpr bool ok = false;
  };
};

template <class F>
struct kernel_parameter_types_not_deducible {
  static_assert(std::is_void_v<F>,
                "cannot deduce the kernel's parameter types: a kernel must be a function, a function pointer, or a "
                "class with exactly one non-template operator() callable on an lvalue (a generic lambda "
                "`[](auto...)` is not accepted: write the parameter types)");
  static constexpr bool ok = false;
};

namespace schema {

// Parameter and return forms accepted besides the canonical ones (c10's
// kernels may take them), each mapped to the canonical type it stands for:
// a Tensor or Tensor? by value instead of by const reference (a reference
// count per call), a str as std::string or const std::string& instead of
// std::string_view (a copy per call), and std::tuple<> returned for an
// operator that returns nothing. Returns are mapped separately: a Tensor or
// std::string returned by value is already canonical.
template <class P>
struct canonical_param {
  using type = P;
};
template <>
struct canonical_param<Tensor> {
  using type = const Tensor&;
};
template <>
struct canonical_param<std::optional<Tensor>> {
  using type = const std::optional<Tensor>&;
};
template <>
struct canonical_param<std::string> {
  using type = std::string_view;
};
template <>
struct canonical_param<const std::string&> {
  using type = std::string_view;
};
template <>
struct canonical_param<std::optional<std::string>> {
  using type = std::optional<std::string_view>;
};
template <>
struct canonical_param<const std::optional<std::string>&> {
  using type = std::optional<std::string_view>;
};
template <class P>
using canonical_param_t = typename canonical_param<P>::type;

template <class R>
struct canonical_return {
  using type = R;
};
template <>
struct canonical_return<std::tuple<>> {
  using type = void;
};
template <class R>
using canonical_return_t = typename canonical_return<R>::type;

template <class Expected, class Actual>
inline constexpr bool param_form_accepted_v = std::is_same_v<Expected, canonical_param_t<Actual>>;
template <class Expected, class Actual>
inline constexpr bool return_form_accepted_v = std::is_same_v<Expected, canonical_return_t<Actual>>;

namespace detail {

namespace mp = boost::mp11;

template <class Expected, class Actual>
struct params_accepted : std::false_type {};
template <class... E, class... A>
  requires(sizeof...(E) == sizeof...(A))
struct params_accepted<mp::mp_list<E...>, mp::mp_list<A...>>
    : std::bool_constant<(param_form_accepted_v<E, A> && ...)> {};

template <class R, class... A>
struct function_info {
  static constexpr bool deducible = true;
  using return_type = R;
  using params = mp::mp_list<A...>;
};

// Anything else (generic lambdas, overloaded or &&-qualified operator(), C
// variadics, pointers to member functions, non-callables): not deducible.
template <class F>
struct callable_info {
  static constexpr bool deducible = false;
};

template <class R, class... A>
struct callable_info<R(A...)> : function_info<R, A...> {};
template <class R, class... A>
struct callable_info<R(A...) noexcept> : function_info<R, A...> {};
template <class R, class... A>
struct callable_info<R (*)(A...)> : function_info<R, A...> {};
template <class R, class... A>
struct callable_info<R (*)(A...) noexcept> : function_info<R, A...> {};

// The type of &C::operator(), for the qualifications that can be called on
// an lvalue kernel object: none, const, &, const&, each optionally noexcept.
// (Only for operator(): a pointer to some other member function is no kernel.)
template <class M>
struct call_operator_info {
  static constexpr bool deducible = false;
};
#define OPD_KERNEL_CALL_OPERATOR(QUALIFIERS)                                            \
  template <class R, class C, class... A>                                               \
  struct call_operator_info<R (C::*)(A...) QUALIFIERS> : function_info<R, A...> {};     \
  template <class R, class C, class... A>                                               \
  struct call_operator_info<R (C::*)(A...) QUALIFIERS noexcept> : function_info<R, A...> {};
OPD_KERNEL_CALL_OPERATOR()
OPD_KERNEL_CALL_OPERATOR(const)
OPD_KERNEL_CALL_OPERATOR(&)
OPD_KERNEL_CALL_OPERATOR(const&)
#undef OPD_KERNEL_CALL_OPERATOR

// A class with exactly one, non-template operator().
template <class F>
  requires std::is_class_v<F> && requires { &F::operator(); }
struct callable_info<F> : call_operator_info<decltype(&F::operator())> {};

// The kernel type as given: F, F&, const F&, a function type, a pointer.
template <class F>
using kernel_info = callable_info<std::remove_cvref_t<F>>;

// The parameters the schema sees: without a leading DispatchKeySet.
template <class L>
struct schema_params {
  using type = L;
};
template <class... A>
struct schema_params<mp::mp_list<DispatchKeySet, A...>> {
  using type = mp::mp_list<A...>;
};

template <class Op>
constexpr std::string_view argument_name(std::size_t i) {
  return i < Op::schema.arguments.size() ? Op::schema.arguments[i].name : std::string_view("...");
}

template <class Op, std::size_t I, class Expected, class Actual, std::size_t... C>
constexpr bool report_argument(std::index_sequence<C...>) {
  if constexpr (std::is_same_v<Expected, Tensor&> && std::is_same_v<Actual, const Tensor&>)
    return mutable_tensor_taken_by_const_reference<I, argument_name<Op>(I)[C]...>::ok;
  else if constexpr (std::is_same_v<Expected, std::optional<Tensor>&> &&
                     std::is_same_v<Actual, const std::optional<Tensor>&>)
    return mutable_tensor_taken_by_const_reference<I, argument_name<Op>(I)[C]...>::ok;
  else
    return kernel_argument_mismatch<I, Expected, Actual, argument_name<Op>(I)[C]...>::ok;
}

template <class Op, std::size_t I, class Expected, class Actual>
constexpr bool check_argument() {
  if constexpr (param_form_accepted_v<Expected, Actual>)
    return true;
  else
    return report_argument<Op, I, Expected, Actual>(std::make_index_sequence<argument_name<Op>(I).size()>{});
}

template <class Op, class Expected, class Actual, std::size_t... I>
constexpr bool check_arguments(std::index_sequence<I...>) {
  // Every argument is checked (not `&&`'s short circuit): every mismatch is reported.
  const bool results[] = {true, check_argument<Op, I, mp::mp_at_c<Expected, I>, mp::mp_at_c<Actual, I>>()...};
  bool ok = true;
  for (bool r : results) ok = ok && r;
  return ok;
}

template <class Op, std::size_t... W, std::size_t... M>
constexpr bool report_type_variable(std::index_sequence<W...>, std::index_sequence<M...>) {
  constexpr std::string_view written = Op::schema.types[first_suspicious_type_variable(Op::schema)].name;
  constexpr std::string_view meant = type_variable_suggestion(written);
  return is_read_as_a_type_variable<written[W]...>::template did_you_mean<meant[M]...>::ok;
}

// When the kernel does not fit and the schema has a type variable that looks
// like a typo, say so too (the mismatch alone would only say `const opd::IValue&`).
template <class Op>
constexpr bool report_suspicious_type_variable() {
  constexpr std::int16_t t = first_suspicious_type_variable(Op::schema);
  if constexpr (t == no_index) {
    return false;
  } else {
    constexpr std::string_view written = Op::schema.types[t].name;
    return report_type_variable<Op>(std::make_index_sequence<written.size()>{},
                                    std::make_index_sequence<type_variable_suggestion(written).size()>{});
  }
}

template <class Op, class Info>
constexpr bool check_deduced_kernel() {
  using expected = arg_types_t<Op>;
  using actual = typename schema_params<typename Info::params>::type;
  constexpr std::size_t n_expected = mp::mp_size<expected>::value;
  constexpr std::size_t n_actual = mp::mp_size<actual>::value;

  constexpr bool return_fits = return_form_accepted_v<return_type_t<Op>, typename Info::return_type>;
  constexpr bool params_fit = params_accepted<expected, actual>::value;
  bool ok = true;
  if constexpr (!return_fits)
    ok = kernel_return_mismatch<return_type_t<Op>, typename Info::return_type>::ok;
  if constexpr (n_expected != n_actual)
    ok = kernel_arity_mismatch<n_expected, n_actual>::ok && ok;
  else if constexpr (!params_fit)  // (a kernel that fits: no check per argument)
    ok = check_arguments<Op, expected, actual>(std::make_index_sequence<n_expected>{}) && ok;
  if constexpr (!return_fits || !params_fit)
    ok = report_suspicious_type_variable<Op>() && ok;
  return ok;
}

}  // namespace detail

// Does the kernel type F take a leading DispatchKeySet?
template <class F>
inline constexpr bool takes_dispatch_key_set_v = [] {
  using info = detail::kernel_info<F>;
  if constexpr (info::deducible)
    return !std::is_same_v<typename detail::schema_params<typename info::params>::type, typename info::params>;
  else
    return false;
}();

// True when F is a kernel for Op (see above); never a compile error.
template <schema_holder Op, class F>
inline constexpr bool kernel_matches_v = [] {
  using info = detail::kernel_info<F>;
  if constexpr (info::deducible)
    return return_form_accepted_v<return_type_t<Op>, typename info::return_type> &&
           detail::params_accepted<arg_types_t<Op>, typename detail::schema_params<typename info::params>::type>::value;
  else
    return false;
}();

// Is Op's schema malformed (an opd::op whose schema_of reported the error)?
// Then nothing else is checked against it: one mistake, one diagnostic.
template <class Op>
inline constexpr bool schema_malformed_v = [] {
  if constexpr (requires { Op::schema_id::malformed; })
    return Op::schema_id::malformed;
  else
    return false;
}();

// True when F is a kernel for Op; otherwise a compile error that says why.
template <schema_holder Op, class F>
constexpr bool check_kernel() {
  using info = detail::kernel_info<F>;
  if constexpr (schema_malformed_v<Op>)
    return true;  // (the schema's own error is the diagnostic)
  else if constexpr (!info::deducible)
    return kernel_parameter_types_not_deducible<std::remove_cvref_t<F>>::ok;
  else
    return detail::check_deduced_kernel<Op, info>();
}

// The same, for a kernel object: check_kernel<Op>(my_kernel), check_kernel<Op>(&fn).
template <schema_holder Op, class F>
constexpr bool check_kernel(F&&) noexcept {
  return check_kernel<Op, F>();
}

}  // namespace schema
}  // namespace opd
