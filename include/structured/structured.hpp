#pragma once
// Structured kernels: one struct declares an operator family from its out=
// schema, computes the output's metadata once (meta) and the values once per
// backend (impl); the functional, in-place and out= kernels are derived.
//
//   struct mul : opd::structured<"mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "Tensor"> {
//     static opd::TensorMeta meta(const opd::Tensor& self, const opd::Tensor& other);      // checks, sizes, dtype
//     static void impl(opd::backend_tag<opd::DispatchKey::CPU>, const opd::Tensor& self,
//                      const opd::Tensor& other, opd::Tensor& out);                         // one per backend
//   };
//   auto registrations = opd::register_structured<mul>();
//   opd::call<mul::functional>(a, b);   // mul.Tensor(Tensor self, Tensor other) -> Tensor
//   opd::call<mul::inplace>(a, b);      // mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)
//   opd::call<mul::out>(a, b, out);     // mul.out(...)
//
// meta() and impl() take the functional schema's kernel parameter types
// (schema/cpp_types.hpp), impl() with the backend tag in front and the output
// behind. impl() always receives an output of meta()'s sizes and dtype, on its
// backend's device, contiguous in meta()'s memory format; it may alias self
// (in-place). Where the caller's tensor does not fit that (an out= or self of
// another dtype or with other strides), impl() writes a temporary that is
// then copied back. See docs/structured.md.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <cstddef>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "dispatch/core/error.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/dispatcher.hpp"
#include "dispatch/op.hpp"
#include "dispatch/schema/cpp_types.hpp"
#include "dispatch/schema/fixed_string.hpp"
#include "structured/copy.hpp"
#include "structured/derive.hpp"
#include "structured/out_semantics.hpp"
#include "structured/registration.hpp"
#include "structured/schemas.hpp"
#include "structured/tensor_meta.hpp"
#include "structured/write_back.hpp"

namespace opd {

namespace structured_detail {

// The bases of a family's functional and in-place operator types. (The
// operator types are classes nested in opd::structured rather than aliases of
// opd::op<...>: where user code names an opd::op<S> whose S is another
// template's fixed_string parameter, or computed from one, nvcc's host code
// refers to an undeclared template parameter object and fails to compile.)
template <class Schemas>
using functional_op_base = op<Schemas::functional_text>;

// The in-place operator type of a family without one: no schema, unusable.
struct no_inplace_variant {};

template <class Schemas, bool Inplace = Schemas::has_inplace>
struct inplace_op_base_of {
  using type = no_inplace_variant;
};
template <class Schemas>
struct inplace_op_base_of<Schemas, true> {
  using type = op<Schemas::inplace_text>;
};


// A family's derived schemas, checked. Instantiated where the family is first
// used (a variant named or called, has_inplace read, register_structured), not
// where it is declared: a header that declares many families (kernels/ops_*.hpp)
// costs a file the derivation of only those it uses (measured: about 0.1 s of
// g++ -O2 for the seven arithmetic families a one-call file leaves unused).
template <class Schemas>
struct checked_schemas : Schemas {
 private:
  using E = family_error;
  static constexpr E error = Schemas::error;
  static_assert(error != E::varargs, "opd::structured: schemas with '...' cannot be structured");
  static_assert(error != E::not_out_schema,
                "opd::structured: the schema must be an out= schema, with a kwarg-only Tensor(a!) out argument");
  static_assert(error != E::out_count, "opd::structured: the out= schema must have exactly one out= argument");
  static_assert(error != E::out_not_last, "opd::structured: the out= argument must be the last argument");
  static_assert(error != E::out_not_plain_tensor, "opd::structured: the out= argument must be a plain Tensor(a!)");
  static_assert(error != E::returns_not_out,
                "opd::structured: the out= schema must return its out= argument, annotated alike: -> Tensor(a!)");
  static_assert(error != E::options_dropped,
                "opd::structured: dtype/layout/device/pin_memory arguments are not supported (the functional "
                "variant would drop them)");
  static_assert(error != E::overload_not_derivable,
                "opd::structured: cannot derive the functional overload name from an out= overload that is neither "
                "\"out\" nor \"<name>_out\": give it as the second template argument, "
                "opd::structured<\"...\", \"Tensor\">");
  static_assert(error != E::bad_overload_name, "opd::structured: the overload name must be an identifier (or empty)");
  static_assert(error != E::name_clash,
                "opd::structured: the functional variant's overload name equals the out= one, so both would have "
                "one operator name");
  static_assert(Schemas::arguments_kept,
                "opd::structured: torchgen's functional variant of this out= schema drops arguments, which the "
                "derived kernels cannot pass on");
};
}  // namespace structured_detail

// The base of a structured operator family, declared by its out= schema.
// Overload: the overload name of the functional and in-place variants
// (add.out goes with add.Tensor: "Tensor"); by default "out" gives no
// overload name and "<X>_out" gives "<X>". The schema is checked where the
// family is first used (structured_detail::checked_schemas).
template <fixed_string OutSchema, fixed_string Overload = derive_overload_name>
struct structured {
 private:
  using schemas = structured_detail::checked_schemas<structured_detail::family_schemas<OutSchema, Overload>>;

