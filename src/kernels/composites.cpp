// libopdispatch: opd::kernels::register_composites() (kernels/ops_composites.hpp).
#include "kernels/ops_composites-inl.hpp"
