// opdispatch.dtype and opdispatch.device, and the parsers that accept them
// by name, as PyTorch's objects (torch.float32, torch.device) or NumPy dtypes.
#include "common.hpp"

#include <structmember.h>

#include <array>
#include <cstring>
#include <optional>

namespace opd::python {
namespace {

struct dtype_name {
  const char* name;
  ScalarType type;
};
// The first name of each type is its canonical one (PyTorch's).
constexpr dtype_name dtype_names[] = {
    {"uint8", ScalarType::Byte},         {"int8", ScalarType::Char},           {"int16", ScalarType::Short},
    {"short", ScalarType::Short},        {"int32", ScalarType::Int},           {"int", ScalarType::Int},
    {"int64", ScalarType::Long},         {"long", ScalarType::Long},           {"float16", ScalarType::Half},
    {"half", ScalarType::Half},          {"float32", ScalarType::Float},       {"float", ScalarType::Float},
    {"float64", ScalarType::Double},     {"double", ScalarType::Double},       {"complex32", ScalarType::ComplexHalf},
    {"chalf", ScalarType::ComplexHalf},  {"complex64", ScalarType::ComplexFloat}, {"cfloat", ScalarType::ComplexFloat},
    {"complex128", ScalarType::ComplexDouble}, {"cdouble", ScalarType::ComplexDouble}, {"bool", ScalarType::Bool},
    {"qint8", ScalarType::QInt8},        {"quint8", ScalarType::QUInt8},       {"qint32", ScalarType::QInt32},
    {"bfloat16", ScalarType::BFloat16},
};

std::array<PyObject*, kNumScalarTypes> dtype_objects{};

bool dtype_from_name(std::string_view n, ScalarType& out) {
  if (n.starts_with("torch.")) n.remove_prefix(6);
  for (const dtype_name& d : dtype_names)
    if (n == d.name) {
      out = d.type;
      return true;
    }
  return false;
}

std::string_view utf8(PyObject* s) {
  Py_ssize_t n = 0;
  const char* c = PyUnicode_AsUTF8AndSize(s, &n);
  if (c == nullptr) {
    PyErr_Clear();
    return {};
  }
  return {c, static_cast<std::size_t>(n)};
}

// str(o) of an object of another library (torch.dtype, torch.device, ...).
bool parse_by_str(PyObject* o, std::string_view type_name, auto&& parse) {
  if (std::string_view(Py_TYPE(o)->tp_name) != type_name) return false;
  PyObject* s = PyObject_Str(o);
  if (s == nullptr) {
    PyErr_Clear();
    return false;
  }
  const bool ok = parse(utf8(s));
  Py_DECREF(s);
  return ok;
}

PyObject* dtype_repr(PyObject* self) {
  return PyUnicode_FromFormat("opdispatch.%U", reinterpret_cast<PyDtype*>(self)->name);
}
PyObject* dtype_richcompare(PyObject* a, PyObject* b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  ScalarType tb;
  if (!parse_dtype(b, tb)) Py_RETURN_NOTIMPLEMENTED;
  const bool eq = reinterpret_cast<PyDtype*>(a)->type == tb;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}
Py_hash_t dtype_hash(PyObject* self) { return static_cast<Py_hash_t>(reinterpret_cast<PyDtype*>(self)->type) + 1; }
PyObject* dtype_itemsize(PyObject* self, void*) {
  return PyLong_FromSize_t(element_size(reinterpret_cast<PyDtype*>(self)->type));
}
PyObject* dtype_is_floating(PyObject* self, void*) {
  const ScalarType t = reinterpret_cast<PyDtype*>(self)->type;
  return PyBool_FromLong(t == ScalarType::Half || t == ScalarType::Float || t == ScalarType::Double || t == ScalarType::BFloat16);
}
PyObject* dtype_is_complex(PyObject* self, void*) {
  const ScalarType t = reinterpret_cast<PyDtype*>(self)->type;
  return PyBool_FromLong(t == ScalarType::ComplexHalf || t == ScalarType::ComplexFloat || t == ScalarType::ComplexDouble);
}
PyObject* dtype_code(PyObject* self, void*) { return PyLong_FromLong(static_cast<long>(reinterpret_cast<PyDtype*>(self)->type)); }

PyGetSetDef dtype_getset[] = {
    {"itemsize", dtype_itemsize, nullptr, "bytes per element", nullptr},
    {"is_floating_point", dtype_is_floating, nullptr, nullptr, nullptr},
    {"is_complex", dtype_is_complex, nullptr, nullptr, nullptr},
    {"code", dtype_code, nullptr, "PyTorch's ScalarType number", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};
PyMemberDef dtype_members[] = {
    {"name", T_OBJECT_EX, offsetof(PyDtype, name), READONLY, "canonical name"},
    {nullptr, 0, 0, 0, nullptr},
};

// ---- device ---------------------------------------------------------------------------
std::string device_text(Device d) { return d.str(); }
PyObject* device_new(PyTypeObject*, PyObject* args, PyObject* kwargs) {
  PyObject* spec = nullptr;
  static const char* keywords[] = {"device", nullptr};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", const_cast<char**>(keywords), &spec)) return nullptr;
  Device d = Device::cpu();
  if (!parse_device(spec, d)) {
    if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "opdispatch.device: cannot read a device from %R", spec);
    return nullptr;
  }
  return device_object(d);
}
PyObject* device_repr(PyObject* self) {
  return PyUnicode_FromFormat("device(type='%s'%s)", std::string(to_string(reinterpret_cast<PyDevice*>(self)->device.type())).c_str(),
                              reinterpret_cast<PyDevice*>(self)->device.has_index()
                                  ? (", index=" + std::to_string(reinterpret_cast<PyDevice*>(self)->device.index())).c_str()
                                  : "");
}
PyObject* device_str(PyObject* self) { return PyUnicode_FromString(device_text(reinterpret_cast<PyDevice*>(self)->device).c_str()); }
PyObject* device_richcompare(PyObject* a, PyObject* b, int op) {
  if (op != Py_EQ && op != Py_NE) Py_RETURN_NOTIMPLEMENTED;
  Device db = Device::cpu();
  if (!parse_device(b, db)) {
    PyErr_Clear();
    Py_RETURN_NOTIMPLEMENTED;
  }
  const bool eq = reinterpret_cast<PyDevice*>(a)->device == db;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}
Py_hash_t device_hash(PyObject* self) {
  const Device d = reinterpret_cast<PyDevice*>(self)->device;
  return static_cast<Py_hash_t>(d.type()) * 1000 + d.index() + 2;
}
PyObject* device_type(PyObject* self, void*) {
  return PyUnicode_FromString(std::string(to_string(reinterpret_cast<PyDevice*>(self)->device.type())).c_str());
}
PyObject* device_index(PyObject* self, void*) {
  const Device d = reinterpret_cast<PyDevice*>(self)->device;
  if (!d.has_index()) Py_RETURN_NONE;
  return PyLong_FromLong(d.index());
}
PyGetSetDef device_getset[] = {
    {"type", device_type, nullptr, "device type name", nullptr},
    {"index", device_index, nullptr, "device index, or None", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

}  // namespace

PyTypeObject DtypeType = make_type(
    "opdispatch.dtype", sizeof(PyDtype), Py_TPFLAGS_DEFAULT,
    "A tensor element type (opdispatch.float32, ...); compares equal to its names and to torch's dtypes.");
PyTypeObject DeviceType_ = make_type("opdispatch.device", sizeof(PyDevice), Py_TPFLAGS_DEFAULT,
                                     "A device: opdispatch.device('cpu'), device('cuda:0').");

PyObject* dtype_object(ScalarType t) {
  const auto i = static_cast<std::size_t>(t);
  if (i >= dtype_objects.size() || dtype_objects[i] == nullptr) {
    PyErr_Format(PyExc_ValueError, "opdispatch: dtype %d has no Python object", static_cast<int>(t));
    return nullptr;
  }
  return Py_NewRef(dtype_objects[i]);
}

PyObject* device_object(Device d) {
  auto* o = PyObject_New(PyDevice, &DeviceType_);
  if (o != nullptr) o->device = d;
  return reinterpret_cast<PyObject*>(o);
}

bool parse_dtype(PyObject* o, ScalarType& out) {
  if (Py_IS_TYPE(o, &DtypeType)) {
    out = reinterpret_cast<PyDtype*>(o)->type;
    return true;
  }
  if (PyUnicode_Check(o)) return dtype_from_name(utf8(o), out);
  if (parse_by_str(o, "torch.dtype", [&](std::string_view s) { return dtype_from_name(s, out); })) return true;
  // A NumPy dtype (np.dtype('float32')) or scalar type (np.float32): its name.
  const std::string_view tn = Py_TYPE(o)->tp_name;
  if (tn.starts_with("numpy.dtype") || (PyType_Check(o) && std::string_view(reinterpret_cast<PyTypeObject*>(o)->tp_name).starts_with("numpy."))) {
    PyObject* np = PyImport_ImportModule("numpy");
    if (np == nullptr) {
      PyErr_Clear();
      return false;
    }
    PyObject* dt = PyObject_CallMethod(np, "dtype", "O", o);
    Py_DECREF(np);
    PyObject* name = dt == nullptr ? nullptr : PyObject_GetAttrString(dt, "name");
    Py_XDECREF(dt);
    if (name == nullptr) {
      PyErr_Clear();
      return false;
    }
    const bool ok = dtype_from_name(utf8(name), out);
    Py_DECREF(name);
    return ok;
  }
  return false;
}

bool parse_device(PyObject* o, Device& out) {
  if (Py_IS_TYPE(o, &DeviceType_)) {
    out = reinterpret_cast<PyDevice*>(o)->device;
    return true;
  }
  const auto from_text = [&](std::string_view s) {
    const std::optional<Device> d = Device::try_parse(s);
    if (d) out = *d;
    return d.has_value();
  };
  if (PyUnicode_Check(o)) return from_text(utf8(o));
  return parse_by_str(o, "torch.device", from_text);
}

namespace {
bool layout_from_name(std::string_view n, std::int64_t& out) {
  if (n.starts_with("torch.")) n.remove_prefix(6);
  if (n == "strided") return out = static_cast<std::int64_t>(Layout::Strided), true;
  return false;
}
bool memory_format_from_name(std::string_view n, std::int64_t& out) {
  if (n.starts_with("torch.")) n.remove_prefix(6);
  if (n == "contiguous_format") return out = static_cast<std::int64_t>(MemoryFormat::Contiguous), true;
  if (n == "preserve_format") return out = static_cast<std::int64_t>(MemoryFormat::Preserve), true;
  if (n == "channels_last") return out = static_cast<std::int64_t>(MemoryFormat::ChannelsLast), true;
  if (n == "channels_last_3d") return out = static_cast<std::int64_t>(MemoryFormat::ChannelsLast3d), true;
  return false;
}
}  // namespace

bool parse_layout(PyObject* o, std::int64_t& out) {
  if (PyUnicode_Check(o)) return layout_from_name(utf8(o), out);
  return parse_by_str(o, "torch.layout", [&](std::string_view s) { return layout_from_name(s, out); });
}
bool parse_memory_format(PyObject* o, std::int64_t& out) {
  if (PyUnicode_Check(o)) return memory_format_from_name(utf8(o), out);
  return parse_by_str(o, "torch.memory_format", [&](std::string_view s) { return memory_format_from_name(s, out); });
}

bool init_value_types(PyObject* module) {
  DtypeType.tp_repr = dtype_repr;
  DtypeType.tp_str = dtype_repr;
  DtypeType.tp_richcompare = dtype_richcompare;
  DtypeType.tp_hash = dtype_hash;
  DtypeType.tp_getset = dtype_getset;
  DtypeType.tp_members = dtype_members;
  if (!add_type(module, "dtype", DtypeType)) return false;
  DeviceType_.tp_new = device_new;
  DeviceType_.tp_repr = device_repr;
  DeviceType_.tp_str = device_str;
  DeviceType_.tp_richcompare = device_richcompare;
  DeviceType_.tp_hash = device_hash;
  DeviceType_.tp_getset = device_getset;
  if (!add_type(module, "device", DeviceType_)) return false;
  // One object per dtype, under each of its names (opdispatch.float32 is opdispatch.float).
  for (const dtype_name& d : dtype_names) {
    const auto i = static_cast<std::size_t>(d.type);
    if (dtype_objects[i] == nullptr) {
      auto* o = PyObject_New(PyDtype, &DtypeType);
      if (o == nullptr) return false;
      o->type = d.type;
      o->name = PyUnicode_FromString(d.name);
      dtype_objects[i] = reinterpret_cast<PyObject*>(o);
    }
    if (PyModule_AddObjectRef(module, d.name, dtype_objects[i]) < 0) return false;
  }
  return true;
}

}  // namespace opd::python
