// libopdispatch: the 3-D pools and col2im (kernels/cpu/pooling3d.hpp) and
// opd::kernels::register_pooling3d() (kernels/ops_pooling3d.hpp), in one source.
#include "kernels/cpu/pooling3d-inl.hpp"
#include "kernels/ops_pooling3d-inl.hpp"
