// The test suite's one translation unit that includes the library's
// derivative formulas (all_formulas.hpp says why).
#include "all_formulas.hpp"

#include "autograd/formulas.hpp"

namespace opd_test {
opd::RegistrationSet register_all_formulas() { return opd::autograd::register_autograd(); }
std::vector<std::string> operators_with_formulas() { return opd::autograd::operators_with_formulas(); }
std::vector<std::string> operators_with_complex_formulas() { return opd::autograd::operators_with_complex_formulas(); }
}  // namespace opd_test
