// libopdispatch: the oneDNN adapter for conv2d (kernels/cpu/onednn_conv.hpp).
#include "kernels/cpu/onednn_conv-inl.hpp"
