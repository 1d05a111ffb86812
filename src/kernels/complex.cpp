// libopdispatch: the complex operators' kernels and register_complex()
// (include/kernels/ops_complex.hpp).
#include "kernels/ops_complex-inl.hpp"
