// libopdispatch: opd::kernels::register_pooling() (kernels/ops_pooling.hpp).
#include "kernels/ops_pooling-inl.hpp"
