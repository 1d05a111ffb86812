// libopdispatch: nearest and bilinear upsampling (kernels/cpu/upsample.hpp) and
// opd::kernels::register_upsample() (kernels/ops_upsample.hpp), in one source.
#include "kernels/cpu/upsample-inl.hpp"
#include "kernels/ops_upsample-inl.hpp"
