#pragma once
// Shared declarations of the opdispatch Python extension (module `opdispatch._C`).
//
// The extension is written against CPython's C API directly: every operator is
// one object whose call is a vectorcall over one schema-driven argument parser
// (arguments.cpp), so a call costs a few type checks per argument and the boxed
// dispatcher call, with no per-operator wrapper and no pybind11 layer.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <dispatch/dispatcher.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace opd::python {

// A static type with its name, instance size, flags and doc; the caller sets
// the slots it has, then add_type readies it and adds it to the module.
inline PyTypeObject make_type(const char* name, Py_ssize_t size, unsigned long flags, const char* doc) {
  PyTypeObject t = {PyVarObject_HEAD_INIT(nullptr, 0) name};
  t.tp_basicsize = size;
  t.tp_flags = flags;
  t.tp_doc = doc;
  return t;
}
inline bool add_type(PyObject* module, const char* attr, PyTypeObject& t) {
  return PyType_Ready(&t) == 0 && PyModule_AddObjectRef(module, attr, reinterpret_cast<PyObject*>(&t)) == 0;
}

// ---- tensors (tensor.cpp) ------------------------------------------------------------
struct PyTensor {
  PyObject_HEAD
  Tensor t;
};
extern PyTypeObject TensorBaseType;
// The class new tensors get: TensorBase, or the Python subclass opdispatch.Tensor
// once the package has registered it (_C._set_tensor_class).
extern PyTypeObject* tensor_class;
inline bool is_tensor(PyObject* o) { return PyObject_TypeCheck(o, &TensorBaseType); }
inline const Tensor& tensor_of(PyObject* o) { return reinterpret_cast<PyTensor*>(o)->t; }
// A new Python tensor sharing t (None for an undefined tensor).
PyObject* wrap(Tensor t);
bool init_tensor_type(PyObject* module);

// ---- dtypes, devices, layouts, memory formats (values.cpp) ---------------------------
struct PyDtype {
  PyObject_HEAD
  ScalarType type;
  PyObject* name;  // "float32"
};
extern PyTypeObject DtypeType;
struct PyDevice {
  PyObject_HEAD
  Device device;
};
extern PyTypeObject DeviceType_;
PyObject* dtype_object(ScalarType t);  // new reference
PyObject* device_object(Device d);     // new reference
// Parse a dtype given as an opdispatch.dtype, a name ("float32", "torch.float32"),
// a torch.dtype or a NumPy dtype; false when `o` is none of those.
bool parse_dtype(PyObject* o, ScalarType& out);
bool parse_device(PyObject* o, Device& out);
bool parse_layout(PyObject* o, std::int64_t& out);
bool parse_memory_format(PyObject* o, std::int64_t& out);
bool init_value_types(PyObject* module);

// ---- foreign tensors: PyTorch, NumPy, anything with __dlpack__ (dlpack.cpp) -----------
// Is `o` a tensor of another library that converts without a copy?
bool is_foreign_tensor(PyObject* o);
// `o` as a tensor over the same memory; throws (TypeError/ValueError) when it cannot.
Tensor import_foreign(PyObject* o);
PyObject* to_dlpack_capsule(const Tensor& t);  // new reference, "dltensor"
Tensor from_dlpack_object(PyObject* o);         // o.__dlpack__() or a capsule

// ---- errors (errors.cpp) -------------------------------------------------------------
// A Python exception raised inside a Python kernel, carried through C++ frames
// and restored when the call returns to Python.
// Not an opd::Error: a layer that catches and rewords the library's errors
// leaves it alone.
struct python_error : std::runtime_error {
  PyObject *type = nullptr, *value = nullptr, *traceback = nullptr;
  python_error();  // fetches the current Python error (GIL held)
  python_error(const python_error&) = delete;
  python_error(python_error&& o) noexcept;
  ~python_error() override;
  const char* what() const noexcept override { return what_.c_str(); }
  void restore();

 private:
  std::string what_;
};
// Sets the Python error for the exception in flight; call from a catch block.
void set_error_from_current_exception();
// f() with any C++ exception turned into the Python error (returns nullptr then).
template <class F>
PyObject* guarded(F&& f) {
  try {
    return f();
  } catch (...) {
    set_error_from_current_exception();
    return nullptr;
  }
}

// Raises TypeError with the text; returns nullptr for `return raise_type_error(...)`.
PyObject* raise_type_error(const std::string& text);
// The name of o's type as a user reads it ("int", "str", "Tensor", "torch.Tensor").
std::string type_name_of(PyObject* o);

}  // namespace opd::python
