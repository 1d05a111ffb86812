// libopdispatch: the comparison loops.
#include "kernels/cpu/compare_loops-inl.hpp"
