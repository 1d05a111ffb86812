// libopdispatch: the vectorized rows of remainder, fmod, atan2 and the
// rounding divisions, compiled once per instruction set (Highway dynamic
// dispatch, Sleef's vector fmod and atan2).
#include "kernels/cpu/arith_simd-inl.hpp"
