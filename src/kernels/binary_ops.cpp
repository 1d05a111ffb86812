// libopdispatch: add, sub, mul and div's checks, meta and impl (their loops
// are compiled in binary_add_sub.cpp, binary_mul.cpp and binary_div.cpp).
#include "kernels/cpu/binary_ops-inl.hpp"
