#pragma once
// The registration step every derived kernel of a structured family shares:
// register a kernel for a variant at a backend unless that variant has one
// there already. Out of line, so that a file registering N families
// compiles the check, the Dispatcher call and the handle's bookkeeping once,
// not 3 x N times per backend.
#include "dispatch/config.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/dispatcher/registration_handle.hpp"
#include "dispatch/dispatcher/source_location.hpp"
#include "dispatch/keys/dispatch_key.hpp"

namespace opd::structured_detail {

// Registers `kernel` (make_kernel<Op, Fn>()'s: a function known at compile
// time) unless e has a kernel at `key`.
OPD_API void register_if_missing(RegistrationSet& set, OperatorEntry& e, DispatchKey key, const KernelFunction& kernel,
                                 const source_location& where);

}  // namespace opd::structured_detail

#ifdef OPD_HEADER_ONLY
#include "structured/registration-inl.hpp"
#endif
