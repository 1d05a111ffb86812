// libopdispatch: convolution_backward and opd::kernels::register_conv_backward()
// (kernels/ops_conv_backward.hpp).
#include "kernels/ops_conv_backward-inl.hpp"
