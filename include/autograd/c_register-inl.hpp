#pragma once
// opd_register_builtin_formulas (dispatch/c_abi/opd_c.h): the library's
// derivative formulas for callers that write no C++. Compiled into
// libopdispatch with the formulas (src/autograd_formulas.cpp); a header-only
// program that needs it includes this file in exactly one translation unit.
#include <mutex>

#include "autograd/formulas.hpp"
#include "dispatch/c_abi/handles.hpp"
#include "dispatch/c_abi/opd_c.h"

extern "C" OPD_C_API int32_t opd_register_builtin_formulas(void) {
  return opd::c_abi::detail::guarded([]() -> int32_t {
    static std::once_flag once;
    // Kept for the life of the process, as opd_register_builtin_kernels's.
    std::call_once(once, [] { new opd::RegistrationSet(opd::autograd::register_autograd()); });
    return OPD_OK;
  });
}
