// libopdispatch: the vectorized row kernels of the reductions and softmax,
// compiled once per instruction set (Highway dynamic dispatch).
#include "kernels/cpu/reduce_simd-inl.hpp"