 public:
  // The three operators of the family (usable with opd::call, register_kernel, ...).
  struct out : op<OutSchema> {
    static_assert(sizeof(schemas) > 0);  // the family's checks, where out= is used
  };
  struct functional : structured_detail::functional_op_base<schemas> {};
  // Only when has_inplace: the functional schema starts with `Tensor self`.
  struct inplace : structured_detail::inplace_op_base_of<schemas>::type {};
  static constexpr bool has_inplace = schemas::has_inplace;
  static constexpr bool is_structured_family = true;
};

// ---- the checks of a family's meta() and impl() -------------------------------

// Compile errors that show what was expected: the template arguments name the
// family, the backend and the exact signature meta()/impl() must have, then
// the one found (structured_detail::not_deducible where it cannot be named:
// an overloaded or template function). Parameters are compared exactly, as
// register_kernel compares a kernel: no conversion is accepted.
template <class Family, class ExpectedSignature, class ActualSignature>
struct structured_meta_signature_mismatch {
  static_assert(std::is_void_v<Family*>,
                "opd::structured: meta() cannot be called with the functional schema's arguments, or does not "
                "return opd::TensorMeta; its signature must be exactly ExpectedSignature (Family, "
                "ExpectedSignature, ActualSignature: the template arguments above), with no conversion "
                "(int64_t for a float argument, a missing parameter, ...)");
};
template <class Family, DispatchKey Backend, class ExpectedSignature, class ActualSignature>
struct structured_impl_signature_mismatch {
  static_assert(std::is_void_v<Family*>,
                "opd::structured: this impl() overload does not take the functional schema's arguments and "
                "`opd::Tensor& out`, or does not return void; its signature must be exactly ExpectedSignature "
                "(Family, Backend, ExpectedSignature, ActualSignature: the template arguments above), with no "
                "conversion (int64_t for a float argument, a missing parameter, ...)");
};
template <class Family, class ExpectedSignature>
struct structured_family_has_no_impl {
  static_assert(std::is_void_v<Family*>,
                "opd::register_structured: the family has no impl(opd::backend_tag<Key>, ...) callable with the "
                "functional schema's arguments and `opd::Tensor& out` for any backend (CPU, CUDA, Meta, "
                "PrivateUse1..3); ExpectedSignature (a template argument above, shown for CPU) is what impl() must "
                "accept. For a family whose kernels come from elsewhere, use register_structured_meta");
};

namespace structured_detail {

namespace mp = boost::mp11;

// The family's in-place operator, or void.
template <class Family>
using inplace_or_void = std::conditional_t<Family::has_inplace, typename Family::inplace, void>;

template <class T>
concept family = requires {
  requires T::is_structured_family;
  typename T::out;
  typename T::functional;
};

// Converts to any lvalue reference / value: probes whether an impl() overload
// for a backend exists at all, whatever its parameters.
struct any_argument {
  template <class T>
  operator T&() const;
};
template <std::size_t>
using any_argument_at = any_argument;

// The signature of meta() / of the impl() overload for backend K, deduced
// through the overload set: found when exactly one non-template function fits
// (another backend's overload has another first parameter).
struct not_deducible {};
template <class R, class... P>
std::type_identity<R(P...)> meta_shape(R (*)(P...));
template <DispatchKey K, class R, class... P>
std::type_identity<R(backend_tag<K>, P...)> impl_shape(R (*)(backend_tag<K>, P...));

template <class Family, class Args = schema::arg_types_t<typename Family::functional>>
struct signatures;
template <class Family, class... A>
struct signatures<Family, mp::mp_list<A...>> {
  using meta_signature = TensorMeta(A...);
  template <DispatchKey K>
  using impl_signature = void(backend_tag<K>, A..., Tensor&);

