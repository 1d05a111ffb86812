// C++ exceptions as Python exceptions: the library's error classes map to
// the Python exceptions PyTorch raises for c10's (IndexError, TypeError,
// ValueError, NotImplementedError; RuntimeError otherwise), with the
// library's message; a Python kernel's own exception comes back as it was.
#include "common.hpp"

#include <new>

namespace opd::python {

namespace {
std::string message_of(PyObject* value) {
  if (value == nullptr) return "Python error";
  PyObject* s = PyObject_Str(value);
  if (s == nullptr) {
    PyErr_Clear();
    return "Python error";
  }
  const char* c = PyUnicode_AsUTF8(s);
  std::string out = c != nullptr ? c : "Python error";
  if (c == nullptr) PyErr_Clear();
  Py_DECREF(s);
  return out;
}
}  // namespace

python_error::python_error() : std::runtime_error("Python error") {
  PyErr_Fetch(&type, &value, &traceback);
  PyErr_NormalizeException(&type, &value, &traceback);
  what_ = message_of(value);
}
python_error::python_error(python_error&& o) noexcept
    : std::runtime_error(o), type(o.type), value(o.value), traceback(o.traceback), what_(std::move(o.what_)) {
  o.type = o.value = o.traceback = nullptr;
}
python_error::~python_error() {
  if (type == nullptr && value == nullptr && traceback == nullptr) return;
  if (!Py_IsInitialized()) return;
  const PyGILState_STATE g = PyGILState_Ensure();
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  PyGILState_Release(g);
}
void python_error::restore() {
  PyErr_Restore(type, value, traceback);
  type = value = traceback = nullptr;
}

void set_error_from_current_exception() {
  try {
    throw;
  } catch (python_error& e) {
    e.restore();
  } catch (const IndexError& e) {
    PyErr_SetString(PyExc_IndexError, e.what());
  } catch (const TypeError& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const ValueError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
  } catch (const NotImplementedError& e) {
    PyErr_SetString(PyExc_NotImplementedError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "opdispatch: unknown C++ exception");
  }
}

PyObject* raise_type_error(const std::string& text) {
  PyErr_SetString(PyExc_TypeError, text.c_str());
  return nullptr;
}

std::string type_name_of(PyObject* o) {
  if (o == Py_None) return "NoneType";
  if (is_tensor(o)) return "Tensor";
  const std::string_view n = Py_TYPE(o)->tp_name;
  if (n == "Tensor" || n == "Parameter") return "torch.Tensor";
  return std::string(n);
}

}  // namespace opd::python
