// libopdispatch: the forward and inverse of every view operator
// (include/functionalize/view_inverse.hpp).
#include "functionalize/view_inverse-inl.hpp"
