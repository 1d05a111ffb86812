// libopdispatch: the vectorized fill row, compiled once per instruction set
// (Highway dynamic dispatch).
#include "kernels/cpu/fill_simd-inl.hpp"
