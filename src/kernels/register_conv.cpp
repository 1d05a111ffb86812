// libopdispatch: opd::kernels::register_conv() (kernels/ops_conv.hpp).
#include "kernels/ops_conv-inl.hpp"
