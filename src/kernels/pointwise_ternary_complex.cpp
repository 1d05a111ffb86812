// libopdispatch: where's loop for complex64 and complex128.
#include "kernels/cpu/where_complex_loops-inl.hpp"
