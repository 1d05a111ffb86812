// libopdispatch: the scatter operators, unfold_backward and sum.dim_IntList
// (include/kernels/ops_scatter.hpp).
#include "kernels/ops_scatter-inl.hpp"
