// libopdispatch: the thread-count settings of kernels/cpu/parallel.hpp.
#include "kernels/cpu/parallel-inl.hpp"
