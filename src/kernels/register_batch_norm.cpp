// libopdispatch: opd::kernels::register_batch_norm() (kernels/ops_batch_norm.hpp).
#include "kernels/ops_batch_norm-inl.hpp"
