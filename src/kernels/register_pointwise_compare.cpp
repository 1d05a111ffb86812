// libopdispatch: the registration of the comparisons (eq, ne, lt, le, gt,
// ge) (one of register_pointwise()'s groups:
// each instantiates its operators' derived kernels, which take seconds to
// compile).
#include "kernels/ops_pointwise_compare-inl.hpp"
