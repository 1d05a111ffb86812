// libopdispatch: max_pool2d_with_indices and its backward (kernels/cpu/pooling.hpp).
#include "kernels/cpu/pooling-inl.hpp"
