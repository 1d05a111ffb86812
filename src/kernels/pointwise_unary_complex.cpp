// libopdispatch: the unary ops' loops for complex64 and complex128 (neg, abs, exp, log, sqrt, sin, ...).
#include "kernels/cpu/unary_complex_loops-inl.hpp"
