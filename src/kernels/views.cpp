// libopdispatch: the view operators' geometry and kernels, and
// register_views() (include/kernels/ops_views.hpp).
#include "kernels/ops_views-inl.hpp"
#include "kernels/views/geometry-inl.hpp"
