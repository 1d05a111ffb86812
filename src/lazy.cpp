// libopdispatch: the lazy tensor backend (lazy tensors, the lazy kernel,
// sync, the graph cache and the CPU plan).
#include "lazy/lazy-inl.hpp"
#include "lazy/cpu_plan-inl.hpp"
