// libopdispatch: grid_sampler_2d (kernels/cpu/grid_sampler.hpp) and
// opd::kernels::register_grid_sampler() (kernels/ops_grid_sampler.hpp), in one source.
#include "kernels/cpu/grid_sampler-inl.hpp"
#include "kernels/ops_grid_sampler-inl.hpp"
