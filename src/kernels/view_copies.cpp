// libopdispatch: the *_copy operators' default kernel and
// register_view_copies() (include/kernels/ops_view_copies.hpp).
#include "kernels/ops_view_copies-inl.hpp"
