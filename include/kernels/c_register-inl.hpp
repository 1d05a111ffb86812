#pragma once
// opd_register_builtin_kernels (dispatch/c_abi/opd_c.h): the built-in CPU
// kernels for callers that write no C++. Compiled into libopdispatch with the
// kernels (src/kernels/register_cpu.cpp); a header-only program that needs it
// includes this file in exactly one translation unit.
#include <mutex>

#include "dispatch/c_abi/opd_c.h"
#include "dispatch/c_abi/handles.hpp"
#include "kernels/ops.hpp"

extern "C" OPD_C_API int32_t opd_register_builtin_kernels(void) {
  try {
    static std::once_flag once;
    std::call_once(once, [] {
      // Kept for the life of the process (never destroyed: a kernel may be
      // called from another static destructor at exit).
      new opd::RegistrationSet(opd::kernels::register_cpu());
    });
    return OPD_OK;
  } catch (...) {
    return opd::c_abi::status_from_current_exception();
  }
}
