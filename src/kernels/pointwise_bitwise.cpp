// libopdispatch: the loops of the bitwise ops and shifts.
#include "kernels/cpu/bitwise_loops-inl.hpp"
