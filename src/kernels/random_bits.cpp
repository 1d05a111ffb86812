// libopdispatch: the generator's numbers a block at a time, compiled once per
// instruction set (Highway dynamic dispatch; kernels/cpu/random_bits.hpp).
#include "kernels/cpu/random_bits-inl.hpp"
