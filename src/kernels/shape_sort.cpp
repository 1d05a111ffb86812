// libopdispatch: sort and topk (kernels/cpu/shape.hpp), apart: the dtype product of the comparison sorts.
#include "kernels/cpu/shape_sort-inl.hpp"
