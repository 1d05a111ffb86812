// libopdispatch: opd::kernels::register_shape() (kernels/ops_shape.hpp).
#include "kernels/ops_shape-inl.hpp"
