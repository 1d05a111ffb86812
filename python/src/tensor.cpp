// opdispatch._C.TensorBase: a Python object holding one opd::Tensor (one
// reference, no copy). The package's opdispatch.Tensor subclasses it in Python
// with the operators, indexing and conversions (opdispatch/_tensor.py).
#include "common.hpp"

#include <memory>
#include <sstream>
#include <vector>

namespace opd::python {

PyTypeObject TensorBaseType = make_type("opdispatch._C.TensorBase", sizeof(PyTensor), Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
                                        "An opdispatch tensor (one reference to the library's tensor; no copy).");
PyTypeObject* tensor_class = &TensorBaseType;

PyObject* wrap(Tensor t) {
  if (!t.defined()) Py_RETURN_NONE;
  PyObject* o = tensor_class->tp_alloc(tensor_class, 0);
  if (o == nullptr) return nullptr;
  new (&reinterpret_cast<PyTensor*>(o)->t) Tensor(std::move(t));
  return o;
}

namespace {

void tensor_dealloc(PyObject* self) {
  reinterpret_cast<PyTensor*>(self)->t.~Tensor();
  Py_TYPE(self)->tp_free(self);
}

PyObject* int_tuple(IntArrayRef v) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(v.size()));
  if (t == nullptr) return nullptr;
  for (std::size_t i = 0; i < v.size(); ++i) PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(v[i]));
  return t;
}

PyObject* tensor_repr(PyObject* self) {
  return guarded([&] {
    std::ostringstream os;
    print_tensor(os, tensor_of(self));
    return PyUnicode_FromString(os.str().c_str());
  });
}

PyObject* get_shape(PyObject* self, void*) { return int_tuple(tensor_of(self).sizes()); }
PyObject* get_dtype(PyObject* self, void*) { return dtype_object(tensor_of(self).dtype()); }
PyObject* get_device(PyObject* self, void*) { return device_object(tensor_of(self).device()); }
PyObject* get_ndim(PyObject* self, void*) { return PyLong_FromLongLong(tensor_of(self).dim()); }
PyObject* get_nbytes(PyObject* self, void*) { return PyLong_FromSize_t(tensor_of(self).nbytes()); }
PyObject* get_itemsize(PyObject* self, void*) { return PyLong_FromSize_t(tensor_of(self).itemsize()); }

PyGetSetDef tensor_getset[] = {
    {"shape", get_shape, nullptr, "the sizes, as a tuple", nullptr},
    {"dtype", get_dtype, nullptr, "the element type", nullptr},
    {"device", get_device, nullptr, "the device", nullptr},
    {"ndim", get_ndim, nullptr, "the number of dimensions", nullptr},
    {"nbytes", get_nbytes, nullptr, "bytes the elements span (numel * itemsize)", nullptr},
    {"itemsize", get_itemsize, nullptr, "bytes per element", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

PyObject* m_size(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs == 0) return int_tuple(tensor_of(self).sizes());
  if (nargs != 1 || !PyLong_Check(args[0])) return raise_type_error("size() takes an optional int dim");
  return guarded([&] { return PyLong_FromLongLong(tensor_of(self).size(PyLong_AsLongLong(args[0]))); });
}
PyObject* m_stride(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs == 0) return int_tuple(tensor_of(self).strides());
  if (nargs != 1 || !PyLong_Check(args[0])) return raise_type_error("stride() takes an optional int dim");
  return guarded([&] { return PyLong_FromLongLong(tensor_of(self).stride(PyLong_AsLongLong(args[0]))); });
}
PyObject* m_dim(PyObject* self, PyObject*) { return PyLong_FromLongLong(tensor_of(self).dim()); }
PyObject* m_numel(PyObject* self, PyObject*) { return PyLong_FromLongLong(tensor_of(self).numel()); }
PyObject* m_data_ptr(PyObject* self, PyObject*) { return PyLong_FromVoidPtr(tensor_of(self).data_ptr()); }
PyObject* m_storage_offset(PyObject* self, PyObject*) { return PyLong_FromLongLong(tensor_of(self).storage_offset()); }
PyObject* m_element_size(PyObject* self, PyObject*) { return PyLong_FromSize_t(tensor_of(self).itemsize()); }
PyObject* m_is_contiguous(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
  std::int64_t format = 0;
  if (nargs > 1 || (nargs == 1 && !parse_memory_format(args[0], format)))
    return raise_type_error("is_contiguous() takes an optional memory format");
  return PyBool_FromLong(tensor_of(self).is_contiguous(static_cast<MemoryFormat>(format)));
}
PyObject* m_is_view(PyObject* self, PyObject*) { return PyBool_FromLong(tensor_of(self).is_view()); }
PyObject* m_is_same(PyObject* self, PyObject* other) {
  if (!is_tensor(other)) return raise_type_error("_is_same() takes a tensor");
  return PyBool_FromLong(tensor_of(self).is_same(tensor_of(other)));
}
PyObject* m_version(PyObject* self, PyObject*) { return PyLong_FromUnsignedLong(tensor_of(self).version()); }

