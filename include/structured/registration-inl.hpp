#pragma once
// Out-of-line part of registration.hpp (compiled in src/structured.cpp).

#include "dispatch/dispatcher/operator_entry.hpp"
#include "structured/registration.hpp"

namespace opd::structured_detail {

// (noinline: header-only, g++ -O2 inlined it into each of its call sites,
// three per family and backend.)
[[gnu::noinline]] OPD_FUNC void register_if_missing(RegistrationSet& set, OperatorEntry& e, DispatchKey key,
                                                    const KernelFunction& kernel, const source_location& where) {
  if (e.has_kernel_for(key)) return;
  set.add(Dispatcher::singleton().register_kernel(e, key, kernel, where));
}

}  // namespace opd::structured_detail
