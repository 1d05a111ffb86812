// libopdispatch: the loops of pow, the logical ops, lerp, addcmul and addcdiv
// on complex64 and complex128.
#include "kernels/cpu/complex_math_loops-inl.hpp"
