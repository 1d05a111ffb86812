// libopdispatch: the Functionalize layer (functional tensors, the boxed
// kernel at the Functionalize key, the entry points).
#include "functionalize/functional_tensor-inl.hpp"
#include "functionalize/functionalize-inl.hpp"
#include "functionalize/kernel-inl.hpp"
#include "functionalize/variants-inl.hpp"
#include "functionalize/composite-inl.hpp"
