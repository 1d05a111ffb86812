// libopdispatch: the registration of remainder, fmod, the bitwise ops and
// shifts (one of
// register_pointwise()'s groups: each instantiates its operators' derived
// kernels, which take seconds to compile).
#include "kernels/ops_pointwise_arith-inl.hpp"
