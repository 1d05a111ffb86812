#pragma once
// Several registrations made in one statement, owned by one RegistrationSet,
// as c10's RegisterOperators().op(...).op(...):
//
//   opd::RegistrationSet set = opd::registrations()
//       .kernel<my_add, &add_cpu>(opd::DispatchKey::CPU)
//       .kernel<my_add>(opd::DispatchKey::CUDA, functor)
//       .boxed_kernel<my_add>(opd::DispatchKey::Meta, boxed);
//
// One statement is one registration: a second kernel in it for an operator
// and key it already gave a kernel is refused, as c10 refuses it ("Tried to
// register multiple kernels with same dispatch key"; opd::Error naming the
// operator, the key and both places), and the registrations the statement
// had made are undone. Kernels registered by separate statements stack, with
// a warning (docs/dispatcher.md).
#include <string_view>
#include <utility>
#include <vector>

#include "dispatch/dispatcher/registration.hpp"
#include "dispatch/dispatcher/registration_handle.hpp"

namespace opd {

// (Each step [[nodiscard]] too: a statement that drops the chain's result
// unregisters at its end.)
class [[nodiscard("the registrations last as long as the RegistrationSet this converts to")]] Registrations {
 public:
  template <schema::schema_holder Op, auto Fn>
  [[nodiscard("a registration statement whose result is dropped unregisters at its end")]]
  Registrations&& kernel(DispatchKey key, const source_location& where = source_location::current()) && {
    return add(entry_for<Op>(), key, make_kernel<Op, Fn>(), where);
  }
  template <schema::schema_holder Op, class F>
  [[nodiscard("a registration statement whose result is dropped unregisters at its end")]]
  Registrations&& kernel(DispatchKey key, F&& kernel, const source_location& where = source_location::current()) && {
    return add(entry_for<Op>(), key, make_kernel<Op>(std::forward<F>(kernel)), where);
  }
  template <schema::schema_holder Op, class F>
  [[nodiscard("a registration statement whose result is dropped unregisters at its end")]]
  Registrations&& boxed_kernel(DispatchKey key, F&& kernel, const source_location& where = source_location::current()) && {
    return add(entry_for<Op>(), key, make_boxed_kernel(std::forward<F>(kernel)), where);
  }
  // By name: the operator may be declared later (a dangling registration
  // until then, Dispatcher::dangling_registrations()).
  template <class F>
  [[nodiscard("a registration statement whose result is dropped unregisters at its end")]]
  Registrations&& boxed_kernel(std::string_view op_name, DispatchKey key, F&& kernel,
                               const source_location& where = source_location::current()) && {
    return add(Dispatcher::singleton().entry(op_name), key, make_boxed_kernel(std::forward<F>(kernel)), where);
  }
  template <schema::schema_holder Op>
  [[nodiscard("a registration statement whose result is dropped unregisters at its end")]]
  Registrations&& fallthrough(DispatchKey key, const source_location& where = source_location::current()) && {
    return add(entry_for<Op>(), key, KernelFunction::make_fallthrough(), where);
  }

  operator RegistrationSet() && { return std::move(set_); }

 private:
  struct made {
    const OperatorEntry* op;
    DispatchKey key;
    source_location where;
  };
  OPD_API Registrations&& add(OperatorEntry& e, DispatchKey key, KernelFunction kernel, const source_location& where);

  RegistrationSet set_;
  std::vector<made> made_;
};

inline Registrations registrations() { return {}; }

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/dispatcher/registrations-inl.hpp"
#endif
