// libopdispatch: the vectorized rows of the floating unary ops, compiled once
// per instruction set (Highway dynamic dispatch, Sleef's vector math).
#include "kernels/cpu/unary_simd-inl.hpp"
