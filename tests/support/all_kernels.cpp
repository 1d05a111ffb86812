// The test suite's one translation unit that includes every kernel family
// (all_kernels.hpp says why).
#include "all_kernels.hpp"

#include "kernels/ops.hpp"

namespace opd_test {
opd::RegistrationSet register_all_kernels() { return opd::kernels::register_cpu(); }
}  // namespace opd_test
