// libopdispatch: opd::kernels::register_pointwise(), which instantiates the
// pointwise families' derived kernels (functional, in-place, out=, Meta).
#include "kernels/ops_pointwise-inl.hpp"
