// libopdispatch: the loops of pow, remainder, fmod, atan2 and the divisions.
#include "kernels/cpu/arith_loops-inl.hpp"
