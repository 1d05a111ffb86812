// libopdispatch: reflection / replication padding (kernels/cpu/padding.hpp) and
// opd::kernels::register_padding() (kernels/ops_padding.hpp), in one source.
#include "kernels/cpu/padding-inl.hpp"
#include "kernels/ops_padding-inl.hpp"
