// Tensors of other libraries, without copies: PyTorch through DLPack
// (torch._C._to_dlpack: the C function, not Tensor.__dlpack__'s Python
// layer), NumPy through the buffer protocol (every dtype, bool included,
// which NumPy 1.24's DLPack refuses), anything else through __dlpack__.
#include "common.hpp"

#include <dispatch/c_abi/dlpack.hpp>

#include <cstring>
#include <memory>
#include <vector>

namespace opd::python {
namespace {

constexpr const char* capsule_name = "dltensor";
constexpr const char* used_capsule_name = "used_dltensor";

void capsule_destructor(PyObject* capsule) {
  // A capsule nobody consumed still owns its tensor.
  if (!PyCapsule_IsValid(capsule, capsule_name)) return;
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, capsule_name));
  if (m != nullptr && m->deleter != nullptr) m->deleter(m);
}

// Types seen before: 1 a torch tensor, 2 a NumPy array, 3 another __dlpack__ producer, 0 none.
int classify_type(PyTypeObject* t) {
  static PyTypeObject* cache_type[8] = {};
  static int cache_kind[8] = {};
  for (int i = 0; i < 8; ++i)
    if (cache_type[i] == t) return cache_kind[i];
  int kind = 0;
  PyObject* mro = t->tp_mro;
  for (Py_ssize_t i = 0; mro != nullptr && i < PyTuple_GET_SIZE(mro) && kind == 0; ++i) {
    const std::string_view n = reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(mro, i))->tp_name;
    if (n == "torch._C._TensorBase") kind = 1;
    else if (n == "numpy.ndarray") kind = 2;
  }
  if (kind == 0) {
    PyObject* attr = PyObject_GetAttrString(reinterpret_cast<PyObject*>(t), "__dlpack__");
    if (attr != nullptr) kind = 3;
    Py_XDECREF(attr);
    PyErr_Clear();
  }
  static int next = 0;
  cache_type[next] = t;
  cache_kind[next] = kind;
  next = (next + 1) % 8;
  return kind;
}

Tensor from_capsule(PyObject* capsule) {
  auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, capsule_name));
  if (m == nullptr) throw python_error();
  Tensor t = tensor_from_dlpack(m);
  // The library's tensor owns the managed tensor now.
  PyCapsule_SetName(capsule, used_capsule_name);
  return t;
}

// torch._C._to_dlpack, torch.bool and torch.uint8, looked up once (torch is imported by then).
struct torch_functions {
  PyObject* to_dlpack = nullptr;
  PyObject* bool_dtype = nullptr;
  PyObject* uint8_dtype = nullptr;
};
const torch_functions& torch_fns() {
  static torch_functions f = [] {
    torch_functions r;
    PyObject* torch = PyImport_ImportModule("torch");
    if (torch == nullptr) throw python_error();
    PyObject* c = PyObject_GetAttrString(torch, "_C");
    r.to_dlpack = c == nullptr ? nullptr : PyObject_GetAttrString(c, "_to_dlpack");
    r.bool_dtype = PyObject_GetAttrString(torch, "bool");
    r.uint8_dtype = PyObject_GetAttrString(torch, "uint8");
    Py_XDECREF(c);
    Py_DECREF(torch);
    if (r.to_dlpack == nullptr || r.bool_dtype == nullptr || r.uint8_dtype == nullptr) throw python_error();
    return r;
  }();
  return f;
}

// The same memory read as another dtype of the same size (PyTorch 1.13 hands bool out as uint8).
Tensor as_dtype(const Tensor& t, ScalarType dtype) {
  Tensor keep = t;
  return from_blob(t.data_ptr(), t.sizes(), t.strides(), dtype, t.device(), [keep](void*) {});
}

Tensor import_capsule(PyObject* capsule) {
  Tensor t;
  try {
    t = from_capsule(capsule);
  } catch (...) {
    Py_DECREF(capsule);
    throw;
  }
  Py_DECREF(capsule);
  return t;
}

Tensor import_torch(PyObject* o) {
  const torch_functions& f = torch_fns();
  if (PyObject* capsule = PyObject_CallOneArg(f.to_dlpack, o)) return import_capsule(capsule);
  // PyTorch 1.13's DLPack refuses bool (the only dtype it refuses that the
  // library has): its memory goes out as uint8 and is read back as bool.
  python_error refused;
  PyObject* dt = PyObject_GetAttrString(o, "dtype");
  if (dt == nullptr) throw python_error();
  const bool is_bool = dt == f.bool_dtype;
  Py_DECREF(dt);
  if (!is_bool) throw std::move(refused);
  PyObject* bytes = PyObject_CallMethod(o, "view", "O", f.uint8_dtype);
  if (bytes == nullptr) throw python_error();
  PyObject* capsule = PyObject_CallOneArg(f.to_dlpack, bytes);
  Py_DECREF(bytes);
  if (capsule == nullptr) throw python_error();
  return as_dtype(import_capsule(capsule), ScalarType::Bool);
}

