// libopdispatch: opd::kernels::register_nn() (kernels/ops_nn.hpp).
#include "kernels/ops_nn-inl.hpp"
