// libopdispatch: the loops of lt, le, gt and ge.
#include "kernels/cpu/compare_loops-inl.hpp"
