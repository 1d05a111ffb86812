// libopdispatch: the shape and indexing kernels (kernels/cpu/shape.hpp) but sort/topk.
#include "kernels/cpu/shape-inl.hpp"
