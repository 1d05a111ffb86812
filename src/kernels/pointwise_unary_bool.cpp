// libopdispatch: the bool-kind unary ops' loops (logical_not, isnan, isinf, isfinite).
#include "kernels/cpu/unary_bool_loops-inl.hpp"
