// libopdispatch: the formulas of the pointwise operators
// (autograd/formulas_pointwise-inl.hpp), compiled apart from the others so
// that the library build compiles the formula groups in parallel.
#include "autograd/formulas_pointwise-inl.hpp"