  // Exactly these signatures, as register_kernel wants a kernel's: the
  // address of meta / impl converts to a pointer of that type (which selects
  // the backend's overload, or deduces a template's parameters). (Passed as an
  // argument rather than static_cast: nvcc 12 rejects the cast here.)
  static void takes_meta(meta_signature*);
  template <DispatchKey K>
  static void takes_impl(impl_signature<K>*);
  static constexpr bool meta_ok = requires { takes_meta(&Family::meta); };
  template <DispatchKey K>
  static constexpr bool impl_ok = requires { takes_impl<K>(&Family::impl); };

  template <DispatchKey K>
  static constexpr bool impl_deducible = requires { impl_shape<K>(&Family::impl); };
  template <DispatchKey K, std::size_t... I>
  static constexpr bool impl_callable_with(std::index_sequence<I...>) {
    return requires { Family::impl(backend_tag<K>{}, any_argument_at<I>{}...); };
  }
  template <DispatchKey K, std::size_t... N>
  static constexpr bool impl_callable_with_any_arity(std::index_sequence<N...>) {
    return (impl_callable_with<K>(std::make_index_sequence<N>{}) || ...);
  }
  // Is there an impl() for K at all, whatever its parameters (a missing or an
  // extra one included)? Then it must be exact.
  template <DispatchKey K>
  static constexpr bool impl_declared =
      impl_ok<K> || impl_deducible<K> ||
      impl_callable_with_any_arity<K>(std::make_index_sequence<sizeof...(A) + 5>{});

  // What meta() / the impl() for K is, for the diagnostics.
  static auto found_meta() {
    if constexpr (requires { meta_shape(&Family::meta); })
      return decltype(meta_shape(&Family::meta)){};
    else
      return std::type_identity<not_deducible>{};
  }
  template <DispatchKey K>
  static auto found_impl() {
    if constexpr (impl_deducible<K>)
      return decltype(impl_shape<K>(&Family::impl)){};
    else
      return std::type_identity<not_deducible>{};
  }
  using meta_found = typename decltype(found_meta())::type;
  template <DispatchKey K>
  using impl_found = typename decltype(found_impl<K>())::type;
};

template <class Family>
struct family_checks {
  using sig = signatures<Family>;
  static constexpr bool meta_ok = sig::meta_ok;

  template <class Key>
  using impl_ok_q = std::bool_constant<sig::template impl_ok<Key::value>>;
  template <class Key>
  using impl_bad_q = std::bool_constant<sig::template impl_declared<Key::value> && !sig::template impl_ok<Key::value>>;
  using impl_keys = mp::mp_filter<impl_ok_q, structured_backend_keys>;
  using bad_impl_keys = mp::mp_filter<impl_bad_q, structured_backend_keys>;

  // meta() and every impl() overload fit the functional schema.
  static constexpr bool ok = meta_ok && mp::mp_size<bad_impl_keys>::value == 0;
  static constexpr bool has_impl = mp::mp_size<impl_keys>::value != 0;

};

// ---- the kernels of one backend ---------------------------------------------

// Noop: the Meta kernels derived from meta() alone (nothing to compute).
template <class Family, DispatchKey K, bool Noop, class Args = schema::arg_types_t<typename Family::functional>>
struct structured_kernels;
template <class Family, DispatchKey K, bool Noop, class... A>
struct structured_kernels<Family, K, Noop, mp::mp_list<A...>> {
  using F = typename Family::functional;
  using O = typename Family::out;

  static TensorMeta run_meta(std::string_view op, const A&... a) {
    TensorMeta m = Family::meta(a...);
    check_memory_format(op, m.memory_format);
    return m;
  }
  static void run_impl(A... a, Tensor& out) {
    if constexpr (!Noop) Family::impl(backend_tag<K>{}, a..., out);
  }
  static bool fits(const Tensor& t, const TensorMeta& m) { return fits_meta(t, m); }

