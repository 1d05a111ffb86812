// libopdispatch: the formulas of reductions and shape operators
// (autograd/formulas_reductions-inl.hpp) and of the Tensor-list operators
// (autograd/formulas_lists-inl.hpp), compiled apart from the others so that
// the library build compiles the formula groups in parallel. The two groups
// share one source: a source of its own would parse the headers again (about
// 6 CPU s), more than the list group itself costs.
#include "autograd/formulas_reductions-inl.hpp"
#include "autograd/formulas_lists-inl.hpp"
