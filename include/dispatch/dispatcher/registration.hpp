#pragma once
// Registering kernels and fallbacks; each call returns a RegistrationHandle
// that undoes exactly that registration when destroyed.
//
//   auto h1 = opd::register_kernel<my_add, &add_cpu>(opd::DispatchKey::CPU);  // a function known at compile time
//   auto h2 = opd::register_kernel<my_add>(opd::DispatchKey::CUDA, lambda);    // any callable, state included
//   auto h3 = opd::register_boxed_kernel<my_add>(opd::DispatchKey::Meta, boxed);
//   auto h4 = opd::register_fallthrough<my_add>(opd::DispatchKey::Tracer);
//   auto h5 = opd::register_fallback(opd::DispatchKey::PrivateUse1, boxed_fallback);
//
// Typed kernels are checked against the schema at compile time. Each
// registration records where it was made (a defaulted source_location):
// duplicate-kernel warnings, strict "already has a kernel" errors and
// Dispatcher::dump_computed_table name it. A second kernel for a key stacks
// on the first (c10's behaviour, docs/dispatcher.md).
#include <string_view>
#include <utility>

#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/dispatcher/infer_schema.hpp"
#include "dispatch/dispatcher/make_kernel.hpp"
#include "dispatch/dispatcher/source_location.hpp"

namespace opd {

template <schema::schema_holder Op, auto Fn>
RegistrationHandle register_kernel(DispatchKey key, const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_kernel(entry_for<Op>(), key, make_kernel<Op, Fn>(), where);
}
template <schema::schema_holder Op, class F>
RegistrationHandle register_kernel(DispatchKey key, F&& kernel, const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_kernel(entry_for<Op>(), key, make_kernel<Op>(std::forward<F>(kernel)), where);
}

// A boxed kernel: any callable void(const OperatorEntry&, DispatchKeySet, Stack*).
template <class F>
KernelFunction make_boxed_kernel(F&& kernel) {
  using Fn = std::decay_t<F>;
  static_assert(std::is_invocable_r_v<void, Fn&, const OperatorEntry&, DispatchKeySet, Stack*>,
                "a boxed kernel is callable as void(const opd::OperatorEntry&, opd::DispatchKeySet, opd::Stack*)");
  using Plain = void (*)(const OperatorEntry&, DispatchKeySet, Stack*);
  if constexpr (std::is_same_v<Fn, Plain> || (std::is_convertible_v<Fn, Plain> && std::is_empty_v<Fn>)) {
    return KernelFunction::make_boxed_pointer(static_cast<Plain>(kernel));
  } else {
    return KernelFunction::make_boxed_functor(std::forward<F>(kernel));
  }
}
template <schema::schema_holder Op, class F>
RegistrationHandle register_boxed_kernel(DispatchKey key, F&& kernel, const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_kernel(entry_for<Op>(), key, make_boxed_kernel(std::forward<F>(kernel)), where);
}
// For an operator declared at run time (opd::Dispatcher::declare) by name.
template <class F>
RegistrationHandle register_boxed_kernel(std::string_view op_name, DispatchKey key, F&& kernel,
                                                       const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_kernel(op_name, key, make_boxed_kernel(std::forward<F>(kernel)), where);
}

// A typed kernel for an operator declared at run time: its signature is
// checked against the declared schema when registered (opd::TypeError if not).
template <class F>
RegistrationHandle register_kernel(std::string_view op_name, DispatchKey key, F&& kernel,
                                                 const source_location& where = source_location::current()) {
  OperatorEntry& e = Dispatcher::singleton().find_schema_or_throw(op_name);
  detail::check_kernel_at_run_time<std::decay_t<F>>(e);
  return Dispatcher::singleton().register_kernel(e, key, make_runtime_kernel(std::forward<F>(kernel)), where);
}

template <schema::schema_holder Op>
RegistrationHandle register_fallthrough(DispatchKey key, const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_kernel(entry_for<Op>(), key, KernelFunction::make_fallthrough(), where);
}

template <class F>
RegistrationHandle register_fallback(DispatchKey key, F&& boxed_kernel, const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_fallback(key, make_boxed_kernel(std::forward<F>(boxed_kernel)), where);
}
inline RegistrationHandle register_fallthrough_fallback(DispatchKey key, const source_location& where = source_location::current()) {
  return Dispatcher::singleton().register_fallback(key, KernelFunction::make_fallthrough(), where);
}

// Declares a schema at run time; the handle removes it again.
inline RegistrationHandle declare(std::string_view schema_text) {
  return Dispatcher::singleton().declare(schema_text);
}

// Declares an operator from a kernel, with the schema inferred from its C++
// signature (c10's m.def("ns::name", fn)), and registers the kernel for every
// backend (CompositeImplicitAutograd, as c10 does). A parameter type without
// a schema type is a compile error. The set undoes both.
//   auto r = opd::def("myops::scale", [](const opd::Tensor& t, double f) { ... });
//   // declares "myops::scale(Tensor _0, float _1) -> Tensor"
template <class F>
RegistrationSet def(std::string_view name, F&& kernel, const source_location& where = source_location::current()) {
  RegistrationSet set;
  set.add(declare(detail::inferred_schema<std::decay_t<F>>(name)));
  set.add(register_kernel(name, DispatchKey::CompositeImplicitAutograd, std::forward<F>(kernel), where));
  return set;
}

}  // namespace opd
