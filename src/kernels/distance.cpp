// libopdispatch: _cdist_forward and _pdist_forward (kernels/cpu/distance.hpp)
// and opd::kernels::register_distance() (kernels/ops_distance.hpp), in one source.
#include "kernels/cpu/distance-inl.hpp"
#include "kernels/ops_distance-inl.hpp"
