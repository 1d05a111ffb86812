#pragma once
// Every CPU kernel family registered, for tests, without including
// kernels/ops.hpp: header-only, that header brings every family's kernels
// into the file (about 27 s with clang -O0), so the test suite compiles
// register_cpu() once, in all_kernels.cpp, and each test includes only the
// family headers whose operators it names.
#include "dispatch/dispatcher/registration_handle.hpp"

namespace opd_test {
// opd::kernels::register_cpu().
opd::RegistrationSet register_all_kernels();
}  // namespace opd_test
