#pragma once
// The library's derivative formulas registered, for tests, without including
// autograd/formulas.hpp: header-only, that header brings every formula's
// derived kernels into the file (about 17 s with clang -O0), so the test
// suite compiles register_autograd() once, in all_formulas.cpp, as it does
// register_cpu() (all_kernels.hpp). Test files include the autograd headers
// they use other than formulas.hpp (autograd.hpp includes it).
#include <string>
#include <vector>

#include "dispatch/dispatcher/registration_handle.hpp"

namespace opd_test {
// opd::autograd::register_autograd().
opd::RegistrationSet register_all_formulas();
// opd::autograd::operators_with_formulas().
std::vector<std::string> operators_with_formulas();
// opd::autograd::operators_with_complex_formulas().
std::vector<std::string> operators_with_complex_formulas();
}  // namespace opd_test
