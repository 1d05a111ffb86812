// libopdispatch: opd::kernels::register_cpu(), every family's registration,
// and its C entry opd_register_builtin_kernels.
#include "kernels/ops-inl.hpp"
#include "kernels/c_register-inl.hpp"
