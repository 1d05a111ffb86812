// libopdispatch: the factories (empty, zeros, ones, full).
#include "kernels/cpu/factory-inl.hpp"
