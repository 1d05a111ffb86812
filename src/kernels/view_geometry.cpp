// libopdispatch: the geometry of views (kernels/views/geometry.hpp), shared by
// the view kernels and functionalization's view table.
#include "kernels/views/geometry-inl.hpp"
