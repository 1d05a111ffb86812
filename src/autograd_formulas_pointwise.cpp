// libopdispatch: the formulas of the pointwise operators
// (autograd/formulas_pointwise-inl.hpp) and of the pads and upsamplings
// (autograd/formulas_spatial-inl.hpp), compiled apart from the others so that
// the library build compiles the formula groups in parallel (one source for
// both: a source of its own would parse the headers again).
#include "autograd/formulas_pointwise-inl.hpp"
#include "autograd/formulas_spatial-inl.hpp"