  // A closure's run_impl for write_back.hpp's shared slow paths (null for
  // a Meta kernel, which computes nothing): the only per-family code there.
  template <class Closure>
  static void run_closure(const void* closure, Tensor& into) {
    (*static_cast<const Closure*>(closure))(into);
  }
  template <class Closure>
  static constexpr RunImplFn runner() {
    if constexpr (Noop) return nullptr;
    else return &run_closure<Closure>;
  }

  // The kernels (always_inline: into the dispatcher's boxed and unboxed entry
  // points; the uncommon paths stay out of line).
  [[gnu::always_inline]] static Tensor functional(A... a) {
    constexpr std::string_view op = op_name<F>();
    const Device device = check_devices<K>(op, a...);
    const TensorMeta m = run_meta(op, a...);
    Tensor out = empty_of_meta(m, device);
    run_impl(a..., out);
    return out;
  }

  [[gnu::always_inline]] static Tensor& out(A... a, Tensor& result) {
    constexpr std::string_view op = op_name<O>();
    const Device device = check_devices<K>(op, a...);
    const TensorMeta m = run_meta(op, a...);
    check_out_device(op, device, result);
    if (fits(result, m)) [[likely]] {  // write_back.hpp's checks would all pass
      run_impl(a..., result);
      return result;
    }
    // Not as it is: write_back.hpp's checks, resize and copy, shared.
    const auto run = [&](Tensor& into) { run_impl(a..., into); };
    write_out_checked(op, m, result, K, runner<decltype(run)>(), &run);
    return result;
  }
};

template <class Family, DispatchKey K, bool Noop, class IArgs = schema::arg_types_t<typename Family::inplace>>
struct structured_inplace_kernel;
template <class Family, DispatchKey K, bool Noop, class... R>
struct structured_inplace_kernel<Family, K, Noop, mp::mp_list<Tensor&, R...>> {
  using base = structured_kernels<Family, K, Noop>;

