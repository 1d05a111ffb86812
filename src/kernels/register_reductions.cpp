// libopdispatch: opd::kernels::register_reductions() (ops_reductions.hpp).
#include "kernels/ops_reductions-inl.hpp"
