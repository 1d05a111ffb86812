// libopdispatch: scatter_reduce.two (kernels/cpu/scatter_reduce.hpp) and
// opd::kernels::register_core_aten() (kernels/ops_core_aten.hpp), in one source.
#include "kernels/cpu/scatter_reduce-inl.hpp"
#include "kernels/ops_core_aten-inl.hpp"
