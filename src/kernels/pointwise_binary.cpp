// libopdispatch: the comparison, logical, maximum/minimum, where and clamp loops.
#include "kernels/cpu/binary_pointwise_loops-inl.hpp"
