// libopdispatch: the vectorized rows of the complex unary ops (conj_physical,
// sgn, angle, abs), compiled once per instruction set (Highway dynamic
// dispatch, Sleef's atan2); -ffp-contract=off (CMakeLists.txt) keeps a*a + b*b
// two roundings, as the scalar loops compute it.
#include "kernels/cpu/complex_simd-inl.hpp"
