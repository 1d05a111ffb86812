// libopdispatch: the registration of the logical ops, where, clamp, maximum/minimum and masked_fill (one of
// register_pointwise()'s groups: each instantiates its operators' derived
// kernels, which take seconds to compile).
#include "kernels/ops_pointwise_select-inl.hpp"
