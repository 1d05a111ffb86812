// libopdispatch: the loops of lerp, addcmul and addcdiv.
#include "kernels/cpu/ternary_math_loops-inl.hpp"
