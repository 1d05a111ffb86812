// libopdispatch: the registration of silu, hardswish, frac, gelu, nan_to_num, relu and softplus (one of
// register_pointwise()'s groups: each instantiates its operators' derived
// kernels, which take seconds to compile).
#include "kernels/ops_pointwise_unary_activation-inl.hpp"
