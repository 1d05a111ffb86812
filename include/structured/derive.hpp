#pragma once
// Kernels a backend did not write, derived from the ones it did, for one
// operator family (functional, in-place, out=) at one backend key:
//
//   functional only   in-place: compute functionally, check the result fits
//                     self, copy it into self; out=: compute functionally,
//                     resize out (warning if it had elements), copy into out.
//   out= only         functional: allocate an output, call out=; in-place:
//                     call out= into a fresh tensor, check it fits self, copy.
//
//   opd::derive_missing_variants<Functional, Inplace, Out>(key)        any family (Inplace may be void)
//   opd::derive_missing_variants<Functional, Inplace, Out>(key, spec)  spec(functional args...) -> TensorMeta:
//                                                                      the result's metadata, checked before
//                                                                      computing and used to size outputs
//   opd::register_functional_only<Family>(key, kernel)   a structured family: register + derive
//   opd::register_out_only<Family>(key, kernel)
//
// Each returns a RegistrationSet owning what it registered. Only the variants
// with no kernel registered directly at `key` are derived, so a kernel the
// backend provides itself always wins; register those first (one registered
// later overrides the derived one with the dispatcher's duplicate-kernel
// warning: kernels stack per key). The derived kernels call the backend's own kernels at
// `key` (redispatch on {key}), and copy with structured_detail::copy_into.
//
// Without a spec, functional-from-out= allocates a 0-element output of the
// tensor arguments' promoted dtype on their device, and out= resizes it.
#include <array>
#include <cstddef>
#include <optional>
#include <span>
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
#include "dispatch/schema/cpp_types.hpp"
#include "dispatch/schema/printer.hpp"
#include "structured/copy.hpp"
#include "structured/out_semantics.hpp"
#include "structured/tensor_meta.hpp"

