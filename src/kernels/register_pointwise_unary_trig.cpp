// libopdispatch: the registration of the trigonometric and hyperbolic unary operators, sigmoid, erf and erfc (one of
// register_pointwise()'s groups: each instantiates its operators' derived
// kernels, which take seconds to compile).
#include "kernels/ops_pointwise_unary_trig-inl.hpp"
