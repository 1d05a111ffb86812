// libopdispatch: the pointwise families' checks, meta and impl (their loops
// are compiled in pointwise_unary_float.cpp, pointwise_unary_other.cpp and
// pointwise_binary.cpp).
#include "kernels/cpu/pointwise-inl.hpp"
