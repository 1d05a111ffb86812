// libopdispatch: the loops of eq and ne.
#include "kernels/cpu/equality_loops-inl.hpp"