  [[gnu::always_inline]] static Tensor& inplace(Tensor& self, R... r) {
    constexpr std::string_view op = op_name<typename Family::inplace>();
    check_devices<K>(op, std::as_const(self), r...);
    const TensorMeta m = base::run_meta(op, self, r...);
    if (base::fits(self, m)) [[likely]] {  // write_back.hpp's checks would all pass
      base::run_impl(self, r..., self);
      return self;
    }
    // Not as it is: write_back.hpp's checks and copy, shared.
    const auto run = [&](Tensor& into) { base::run_impl(self, r..., into); };
    write_inplace_checked(op, m, self, K, base::template runner<decltype(run)>(), &run);
    return self;
  }
};

// Registers the family's kernels at K for each variant without one there yet.
template <class Family, DispatchKey K, bool Noop>
void register_backend(RegistrationSet& set) {
  using kernels = structured_kernels<Family, K, Noop>;
  using F = typename Family::functional;
  using O = typename Family::out;
  const source_location where = source_location::current();
  auto add = [&](OperatorEntry& e, const KernelFunction& k) {
    register_if_missing(set, e, K, k, where);
  };
  add(entry_for<F>(), make_kernel<F, &kernels::functional>());
  if constexpr (Family::has_inplace) {
    using I = typename Family::inplace;
    add(entry_for<I>(), make_kernel<I, &structured_inplace_kernel<Family, K, Noop>::inplace>());
  }
  add(entry_for<O>(), make_kernel<O, &kernels::out>());
}

// The family's meta(), as a derive_missing_variants spec.
template <class Family, class Args = schema::arg_types_t<typename Family::functional>>
struct meta_spec;
template <class Family, class... A>
struct meta_spec<Family, mp::mp_list<A...>> {
  TensorMeta operator()(const A&... a) const { return Family::meta(a...); }
};

// Does Family fit: a structured family whose meta() and impl() overloads
// take its functional schema's arguments (and, NeedImpl, has an impl()).
template <class Family, bool NeedImpl>
constexpr bool family_fits() {
  if constexpr (!family<Family>) {
    return false;
  } else {
    using checks = family_checks<Family>;
    return checks::ok && (!NeedImpl || checks::has_impl);
  }
}

// When it does not, the static_asserts of the diagnostics say why. (Kept
// apart from family_fits, which must stay a constant for if constexpr.)
template <class Family, bool NeedImpl>
void diagnose_family() {
  static_assert(family<Family>,
                "opd: expected a structured operator family, a struct derived from opd::structured<\"...\">");
  if constexpr (family<Family>) {
    using checks = family_checks<Family>;
    using sig = typename checks::sig;
    if constexpr (!checks::meta_ok)
      (void)sizeof(structured_meta_signature_mismatch<Family, typename sig::meta_signature, typename sig::meta_found>);
    if constexpr (mp::mp_size<typename checks::bad_impl_keys>::value != 0) {
      mp::mp_for_each<typename checks::bad_impl_keys>([](auto key) {  // one error per backend
        constexpr DispatchKey k = decltype(key)::value;
        (void)sizeof(structured_impl_signature_mismatch<Family, k, typename sig::template impl_signature<k>,
                                                        typename sig::template impl_found<k>>);
      });
    } else if constexpr (NeedImpl && !checks::has_impl) {
      (void)sizeof(structured_family_has_no_impl<Family, typename sig::template impl_signature<DispatchKey::CPU>>);
    }
  }
}

}  // namespace structured_detail

// Registers the Meta kernels of a family, derived from meta() alone: outputs
// on the Meta device with meta()'s sizes and dtype, in-place / out= checks,
// no data. Skipped where a Meta kernel is registered already.
template <class Family>
RegistrationSet register_structured_meta() {
  RegistrationSet set;
  structured_detail::diagnose_family<Family, false>();
  if constexpr (structured_detail::family_fits<Family, false>()) {
    structured_detail::ensure_builtin_copy_kernels();
    structured_detail::register_backend<Family, DispatchKey::Meta, true>(set);
  }
  return set;
}

// Registers the functional, in-place and out= kernels of a structured family
// for every backend with an impl() overload, and the Meta kernels derived from
// meta() (when there is no impl() for Meta). A variant that already has a
// kernel at a backend keeps it.
template <class Family>
RegistrationSet register_structured() {
  RegistrationSet set;
  structured_detail::diagnose_family<Family, true>();
  if constexpr (structured_detail::family_fits<Family, true>()) {
    using checks = structured_detail::family_checks<Family>;
    structured_detail::ensure_builtin_copy_kernels();
    boost::mp11::mp_for_each<typename checks::impl_keys>([&](auto key) {
      structured_detail::register_backend<Family, decltype(key)::value, false>(set);
    });
    if constexpr (!boost::mp11::mp_contains<typename checks::impl_keys, dispatch_key_constant<DispatchKey::Meta>>::value)
      structured_detail::register_backend<Family, DispatchKey::Meta, true>(set);
  }
  return set;
}

// A backend that computes the family functionally only: registers `kernel`
// as its functional kernel at `key` and derives in-place and out= from it.
template <class Family, class Kernel>
RegistrationSet register_functional_only(DispatchKey key, Kernel&& kernel) {
  RegistrationSet set;
  structured_detail::diagnose_family<Family, false>();
  if constexpr (structured_detail::family_fits<Family, false>()) {
    set.add(register_kernel<typename Family::functional>(key, std::forward<Kernel>(kernel)));
    structured_detail::derive_into<typename Family::functional, structured_detail::inplace_or_void<Family>,
                                   typename Family::out>(set, key, structured_detail::meta_spec<Family>{});
  }
  return set;
}

// A backend with an out= kernel only: registers it at `key` and derives the
// functional (output sized by meta()) and in-place kernels from it.
template <class Family, class Kernel>
RegistrationSet register_out_only(DispatchKey key, Kernel&& kernel) {
  RegistrationSet set;
  structured_detail::diagnose_family<Family, false>();
  if constexpr (structured_detail::family_fits<Family, false>()) {
    set.add(register_kernel<typename Family::out>(key, std::forward<Kernel>(kernel)));
    structured_detail::derive_into<typename Family::functional, structured_detail::inplace_or_void<Family>,
                                   typename Family::out>(set, key, structured_detail::meta_spec<Family>{});
  }
  return set;
}

}  // namespace opd
