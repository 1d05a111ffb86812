// libopdispatch: opd::kernels::register_pointwise(), which gathers the
// pointwise operator groups (register_pointwise_<group>.cpp).
#include "kernels/ops_pointwise-inl.hpp"
