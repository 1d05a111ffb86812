// libopdispatch: the comparison, logical and maximum/minimum loops.
#include "kernels/cpu/compare_loops-inl.hpp"
