// libopdispatch: the other keep-kind unary ops' loops (neg, abs, rounding, nan_to_num, ...).
#include "kernels/cpu/unary_other_loops-inl.hpp"
