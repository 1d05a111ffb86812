#pragma once
// Python functions as kernels, and registrations as Python objects (python_kernels.cpp).
#include "signature.hpp"

namespace opd::python {

extern PyTypeObject RegistrationType;
// A boxed kernel calling fn(*arguments) under the GIL.
KernelFunction python_kernel(PyObject* fn);
// The handle as a Python object that undoes it when collected (or on remove()).
PyObject* wrap_registration(RegistrationHandle h);
bool init_registration_type(PyObject* module);

}  // namespace opd::python
