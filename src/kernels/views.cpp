// libopdispatch: the view operators' kernels and register_views()
// (include/kernels/ops_views.hpp); their geometry is view_geometry.cpp.
#include "kernels/ops_views-inl.hpp"
