// libopdispatch: softmax, log_softmax and layer_norm (normalization.hpp), compiled once.
#include "kernels/cpu/normalization-inl.hpp"
