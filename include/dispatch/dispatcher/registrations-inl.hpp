#pragma once
// Out-of-line part of registrations.hpp.
#include "dispatch/dispatcher/registrations.hpp"

namespace opd {

OPD_FUNC Registrations&& Registrations::add(OperatorEntry& e, DispatchKey key, KernelFunction kernel,
                                            const source_location& where) {
  for (const made& m : made_)
    if (m.op == &e && m.key == key)
      // c10's text ("In operator registration: Tried to register multiple
      // kernels with same dispatch key CPU for operator schema ..."), with
      // both places. Throwing destroys the statement's Registrations, which
      // undoes what it had registered.
      detail::throw_concat({"in one registration statement: tried to register multiple kernels with the same "
                            "dispatch key ", to_string(key), " for operator '", e.name(), "' (at ",
                            where_text(m.where), " and ", where_text(where), ")"});
  set_.add(Dispatcher::singleton().register_kernel(e, key, std::move(kernel), where));
  made_.push_back({&e, key, where});
  return std::move(*this);
}

}  // namespace opd
