// libopdispatch: the derivatives of the library's operators and
// register_autograd() (autograd/formulas-inl.hpp), and those of the
// complex-valued operators (autograd/formulas_complex-inl.hpp), compiled once.
#include "autograd/formulas-inl.hpp"
#include "autograd/formulas_complex-inl.hpp"
#include "autograd/c_register-inl.hpp"
