// libopdispatch: opd::kernels::register_random() (kernels/ops_random.hpp).
#include "kernels/ops_random-inl.hpp"
