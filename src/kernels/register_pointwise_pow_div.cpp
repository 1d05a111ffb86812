// libopdispatch: the registration of atan2, pow, the divisions, lerp, addcmul and addcdiv (one of
// register_pointwise()'s groups: each instantiates its operators' derived
// kernels, which take seconds to compile).
#include "kernels/ops_pointwise_pow_div-inl.hpp"
