// libopdispatch: the reductions (reduce.hpp), compiled once.
#include "kernels/cpu/reduce-inl.hpp"
