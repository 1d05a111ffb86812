// libopdispatch: the registration of the exponentials, logarithms, sqrt,
// rsqrt and reciprocal (one of register_pointwise()'s groups: each
// instantiates its operators' derived kernels, which take seconds to compile).
#include "kernels/ops_pointwise_unary_float-inl.hpp"
