#pragma once
// The dispatcher: operators, kernels per dispatch key, typed and boxed calls.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include "dispatch/dispatcher/boxing.hpp"
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/dispatcher/kernel_function.hpp"
#include "dispatch/dispatcher/make_kernel.hpp"
#include "dispatch/dispatcher/operator_entry.hpp"
#include "dispatch/dispatcher/registration.hpp"
#include "dispatch/dispatcher/registration_handle.hpp"
#include "dispatch/dispatcher/registrations.hpp"
#include "dispatch/op.hpp"
