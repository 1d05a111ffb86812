// libopdispatch: the pointwise families' checks, meta and impl (their loops
// are compiled in the other pointwise_*.cpp sources, one per op group, and
// unary_simd.cpp).
#include "kernels/cpu/pointwise-inl.hpp"
