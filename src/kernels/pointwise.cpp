// libopdispatch: the pointwise families' checks, meta and impl (their loops
// are compiled in pointwise_unary_float.cpp, pointwise_unary_other.cpp,
// unary_simd.cpp, pointwise_compare.cpp, pointwise_logical.cpp,
// pointwise_arith.cpp, pointwise_bitwise.cpp and pointwise_ternary.cpp).
#include "kernels/cpu/pointwise-inl.hpp"
