// libopdispatch: the formulas of Tensor-list operators
// (autograd/formulas_lists-inl.hpp), compiled apart from the others so that
// the library build compiles the formula groups in parallel.
#include "autograd/formulas_lists-inl.hpp"
