// libopdispatch: the formulas of reductions and shape operators
// (autograd/formulas_reductions-inl.hpp), compiled apart from the others so
// that the library build compiles the formula groups in parallel.
#include "autograd/formulas_reductions-inl.hpp"
