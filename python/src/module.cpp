// The module opdispatch._C: the types (tensor, dtype, device, operators,
// registrations) and the functions the package (python/opdispatch/) builds on.
#include <dlfcn.h>

#include "common.hpp"
#include "operators.hpp"
#include "python_kernels.hpp"

#include <dispatch/c_abi/opd_c.h>

namespace opd::python {
namespace {

std::string string_arg(PyObject* o, const char* what) {
  if (!PyUnicode_Check(o)) throw TypeError(opd::detail::str_cat(what, " must be a str, not ", type_name_of(o)));
  const char* c = PyUnicode_AsUTF8(o);
  if (c == nullptr) throw python_error();
  return c;
}

PyObject* operator_names(PyObject*, PyObject*) {
  return guarded([] {
    const std::vector<std::string> names = Dispatcher::singleton().operator_names();
    PyObject* l = PyList_New(static_cast<Py_ssize_t>(names.size()));
    if (l == nullptr) return l;
    for (std::size_t i = 0; i < names.size(); ++i)
      PyList_SET_ITEM(l, static_cast<Py_ssize_t>(i), PyUnicode_FromString(names[i].c_str()));
    return l;
  });
}

PyObject* packet(PyObject*, PyObject* name) {
  return guarded([&] { return make_packet(string_arg(name, "operator name")); });
}

PyObject* overload(PyObject*, PyObject* name) {
  return guarded([&]() -> PyObject* {
    const std::string n = string_arg(name, "operator name");
    const OperatorEntry* e = Dispatcher::singleton().find_schema(n);
    if (e == nullptr) {
      PyErr_Format(PyExc_AttributeError, "no operator named '%s' is declared", n.c_str());
      return nullptr;
    }
    return make_overload(signature_of(*e));
  });
}

PyObject* set_tensor_class(PyObject*, PyObject* cls) {
  if (!PyType_Check(cls) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(cls), &TensorBaseType) ||
      reinterpret_cast<PyTypeObject*>(cls)->tp_basicsize != TensorBaseType.tp_basicsize)
    return raise_type_error("_set_tensor_class: expected a subclass of TensorBase with __slots__ = ()");
  Py_INCREF(cls);  // kept for the life of the module
  tensor_class = reinterpret_cast<PyTypeObject*>(cls);
  Py_RETURN_NONE;
}

PyObject* from_dlpack(PyObject*, PyObject* o) {
  return guarded([&] { return wrap(from_dlpack_object(o)); });
}

PyObject* as_tensor(PyObject*, PyObject* o) {
  return guarded([&]() -> PyObject* {
    if (is_tensor(o)) return Py_NewRef(o);
    if (!is_foreign_tensor(o))
      throw TypeError(opd::detail::str_cat("as_tensor: expected a tensor, a NumPy array or a DLPack producer, got ",
                                           type_name_of(o)));
    return wrap(import_foreign(o));
  });
}

PyObject* load_library(PyObject*, PyObject* path) {
  return guarded([&]() -> PyObject* {
    const std::string p = string_arg(path, "path");
    // RTLD_GLOBAL: a library of operators may be used by another one loaded later.
    if (dlopen(p.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      PyErr_Format(PyExc_OSError, "load_library: %s", dlerror());
      return nullptr;
    }
    Py_RETURN_NONE;
  });
}

PyObject* define(PyObject*, PyObject* schema) {
  return guarded([&] { return wrap_registration(Dispatcher::singleton().declare(string_arg(schema, "schema"))); });
}

PyObject* impl(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 3) return raise_type_error("_impl(name, dispatch_key, fn) takes 3 arguments");
  return guarded([&]() -> PyObject* {
    const std::string name = string_arg(args[0], "operator name");
    const DispatchKey key = parse_dispatch_key(string_arg(args[1], "dispatch key"));
    if (!PyCallable_Check(args[2])) throw TypeError(opd::detail::str_cat("_impl: the kernel must be callable, not ", type_name_of(args[2])));
    return wrap_registration(Dispatcher::singleton().register_kernel(name, key, python_kernel(args[2])));
  });
}

PyObject* dispatch_table(PyObject*, PyObject* name) {
  return guarded([&] {
    const std::string t = Dispatcher::singleton().dump_computed_table(string_arg(name, "operator name"));
    return PyUnicode_FromString(t.c_str());
  });
}

PyObject* register_builtin_kernels(PyObject*, PyObject*) {
  if (opd_register_builtin_kernels() != OPD_OK) {
    PyErr_SetString(PyExc_RuntimeError, opd_last_error());
    return nullptr;
  }
  Py_RETURN_NONE;
}

#define OPD_FASTCALL(f) reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f))
PyMethodDef module_methods[] = {
    {"_operator_names", operator_names, METH_NOARGS, "every declared operator, as 'ns::name.overload'"},
    {"_packet", packet, METH_O, "the OpOverloadPacket of 'ns::name'"},
    {"_overload", overload, METH_O, "the OpOverload of 'ns::name.overload'"},
    {"_set_tensor_class", set_tensor_class, METH_O, "the class new tensors get"},
    {"from_dlpack", from_dlpack, METH_O, "from_dlpack(obj): a tensor over obj's memory (obj.__dlpack__() or a capsule)"},
    {"as_tensor", as_tensor, METH_O, "as_tensor(obj): a tensor over the memory of a torch tensor, NumPy array or DLPack producer"},
    {"load_library", load_library, METH_O, "load_library(path): loads a shared library whose operators register as it loads"},
    {"_define", define, METH_O, "_define(schema) -> Registration: declares an operator"},
    {"_impl", OPD_FASTCALL(impl), METH_FASTCALL, "_impl(name, dispatch_key, fn) -> Registration: a Python kernel"},
    {"_dispatch_table", dispatch_table, METH_O, "the operator's computed dispatch table, as text"},
    {"_register_builtin_kernels", register_builtin_kernels, METH_NOARGS, "registers the library's CPU kernels (once)"},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {PyModuleDef_HEAD_INIT, "opdispatch._C", "The compiled part of opdispatch.", -1, module_methods,
                          nullptr, nullptr, nullptr, nullptr};

}  // namespace
}  // namespace opd::python

PyMODINIT_FUNC PyInit__C() {
  using namespace opd::python;
  PyObject* m = PyModule_Create(&module_def);
  if (m == nullptr) return nullptr;
  if (!init_tensor_type(m) || !init_value_types(m) || !init_operator_types(m) || !init_registration_type(m)) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}
