// libopdispatch: the floating unary ops' loops (exp, sin, gelu, ...).
#include "kernels/cpu/unary_float_loops-inl.hpp"
