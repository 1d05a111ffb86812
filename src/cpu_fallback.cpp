// libopdispatch: the boxed CPU fallback for out-of-tree devices.
#include "fallback/cpu_fallback-inl.hpp"
