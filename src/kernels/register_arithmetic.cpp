// libopdispatch: opd::kernels::register_arithmetic(), which instantiates every
// arithmetic structured family's derived kernels (functional, in-place, out=, Meta).
#include "kernels/ops_arithmetic-inl.hpp"
