// libopdispatch: opd::kernels::register_linalg() (kernels/ops_linalg.hpp).
#include "kernels/ops_linalg-inl.hpp"
