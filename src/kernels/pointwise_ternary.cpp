// libopdispatch: the loops of where and clamp.
#include "kernels/cpu/ternary_loops-inl.hpp"
