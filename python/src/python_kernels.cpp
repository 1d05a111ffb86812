// Operators declared from Python (a schema string) with Python functions as
// kernels: a boxed kernel that converts the stack to Python values, calls the
// function under the GIL and converts its result by the schema's return types.
#include "python_kernels.hpp"

#include <memory>

namespace opd::python {
namespace {

struct gil {
  PyGILState_STATE state = PyGILState_Ensure();
  ~gil() { PyGILState_Release(state); }
};

void run_python_kernel(PyObject* fn, const OperatorEntry& op, Stack& stack) {
  gil held;
  const Signature& sig = signature_of(op);
  const std::size_t n = sig.params.size();
  if (stack.size() < n) throw Error(opd::detail::str_cat(sig.name, ": the stack holds fewer values than the schema's arguments"));
  const std::size_t base = stack.size() - n;
  PyObject* args = PyTuple_New(static_cast<Py_ssize_t>(n));
  if (args == nullptr) throw python_error();
  for (std::size_t k = 0; k < n; ++k) {
    PyObject* v = to_python(stack[base + k], &sig.params[k]);
    if (v == nullptr) {
      Py_DECREF(args);
      throw python_error();
    }
    PyTuple_SET_ITEM(args, static_cast<Py_ssize_t>(k), v);
  }
  PyObject* result = PyObject_Call(fn, args, nullptr);
  Py_DECREF(args);
  if (result == nullptr) throw python_error();
  struct drop {
    PyObject* o;
    ~drop() { Py_DECREF(o); }
  } hold{result};
  stack.erase(stack.begin() + static_cast<std::ptrdiff_t>(base), stack.end());
  const std::size_t nret = sig.returns.size();
  const auto returned = [&](const Param& p, PyObject* o, std::size_t r) {
    try {
      return to_ivalue(p, o, sig.name, r);
    } catch (const TypeError&) {
      throw TypeError(opd::detail::str_cat(sig.name, ": the Python kernel's return ", r + 1, " must be ", p.type_text,
                                           ", not ", type_name_of(o)));
    }
  };
  if (nret == 0) return;
  if (nret == 1) {
    stack.push_back(returned(sig.returns[0], result, 0));
    return;
  }
  if (!PyTuple_Check(result) || static_cast<std::size_t>(PyTuple_GET_SIZE(result)) != nret)
    throw TypeError(opd::detail::str_cat(sig.name, ": the Python kernel must return a tuple of ", nret, " values, not ",
                                         type_name_of(result)));
  for (std::size_t r = 0; r < nret; ++r) stack.push_back(returned(sig.returns[r], PyTuple_GET_ITEM(result, r), r));
}

// ---- _C.Registration: a registration that lasts as long as the object ----------------------
struct PyRegistration {
  PyObject_HEAD
  RegistrationHandle* handle;
};

void registration_dealloc(PyObject* self) {
  auto* r = reinterpret_cast<PyRegistration*>(self);
  delete r->handle;  // undoes it (a Python kernel's reference is dropped under the GIL we hold)
  Py_TYPE(self)->tp_free(self);
}
PyObject* registration_remove(PyObject* self, PyObject*) {
  auto* r = reinterpret_cast<PyRegistration*>(self);
  return guarded([&] {
    if (r->handle != nullptr) r->handle->release();
    Py_RETURN_NONE;
  });
}
PyMethodDef registration_methods[] = {
    {"remove", registration_remove, METH_NOARGS, "undo the registration now"},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

PyTypeObject RegistrationType = make_type(
    "opdispatch._C.Registration", sizeof(PyRegistration), Py_TPFLAGS_DEFAULT,
    "A registration (a declared schema or a kernel), undone when the object is collected or remove() is called.");

PyObject* wrap_registration(RegistrationHandle h) {
  auto* r = PyObject_New(PyRegistration, &RegistrationType);
  if (r == nullptr) return nullptr;
  r->handle = new RegistrationHandle(std::move(h));
  return reinterpret_cast<PyObject*>(r);
}

KernelFunction python_kernel(PyObject* fn) {
  // The function is released under the GIL whenever the last copy of the kernel goes.
  std::shared_ptr<PyObject> held(Py_NewRef(fn), [](PyObject* f) {
    if (!Py_IsInitialized()) return;
    gil g;
    Py_DECREF(f);
  });
  return make_boxed_kernel([held](const OperatorEntry& op, DispatchKeySet, Stack* stack) {
    run_python_kernel(held.get(), op, *stack);
  });
}

bool init_registration_type(PyObject* module) {
  RegistrationType.tp_dealloc = registration_dealloc;
  RegistrationType.tp_methods = registration_methods;
  return add_type(module, "Registration", RegistrationType);
}

}  // namespace opd::python
