// libopdispatch: opd::kernels::register_cpu(), which instantiates every
// structured family's derived kernels (functional, in-place, out=, Meta).
#include "kernels/ops-inl.hpp"
