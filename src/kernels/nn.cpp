// libopdispatch: embedding, dropout, conv2d, max_pool2d, avg_pool2d,
// adaptive_avg_pool2d (kernels/cpu/nn.hpp).
#include "kernels/cpu/nn-inl.hpp"
