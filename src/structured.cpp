// libopdispatch: structured kernels' out-of-line parts (the resize-out
// warning's state, error texts).
#include "structured/out_semantics-inl.hpp"
