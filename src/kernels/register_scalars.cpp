// libopdispatch: opd::kernels::register_scalars() (kernels/ops_scalars.hpp).
#include "kernels/ops_scalars-inl.hpp"
