// libopdispatch: the CPU kernels' shared parts (the elementwise engine's
// non-template entry points, with copy_elements's dtype-pair loops;
// broadcasting, type promotion, memory overlap).
#include "kernels/cpu/broadcast-inl.hpp"
#include "kernels/cpu/elementwise-inl.hpp"
#include "kernels/cpu/overlap-inl.hpp"
#include "kernels/cpu/type_promotion-inl.hpp"
