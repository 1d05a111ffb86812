// libopdispatch: the fill_ and copy_ kernels.
#include "kernels/cpu/fill_copy-inl.hpp"
