// libopdispatch: opd::kernels::register_cpu(), every family's registration.
#include "kernels/ops-inl.hpp"
