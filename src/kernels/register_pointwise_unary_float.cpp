// libopdispatch: the registration of the floating unary operators (exp ...
// erfc) (one of register_pointwise()'s groups: each instantiates its operators'
// derived kernels, which take seconds to compile).
#include "kernels/ops_pointwise_unary_float-inl.hpp"
