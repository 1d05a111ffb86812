// libopdispatch: batch normalization (kernels/cpu/batch_norm.hpp).
#include "kernels/cpu/batch_norm-inl.hpp"
