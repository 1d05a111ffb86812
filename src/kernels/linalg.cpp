// libopdispatch: mm, bmm, addmm, baddbmm, dot, mv, outer, matmul, linear
// (kernels/cpu/linalg.hpp), through OpenBLAS's CBLAS.
#include "kernels/cpu/linalg-inl.hpp"