bool dtype_from_buffer_format(std::string_view f, std::size_t itemsize, ScalarType& out) {
  if (!f.empty() && (f[0] == '<' || f[0] == '=' || f[0] == '@' || f[0] == '|')) f.remove_prefix(1);
  if (f == "?") return out = ScalarType::Bool, true;
  if (f == "b") return out = ScalarType::Char, true;
  if (f == "B") return out = ScalarType::Byte, true;
  if (f == "e") return out = ScalarType::Half, true;
  if (f == "f") return out = ScalarType::Float, true;
  if (f == "d") return out = ScalarType::Double, true;
  if (f == "Zf") return out = ScalarType::ComplexFloat, true;
  if (f == "Zd") return out = ScalarType::ComplexDouble, true;
  if (f == "h" || f == "i" || f == "l" || f == "q") {
    if (itemsize == 2) return out = ScalarType::Short, true;
    if (itemsize == 4) return out = ScalarType::Int, true;
    if (itemsize == 8) return out = ScalarType::Long, true;
  }
  return false;
}

// A NumPy array over its own memory; a read-only one is copied (a kernel may
// write to its arguments, and the memory may be truly read-only).
Tensor import_buffer(PyObject* o) {
  auto view = std::make_unique<Py_buffer>();
  bool read_only = false;
  if (PyObject_GetBuffer(o, view.get(), PyBUF_RECORDS) < 0) {
    PyErr_Clear();
    if (PyObject_GetBuffer(o, view.get(), PyBUF_RECORDS_RO) < 0) throw python_error();
    read_only = true;
  }
  struct release {
    Py_buffer* v;
    ~release() {
      if (v != nullptr) PyBuffer_Release(v);
    }
  } guard{view.get()};
  ScalarType dtype;
  if (!dtype_from_buffer_format(view->format == nullptr ? "B" : view->format, static_cast<std::size_t>(view->itemsize), dtype))
    throw TypeError(opd::detail::str_cat("opdispatch: an array of element format '", view->format, "' has no tensor dtype"));
  const auto nd = static_cast<std::size_t>(view->ndim);
  std::vector<std::int64_t> sizes(nd), strides(nd);
  for (std::size_t d = 0; d < nd; ++d) {
    sizes[d] = view->shape[d];
    if (view->strides[d] % view->itemsize != 0)
      throw ValueError("opdispatch: an array whose strides are not whole elements has no tensor form");
    strides[d] = view->strides[d] / view->itemsize;
  }
  Py_buffer* held = view.release();
  guard.v = nullptr;
  Tensor t = from_blob(held->buf, sizes, strides, dtype, Device::cpu(), [held](void*) {
    if (!Py_IsInitialized()) return;  // at exit: the interpreter has freed the array already
    const PyGILState_STATE g = PyGILState_Ensure();
    PyBuffer_Release(held);
    PyGILState_Release(g);
    delete held;
  });
  if (!read_only) return t;
  Tensor copy = empty(t.sizes(), dtype);
  std::vector<std::int64_t> index(nd, 0);
  const auto* src = static_cast<const char*>(t.data_ptr());
  auto* dst = static_cast<char*>(copy.data_ptr());
  const std::size_t item = t.itemsize();
  for (std::int64_t i = 0; i < t.numel(); ++i) {  // row-major walk of a strided array
    std::int64_t off = 0;
    for (std::size_t d = 0; d < nd; ++d) off += index[d] * strides[d];
    std::memcpy(dst + static_cast<std::size_t>(i) * item, src + off * static_cast<std::int64_t>(item), item);
    for (std::size_t d = nd; d-- > 0;) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  return copy;
}

}  // namespace

bool is_foreign_tensor(PyObject* o) { return classify_type(Py_TYPE(o)) != 0; }

Tensor import_foreign(PyObject* o) {
  switch (classify_type(Py_TYPE(o))) {
    case 1: return import_torch(o);
    case 2: return import_buffer(o);
    case 3: return from_dlpack_object(o);
    default: throw TypeError(opd::detail::str_cat("opdispatch: expected a tensor, got ", type_name_of(o)));
  }
}

PyObject* to_dlpack_capsule(const Tensor& t) {
  DLManagedTensor* managed = tensor_to_dlpack(t);
  PyObject* capsule = PyCapsule_New(managed, capsule_name, capsule_destructor);
  if (capsule == nullptr) {
    managed->deleter(managed);
    throw python_error();
  }
  return capsule;
}

Tensor from_dlpack_object(PyObject* o) {
  if (PyCapsule_CheckExact(o)) return from_capsule(o);
  if (is_tensor(o)) return tensor_of(o);
  if (classify_type(Py_TYPE(o)) == 1) return import_torch(o);
  PyObject* capsule = PyObject_CallMethod(o, "__dlpack__", nullptr);
  if (capsule == nullptr) throw python_error();
  return import_capsule(capsule);
}

}  // namespace opd::python
