// libopdispatch: the logical and maximum/minimum loops.
#include "kernels/cpu/logical_loops-inl.hpp"