namespace opd {

// The spec argument meaning "none": outputs are inferred from the inputs.
struct no_output_spec {};

namespace structured_detail {

namespace mp = boost::mp11;

// "ns::name.overload" of Op (schema::write_operator_name), a compile-time constant: the
// kernels pass it to every check and it is read only to build an error.
template <class Op>
struct op_name_chars {
  static constexpr const auto& s = Op::schema;
  static constexpr std::size_t size = schema::operator_name_size(s.ns, s.name, s.overload);
  static constexpr std::array<char, size + 1> chars = [] {
    std::array<char, size + 1> out{};
    schema::write_operator_name(s.ns, s.name, s.overload, out.data());
    return out;
  }();
};
template <class Op>
constexpr std::string_view op_name() noexcept {
  return std::string_view(op_name_chars<Op>::chars.data(), op_name_chars<Op>::size);
}

// ---- the tensors among a kernel's arguments: for_each_tensor (dispatch/dispatcher/tensor_args.hpp)

// Where outputs go on backend `key`: the first tensor argument on the
// backend's device type, else that device type.
template <class... A>
Device output_device(DispatchKey key, const A&... a) {
  const DeviceType type = device_type_for(key);
  std::optional<Device> found;
  auto visit = [&](const Tensor& t) {
    if (!found && t.device().type() == type) found = t.device();
  };
  (for_each_tensor(visit, a), ...);
  return found ? *found : Device(type);
}

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_not_on_device(std::string_view op, DeviceType type,
                                                                     Device found) {
  throw Error(std::string(op) + ": Expected all tensors to be on the same device, but found at least two devices, " +
              std::string(to_string(type)) + " and " + found.str() + "!");
}

// The visitor of check_devices: every tensor on the device type, the first one's device kept.
template <DeviceType Type>
struct device_check {
  std::string_view op;
  Device first{Type};
  bool found = false;
  [[gnu::always_inline]] void operator()(const Tensor& t) {  // t is defined (for_each_tensor)
    const Device d = t.impl_ptr()->device();
    if (d.type() != Type) [[unlikely]]
      throw_not_on_device(op, Type, d);
    if (!found) {
      first = d;
      found = true;
    }
  }
};

// Every tensor argument must be on the backend's device type (the kernel
// reads their memory as that device's). Returns output_device(Key, a...),
// found on the same walk: the first tensor argument's device, else the
// device type's. (Inlined: a structured kernel runs it on every call.)
template <DispatchKey Key, class... A>
[[gnu::always_inline]] inline Device check_devices(std::string_view op, const A&... a) {
  device_check<device_type_for(Key)> check{op};
  (for_each_tensor(check, a), ...);
  return check.first;
}

// The promoted dtype of the tensor arguments (Float when there are none).
template <class... A>
ScalarType promoted_dtype(const A&... a) {
  std::optional<ScalarType> d;
  auto visit = [&](const Tensor& t) { d = d ? promote_types(*d, t.dtype()) : t.dtype(); };
  (for_each_tensor(visit, a), ...);
  return d ? *d : ScalarType::Float;
}

inline DispatchKeySet backend_keys(DispatchKey key) { return DispatchKeySet(key); }

// The output a functional-from-out= kernel hands to out=.
template <class Spec, class... A>
Tensor allocate_output(std::string_view op, DispatchKey key, const Spec& spec, const A&... a) {
  const Device device = output_device(key, a...);
  if constexpr (std::is_same_v<Spec, no_output_spec>) {
    return empty(std::vector<int64_t>{0}, promoted_dtype(a...), device);
  } else {
    const TensorMeta m = spec(a...);
    check_memory_format(op, m.memory_format);
    return empty_of_meta(m, device);
  }
}

// ---- out= and in-place from the functional kernel --------------------------
// (With a spec, the result's metadata is checked against self / out before
// anything is computed.)
template <class F, class O, class Spec, class FArgs = schema::arg_types_t<F>>
struct out_from_functional;
template <class F, class O, class Spec, class... A>
struct out_from_functional<F, O, Spec, mp::mp_list<A...>> {
  static auto make(DispatchKey key, Spec spec) {
    return [key, spec](A... a, Tensor& out) -> Tensor& {
      (void)spec;  // (unused without a spec)
      const std::string_view op = op_name<O>();
      if constexpr (!std::is_same_v<Spec, no_output_spec>) {
        check_out_device(op, output_device(key, a...), out);
        check_castable(op, spec(a...).dtype, out.dtype());
      }
      Tensor result = redispatch<F>(backend_keys(key), a...);
      check_out_device(op, result.device(), out);
      check_castable(op, result.dtype(), out.dtype());
      resize_out(op, out, result.sizes(), MemoryFormat::Contiguous);
      copy_into(out, result, key);
      return out;
    };
  }
};

template <class F, class I, class Spec, class IArgs = schema::arg_types_t<I>>
struct inplace_from_functional;
template <class F, class I, class Spec, class... R>
struct inplace_from_functional<F, I, Spec, mp::mp_list<Tensor&, R...>> {
  static auto make(DispatchKey key, Spec spec) {
    return [key, spec](Tensor& self, R... r) -> Tensor& {
      (void)spec;  // (unused without a spec)
      const std::string_view op = op_name<I>();
      if constexpr (!std::is_same_v<Spec, no_output_spec>) {
        const TensorMeta m = spec(std::as_const(self), r...);
        check_inplace(op, m.sizes, m.dtype, self);
      }
      Tensor result = redispatch<F>(backend_keys(key), self, r...);
      check_inplace(op, result.sizes(), result.dtype(), self);
      copy_into(self, result, key);
      return self;
    };
  }
};

// ---- functional and in-place from the out= kernel --------------------------
template <class F, class O, class Spec, class FArgs = schema::arg_types_t<F>>
struct functional_from_out;
template <class F, class O, class Spec, class... A>
struct functional_from_out<F, O, Spec, mp::mp_list<A...>> {
  static auto make(DispatchKey key, Spec spec) {
    return [key, spec](A... a) -> Tensor {
      Tensor out = allocate_output(op_name<F>(), key, spec, a...);
      redispatch<O>(backend_keys(key), a..., out);
      return out;
    };
  }
};

template <class I, class O, class Spec, class IArgs = schema::arg_types_t<I>>
struct inplace_from_out;
template <class I, class O, class Spec, class... R>
struct inplace_from_out<I, O, Spec, mp::mp_list<Tensor&, R...>> {
  static auto make(DispatchKey key, Spec spec) {
    return [key, spec](Tensor& self, R... r) -> Tensor& {
      const std::string_view op = op_name<I>();
      if constexpr (!std::is_same_v<Spec, no_output_spec>) {  // refuse before computing
        const TensorMeta m = spec(std::as_const(self), r...);
        check_inplace(op, m.sizes, m.dtype, self);
      }
      Tensor result = allocate_output(op, key, spec, std::as_const(self), r...);
      redispatch<O>(backend_keys(key), std::as_const(self), r..., result);
      check_inplace(op, result.sizes(), result.dtype(), self);
      copy_into(self, result, key);
      return self;
    };
  }
};

// ---- the family's types fit together ----------------------------------------
template <class F, class I, class O>
constexpr void check_family_types() {
  using FArgs = schema::arg_types_t<F>;
  static_assert(std::is_same_v<schema::return_type_t<F>, Tensor>,
                "opd::derive_missing_variants: the functional operator must return one Tensor");
  static_assert(std::is_same_v<schema::arg_types_t<O>, mp::mp_push_back<FArgs, Tensor&>>,
                "opd::derive_missing_variants: the out= operator must take the functional operator's arguments "
                "followed by one Tensor(a!) out");
  static_assert(std::is_same_v<schema::return_type_t<O>, Tensor&>,
                "opd::derive_missing_variants: the out= operator must return its out argument (-> Tensor(a!))");
  if constexpr (!std::is_void_v<I>) {
    static_assert(mp::mp_size<FArgs>::value >= 1 && std::is_same_v<mp::mp_front<FArgs>, const Tensor&>,
                  "opd::derive_missing_variants: with an in-place operator, the functional operator's first "
                  "argument must be Tensor self");
    static_assert(std::is_same_v<schema::arg_types_t<I>, mp::mp_replace_front<FArgs, Tensor&>>,
                  "opd::derive_missing_variants: the in-place operator must take the functional operator's "
                  "arguments with the first one written to (Tensor(a!) self)");
    static_assert(std::is_same_v<schema::return_type_t<I>, Tensor&>,
                  "opd::derive_missing_variants: the in-place operator must return self (-> Tensor(a!))");
  }
}

template <class F, class I, class O, class Spec>
void derive_into(RegistrationSet& set, DispatchKey key, Spec spec) {
  check_family_types<F, I, O>();
  OPD_CHECK(is_backend_key(key), "derive_missing_variants: ", to_string(key),
            " is not a backend key (CPU, CUDA, Meta, PrivateUse1..3)");
  ensure_builtin_copy_kernels();
  const bool has_f = entry_for<F>().has_kernel_for(key);
  const bool has_o = entry_for<O>().has_kernel_for(key);
  bool has_i = true;
  if constexpr (!std::is_void_v<I>) has_i = entry_for<I>().has_kernel_for(key);
  if (has_f) {
    if (!has_o) set.add(register_kernel<O>(key, out_from_functional<F, O, Spec>::make(key, spec)));
    if constexpr (!std::is_void_v<I>)
      if (!has_i) set.add(register_kernel<I>(key, inplace_from_functional<F, I, Spec>::make(key, spec)));
  } else if (has_o) {
    set.add(register_kernel<F>(key, functional_from_out<F, O, Spec>::make(key, spec)));
    if constexpr (!std::is_void_v<I>)
      if (!has_i) set.add(register_kernel<I>(key, inplace_from_out<I, O, Spec>::make(key, spec)));
  } else {
    throw Error("derive_missing_variants: " + std::string(op_name<F>()) +
                " has neither a functional nor an out= kernel (" + std::string(op_name<O>()) + ") for dispatch key " +
                std::string(to_string(key)) + " to derive the others from");
  }
}

}  // namespace structured_detail

// Derives, at backend `key`, the variants of the family (Functional, Inplace,
// Out) that have no kernel there, from the functional kernel if there is
// one, else from the out= kernel. Inplace may be void (no in-place variant).
// Throws opd::Error when `key` has neither a functional nor an out= kernel.
template <schema::schema_holder Functional, class Inplace, schema::schema_holder Out>
RegistrationSet derive_missing_variants(DispatchKey key) {
  RegistrationSet set;
  structured_detail::derive_into<Functional, Inplace, Out>(set, key, no_output_spec{});
  return set;
}
// The same; spec(functional args...) -> TensorMeta gives the output that a
// functional or in-place kernel derived from out= allocates.
template <schema::schema_holder Functional, class Inplace, schema::schema_holder Out, class Spec>
RegistrationSet derive_missing_variants(DispatchKey key, Spec spec) {
  RegistrationSet set;
  structured_detail::derive_into<Functional, Inplace, Out>(set, key, std::move(spec));
  return set;
}

}  // namespace opd
