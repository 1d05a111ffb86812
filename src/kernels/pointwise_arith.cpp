// libopdispatch: the loops of pow, remainder, fmod, atan2, the divisions and the bitwise ops.
#include "kernels/cpu/arith_loops-inl.hpp"
