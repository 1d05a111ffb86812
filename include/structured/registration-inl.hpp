#pragma once
// Out-of-line part of registration.hpp (compiled in src/structured.cpp).
#include "dispatch/dispatcher/operator_entry.hpp"
#include "structured/registration.hpp"

namespace opd::structured_detail {

OPD_FUNC void register_if_missing(RegistrationSet& set, OperatorEntry& e, DispatchKey key, MakeKernelFn make,
                                  const source_location& where) {
  if (!e.has_kernel_for(key)) set.add(Dispatcher::singleton().register_kernel(e, key, make(), where));
}

}  // namespace opd::structured_detail