// The DLPack protocol (DLPack 0.6's unversioned "dltensor" capsule, as PyTorch 1.13 and NumPy 1.24 speak it).
PyObject* m_dlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  PyObject* stream = Py_None;
  static const char* keywords[] = {"stream", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", const_cast<char**>(keywords), &stream)) return nullptr;
  if (stream != Py_None && !tensor_of(self).is_cpu() && !PyLong_Check(stream))
    return raise_type_error("__dlpack__: stream must be None or an int");
  return guarded([&] { return to_dlpack_capsule(tensor_of(self)); });
}
PyObject* m_dlpack_device(PyObject* self, PyObject*) {
  const Device d = tensor_of(self).device();
  const int type = d.is_cpu() ? 1 /* kDLCPU */ : d.is_cuda() ? 2 /* kDLCUDA */ : -1;
  if (type < 0) {
    PyErr_Format(PyExc_BufferError, "device %s has no DLPack form", d.str().c_str());
    return nullptr;
  }
  return Py_BuildValue("(ii)", type, d.has_index() ? static_cast<int>(d.index()) : 0);
}

PyMethodDef tensor_methods[] = {
    {"size", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_size)), METH_FASTCALL, "size(dim=None)"},
    {"stride", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_stride)), METH_FASTCALL, "stride(dim=None)"},
    {"dim", m_dim, METH_NOARGS, "number of dimensions"},
    {"numel", m_numel, METH_NOARGS, "number of elements"},
    {"data_ptr", m_data_ptr, METH_NOARGS, "address of the first element"},
    {"storage_offset", m_storage_offset, METH_NOARGS, "offset of the first element in the storage, in elements"},
    {"element_size", m_element_size, METH_NOARGS, "bytes per element"},
    {"is_contiguous", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_is_contiguous)), METH_FASTCALL,
     "is_contiguous(memory_format='contiguous_format')"},
    {"is_view", m_is_view, METH_NOARGS, "whether the tensor is a view of another"},
    {"_is_same", m_is_same, METH_O, "whether two Python tensors hold the same TensorImpl"},
    {"_version", m_version, METH_NOARGS, "the version counter"},
    {"__dlpack__", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(m_dlpack)), METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(stream=None): a DLPack capsule over the same memory"},
    {"__dlpack_device__", m_dlpack_device, METH_NOARGS, "(device type, index) as DLPack numbers them"},
    {nullptr, nullptr, 0, nullptr},
};

// The buffer protocol: memoryview(t) and np.asarray(memoryview(t)) read and
// write the tensor's memory. What a view needs (shape and strides in bytes,
// and a reference to the tensor) lives in view->internal until it is released.
struct buffer_export {
  Tensor tensor;
  std::vector<Py_ssize_t> shape, strides;
};

const char* buffer_format(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "?";
    case ScalarType::Byte: return "B";
    case ScalarType::Char: return "b";
    case ScalarType::Short: return "h";
    case ScalarType::Int: return "i";
    case ScalarType::Long: return "q";
    case ScalarType::Half: return "e";
    case ScalarType::Float: return "f";
    case ScalarType::Double: return "d";
    case ScalarType::ComplexFloat: return "Zf";
    case ScalarType::ComplexDouble: return "Zd";
    default: return nullptr;
  }
}

int tensor_getbuffer(PyObject* self, Py_buffer* view, int flags) {
  const Tensor& t = tensor_of(self);
  const char* format = buffer_format(t.dtype());
  if (!t.is_cpu() || format == nullptr) {
    PyErr_Format(PyExc_BufferError, "a %s tensor on %s has no buffer form", std::string(to_string(t.dtype())).c_str(),
                 t.device().str().c_str());
    return -1;
  }
  auto e = std::make_unique<buffer_export>();
  e->tensor = t;
  const auto item = static_cast<Py_ssize_t>(t.itemsize());
  for (std::int64_t d = 0; d < t.dim(); ++d) {
    e->shape.push_back(static_cast<Py_ssize_t>(t.size(d)));
    e->strides.push_back(static_cast<Py_ssize_t>(t.stride(d)) * item);
  }
  if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !t.is_contiguous()) {
    PyErr_SetString(PyExc_BufferError, "the tensor is not contiguous: ask for strides");
    return -1;
  }
  view->buf = t.data_ptr();
  view->obj = Py_NewRef(self);
  view->len = static_cast<Py_ssize_t>(t.nbytes());
  view->readonly = 0;
  view->itemsize = item;
  view->format = (flags & PyBUF_FORMAT) ? const_cast<char*>(format) : nullptr;
  view->ndim = static_cast<int>(t.dim());
  view->shape = e->shape.data();
  view->strides = e->strides.data();
  view->suboffsets = nullptr;
  view->internal = e.release();
  return 0;
}
void tensor_releasebuffer(PyObject*, Py_buffer* view) { delete static_cast<buffer_export*>(view->internal); }
PyBufferProcs tensor_buffer = {tensor_getbuffer, tensor_releasebuffer};

}  // namespace

bool init_tensor_type(PyObject* module) {
  TensorBaseType.tp_dealloc = tensor_dealloc;
  TensorBaseType.tp_repr = tensor_repr;
  TensorBaseType.tp_str = tensor_repr;
  TensorBaseType.tp_getset = tensor_getset;
  TensorBaseType.tp_methods = tensor_methods;
  TensorBaseType.tp_as_buffer = &tensor_buffer;
  return add_type(module, "TensorBase", TensorBaseType);
}

}  // namespace opd::python
