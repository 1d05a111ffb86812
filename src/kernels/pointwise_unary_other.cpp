// libopdispatch: the other unary ops' loops (neg, abs, rounding, isnan, ...).
#include "kernels/cpu/unary_other_loops-inl.hpp"
