// libopdispatch: opd::kernels::register_transformer() (kernels/ops_transformer.hpp).
#include "kernels/ops_transformer-inl.hpp"
