// libopdispatch: aten::convolution (kernels/cpu/conv.hpp).
#include "kernels/cpu/conv-inl.hpp"
