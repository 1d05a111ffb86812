// libopdispatch: the registration of the other unary operators (neg, abs,
// sign, rounding, bitwise_not, logical_not, isnan, isinf, isfinite) (one of register_pointwise()'s groups:
// each instantiates its operators' derived kernels, which take seconds to
// compile).
#include "kernels/ops_pointwise_unary_other-inl.hpp"
