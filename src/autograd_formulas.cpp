// libopdispatch: the derivatives of the library's operators and
// register_autograd() (autograd/formulas-inl.hpp), compiled once.
#include "autograd/formulas-inl.hpp"
#include "autograd/c_register-inl.hpp"
