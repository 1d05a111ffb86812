// libopdispatch: the loops of where, clamp, lerp, addcmul and addcdiv.
#include "kernels/cpu/ternary_loops-inl.hpp"
