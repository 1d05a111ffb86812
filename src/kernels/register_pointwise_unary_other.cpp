// libopdispatch: the registration of the other unary operators (neg ...
// nan_to_num, relu, isnan, softplus) (one of register_pointwise()'s groups:
// each instantiates its operators' derived kernels, which take seconds to
// compile).
#include "kernels/ops_pointwise_unary_other-inl.hpp"
