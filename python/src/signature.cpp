// Signatures read from the registry, and the conversions between Python
// values and the boxed values kernels read.
#include "signature.hpp"

#include <dispatch/dispatcher/boxed_defaults.hpp>
#include <dispatch/schema/printer.hpp>
#include <dispatch/schema/queries.hpp>

#include <climits>
#include <complex>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace opd::python {
namespace {

using schema::base_type;
using schema::type_kind;

std::string type_text(const schema::dynamic_schema& s, std::int16_t t) {
  schema::string_sink out;
  schema::print_type(s, t, out, [](const schema::type_node&, schema::string_sink&) {});
  return std::move(out.out);
}

Kind kind_of_base(base_type b) {
  switch (b) {
    case base_type::Tensor: return Kind::Tensor;
    case base_type::int_: case base_type::SymInt: case base_type::DeviceIndex: return Kind::Int;
    case base_type::float_: case base_type::SymFloat: return Kind::Float;
    case base_type::bool_: case base_type::SymBool: return Kind::Bool;
    case base_type::Scalar: return Kind::Scalar;
    case base_type::complex: return Kind::Complex;
    case base_type::str: case base_type::Dimname: return Kind::Str;
    case base_type::ScalarType: return Kind::Dtype;
    case base_type::Layout: return Kind::Layout;
    case base_type::MemoryFormat: return Kind::MemoryFormat;
    case base_type::Device: return Kind::Device;
    case base_type::Generator: return Kind::Generator;
    default: return Kind::Other;
  }
}

// The parameter kind of schema type t (optional unwrapped into `optional`).
void classify(const schema::dynamic_schema& s, std::int16_t t, Param& p) {
  const schema::type_node* n = &s.type(t);
  if (n->kind == type_kind::optional) {
    p.optional = true;
    n = &s.type(n->child);
  }
  if (n->kind == type_kind::base) {
    p.kind = kind_of_base(n->base);
    return;
  }
  if (n->kind != type_kind::list) return;  // tuples, dicts, type variables: Other
  p.fixed_size = n->fixed_size;
  const schema::type_node& e = s.type(n->child);
  if (e.kind == type_kind::optional && s.type(e.child).kind == type_kind::base && s.type(e.child).base == base_type::Tensor) {
    p.kind = Kind::OptTensorList;
    return;
  }
  if (e.kind != type_kind::base) return;
  switch (kind_of_base(e.base)) {
    case Kind::Int: p.kind = Kind::IntList; break;
    case Kind::Float: p.kind = Kind::FloatList; break;
    case Kind::Bool: p.kind = Kind::BoolList; break;
    case Kind::Tensor: p.kind = Kind::TensorList; break;
    case Kind::Scalar: p.kind = Kind::ScalarList; break;
    case Kind::Str: p.kind = Kind::StrList; break;
    default: break;
  }
}

std::unique_ptr<Signature> make_signature(const OperatorEntry& e) {
  auto sig = std::make_unique<Signature>();
  const schema::dynamic_schema& s = e.schema().value();
  sig->entry = &e;
  sig->name = opd::detail::str_cat(s.ns, s.ns.empty() ? "" : "::", s.name, s.overload.empty() ? "" : ".", s.overload);
  sig->schema_text = schema::to_string(s);
  sig->declared_text = std::string(s.text);
  sig->vararg = s.is_vararg;
  sig->max_positional = s.kwarg_marker == schema::no_index ? s.arguments.size() : static_cast<std::size_t>(s.kwarg_marker);
  for (const schema::argument& a : s.arguments) {
    Param p;
    p.name = std::string(a.name);
    p.py_name = PyUnicode_InternFromString(p.name.c_str());
    p.type_text = type_text(s, a.type);
    classify(s, a.type, p);
    p.kwarg_only = a.kwarg_only;
    p.is_out = schema::is_out(s, a);
    p.has_default = a.has_default;
    if (a.has_default) p.default_value = opd::detail::default_ivalue(s, a);
    sig->params.push_back(std::move(p));
  }
  for (const schema::argument& r : s.returns) {
    Param p;
    p.name = std::string(r.name);
    p.type_text = type_text(s, r.type);
    classify(s, r.type, p);
    sig->returns.push_back(std::move(p));
    // A write-annotated return is the argument of the same alias set: Python
    // gets back the object it passed (`x.add_(y) is x`, as in PyTorch).
    int same = -1;
    const std::optional<schema::alias_info> ra = schema::top_level_alias(s, r);
    if (ra && ra->is_write && ra->before.count > 0) {
      for (std::size_t k = 0; k < s.arguments.size() && same < 0; ++k) {
        const std::optional<schema::alias_info> aa = schema::top_level_alias(s, s.arguments[k]);
        if (aa && aa->is_write && aa->before.contains(ra->before.names[0])) same = static_cast<int>(k);
      }
    }
    sig->return_is_argument.push_back(same);
  }
  return sig;
}

// ---- Python value classification --------------------------------------------------------
bool is_bool(PyObject* o) {
  if (PyBool_Check(o)) return true;
  return std::string_view(Py_TYPE(o)->tp_name) == "numpy.bool_";
}
bool is_numpy_scalar(PyObject* o) {
  const std::string_view n = Py_TYPE(o)->tp_name;
  return n.starts_with("numpy.") && n != "numpy.ndarray";
}
bool is_int(PyObject* o) {
  if (PyLong_Check(o)) return !PyBool_Check(o);
  return is_numpy_scalar(o) && !is_bool(o) && Py_TYPE(o)->tp_as_number != nullptr &&
         Py_TYPE(o)->tp_as_number->nb_index != nullptr;
}
bool is_real(PyObject* o) {
  if (PyFloat_Check(o) || is_int(o)) return true;
  return is_numpy_scalar(o) && !is_bool(o) && !PyComplex_Check(o) && Py_TYPE(o)->tp_as_number != nullptr &&
         Py_TYPE(o)->tp_as_number->nb_float != nullptr && std::string_view(Py_TYPE(o)->tp_name).find("complex") == std::string_view::npos;
}
bool is_complex(PyObject* o) {
  return PyComplex_Check(o) || (is_numpy_scalar(o) && std::string_view(Py_TYPE(o)->tp_name).find("complex") != std::string_view::npos);
}
bool is_number(PyObject* o) { return is_bool(o) || is_real(o) || is_complex(o); }
bool is_sequence(PyObject* o) { return PyList_Check(o) || PyTuple_Check(o); }

bool accepts_tensor(PyObject* o, bool numbers) {
  return is_tensor(o) || (numbers && is_number(o)) || is_foreign_tensor(o);
}

template <class F>
bool all_elements(PyObject* seq, F&& f) {
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject** items = PySequence_Fast_ITEMS(seq);
  for (Py_ssize_t i = 0; i < n; ++i)
    if (!f(items[i])) return false;
  return true;
}

// ---- conversion ------------------------------------------------------------------------
[[noreturn]] void throw_python() { throw python_error(); }

std::int64_t int_value(PyObject* o) {
  int overflow = 0;
  std::int64_t v;
  if (PyLong_Check(o)) {
    v = PyLong_AsLongLongAndOverflow(o, &overflow);
  } else {
    PyObject* i = PyNumber_Index(o);
    if (i == nullptr) throw_python();
    v = PyLong_AsLongLongAndOverflow(i, &overflow);
    Py_DECREF(i);
  }
  if (overflow != 0) throw ValueError(opd::detail::str_cat("integer ", type_name_of(o), " out of the range of int64"));
  if (v == -1 && PyErr_Occurred()) throw_python();
  return v;
}
double real_value(PyObject* o) {
  const double v = PyFloat_Check(o) ? PyFloat_AS_DOUBLE(o) : PyFloat_AsDouble(o);
  if (v == -1.0 && PyErr_Occurred()) throw_python();
  return v;
}
std::complex<double> complex_value(PyObject* o) {
  const Py_complex c = PyComplex_AsCComplex(o);
  if (c.real == -1.0 && PyErr_Occurred()) throw_python();
  return {c.real, c.imag};
}
IValue scalar_value(PyObject* o) {
  if (is_bool(o)) return IValue(PyObject_IsTrue(o) == 1);
  if (is_int(o)) return IValue(int_value(o));
  if (is_real(o)) return IValue(real_value(o));
  return IValue(complex_value(o));
}
std::string string_value(PyObject* o) {
  Py_ssize_t n = 0;
  const char* c = PyUnicode_AsUTF8AndSize(o, &n);
  if (c == nullptr) throw_python();
  return std::string(c, static_cast<std::size_t>(n));
}

// A Python number given for a Tensor parameter: a 0-dim "wrapped number".
Tensor wrapped_number(PyObject* o) {
  const IValue v = scalar_value(o);
  const ScalarType dt = v.is_bool() ? ScalarType::Bool : v.is_int() ? ScalarType::Long
                        : v.is_double() ? ScalarType::Double : ScalarType::ComplexDouble;
  Tensor t = empty({}, dt);
  if (v.is_bool()) *t.data_ptr<bool>() = v.to_bool();
  else if (v.is_int()) *t.data_ptr<std::int64_t>() = v.to_int();
  else if (v.is_double()) *t.data_ptr<double>() = v.to_double();
  else *static_cast<std::complex<double>*>(t.data_ptr()) = v.to_complex_double();
  t.unsafe_get_impl()->set_wrapped_number(true);
  return t;
}

Tensor tensor_value(PyObject* o, bool numbers) {
  if (is_tensor(o)) return tensor_of(o);
  if (is_foreign_tensor(o)) return import_foreign(o);  // (before the number checks: the common case)
  if (numbers && is_number(o)) return wrapped_number(o);
  throw TypeError(opd::detail::str_cat("opdispatch: expected a tensor, got ", type_name_of(o)));
}

struct mismatch {};  // thrown by converters; the caller words the TypeError

IValue convert(const Param& p, PyObject* o, bool numbers) {
  if (o == Py_None) {
    if (p.optional || p.kind == Kind::Generator || p.kind == Kind::Other) return IValue();
    throw mismatch{};
  }
  switch (p.kind) {
    case Kind::Tensor:
      if (is_tensor(o)) return IValue(tensor_of(o));
      if (is_foreign_tensor(o)) return IValue(import_foreign(o));
      if (!numbers || !is_number(o)) throw mismatch{};
      return IValue(wrapped_number(o));
    case Kind::Int:
      if (!is_int(o)) throw mismatch{};
      return IValue(int_value(o));
    case Kind::Float:
      if (!is_real(o)) throw mismatch{};
      return IValue(real_value(o));
    case Kind::Bool:
      if (!is_bool(o)) throw mismatch{};
      return IValue(PyObject_IsTrue(o) == 1);
    case Kind::Scalar:
      if (!is_number(o)) {
        // A 0-dim tensor stands for its value, as PyTorch's Scalar arguments take one.
        if (is_tensor(o) && tensor_of(o).dim() == 0 && tensor_of(o).is_cpu()) {
          PyObject* item = PyObject_CallMethod(o, "item", nullptr);
          if (item == nullptr) throw_python();
          IValue v = scalar_value(item);
          Py_DECREF(item);
          return v;
        }
        throw mismatch{};
      }
      return scalar_value(o);
    case Kind::Complex:
      if (!is_number(o) || is_bool(o)) throw mismatch{};
      return IValue(complex_value(o));
    case Kind::Str:
      if (!PyUnicode_Check(o)) throw mismatch{};
      return IValue(string_value(o));
    case Kind::Dtype: {
      ScalarType t;
      if (!parse_dtype(o, t)) throw mismatch{};
      return IValue(static_cast<std::int64_t>(t));
    }
    case Kind::Layout: {
      std::int64_t l;
      if (!parse_layout(o, l)) throw mismatch{};
      return IValue(l);
    }
    case Kind::MemoryFormat: {
      std::int64_t m;
      if (!parse_memory_format(o, m)) throw mismatch{};
      return IValue(m);
    }
    case Kind::Device: {
      Device d = Device::cpu();
      if (!parse_device(o, d)) throw mismatch{};
      return IValue(d);
    }
    case Kind::IntList: {
      if (p.fixed_size > 0 && is_int(o)) return IValue(std::vector<std::int64_t>(static_cast<std::size_t>(p.fixed_size), int_value(o)));
      if (!is_sequence(o) || !all_elements(o, is_int)) throw mismatch{};
      std::vector<std::int64_t> v;
      v.reserve(static_cast<std::size_t>(PySequence_Fast_GET_SIZE(o)));
      all_elements(o, [&](PyObject* e) { v.push_back(int_value(e)); return true; });
      return IValue(std::move(v));
    }
    case Kind::FloatList: {
      if (p.fixed_size > 0 && is_real(o)) return IValue(std::vector<double>(static_cast<std::size_t>(p.fixed_size), real_value(o)));
      if (!is_sequence(o) || !all_elements(o, is_real)) throw mismatch{};
      std::vector<double> v;
      all_elements(o, [&](PyObject* e) { v.push_back(real_value(e)); return true; });
      return IValue(std::move(v));
    }
    case Kind::BoolList: {
      if (p.fixed_size > 0 && is_bool(o)) return IValue(std::vector<bool>(static_cast<std::size_t>(p.fixed_size), PyObject_IsTrue(o) == 1));
      if (!is_sequence(o) || !all_elements(o, is_bool)) throw mismatch{};
      std::vector<bool> v;
      all_elements(o, [&](PyObject* e) { v.push_back(PyObject_IsTrue(e) == 1); return true; });
      return IValue(std::move(v));
    }
    case Kind::TensorList: {
      if (!is_sequence(o) || !all_elements(o, [](PyObject* e) { return accepts_tensor(e, false); })) throw mismatch{};
      std::vector<Tensor> v;
      all_elements(o, [&](PyObject* e) { v.push_back(tensor_value(e, false)); return true; });
      return IValue(std::move(v));
    }
    case Kind::OptTensorList: {
      if (!is_sequence(o) || !all_elements(o, [](PyObject* e) { return e == Py_None || accepts_tensor(e, false); }))
        throw mismatch{};
      std::vector<std::optional<Tensor>> v;
      all_elements(o, [&](PyObject* e) {
        v.push_back(e == Py_None ? std::optional<Tensor>() : std::optional<Tensor>(tensor_value(e, false)));
        return true;
      });
      return IValue(std::move(v));
    }
    case Kind::ScalarList: {
      if (!is_sequence(o) || !all_elements(o, is_number)) throw mismatch{};
      std::vector<IValue> v;
      all_elements(o, [&](PyObject* e) { v.push_back(scalar_value(e)); return true; });
      return IValue(std::move(v));
    }
    case Kind::StrList: {
      if (!is_sequence(o) || !all_elements(o, [](PyObject* e) { return PyUnicode_Check(e) != 0; })) throw mismatch{};
      std::vector<std::string> v;
      all_elements(o, [&](PyObject* e) { v.push_back(string_value(e)); return true; });
      return IValue(std::move(v));
    }
    case Kind::Generator: throw mismatch{};  // only None (above)
    case Kind::Other: break;
  }
  // Anything else: the plain value; the kernel's unboxing decides.
  if (is_tensor(o)) return IValue(tensor_of(o));
  if (is_number(o)) return scalar_value(o);
  if (PyUnicode_Check(o)) return IValue(string_value(o));
  if (is_sequence(o)) {
    std::vector<IValue> items;
    Param any;
    all_elements(o, [&](PyObject* e) { items.push_back(convert(any, e, numbers)); return true; });
    if (PyTuple_Check(o)) return IValue::tuple(std::move(items));
    return IValue(std::move(items));
  }
  throw mismatch{};
}

}  // namespace

const Signature& signature_of(const OperatorEntry& e) {
  // Never destroyed: signatures live as long as the entries they describe.
  static std::mutex& mutex = *new std::mutex;
  static auto& cache = *new std::unordered_map<const OperatorEntry*, std::unique_ptr<Signature>>;
  static auto& replaced = *new std::vector<std::unique_ptr<Signature>>;
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Signature>& slot = cache[&e];
  if (slot && slot->declared_text != e.schema().value().text) replaced.push_back(std::move(slot));
  if (!slot) slot = make_signature(e);
  return *slot;
}

bool is_current(const Signature& sig) noexcept {
  const OperatorEntry& e = *sig.entry;
  return e.has_schema() && e.schema().value().text == sig.declared_text;
}

void check_current(const Signature& sig) {
  if (!is_current(sig)) [[unlikely]]
    throw Error(opd::detail::str_cat(sig.name, ": the operator was removed or declared again since this object was made; ",
                                     "look it up again (opdispatch.ops...)"));
}

bool accepts(const Param& p, PyObject* o, bool numbers) {
  if (o == Py_None) return p.optional || p.kind == Kind::Generator || p.kind == Kind::Other;
  switch (p.kind) {
    case Kind::Tensor: return accepts_tensor(o, numbers);
    case Kind::Int: return is_int(o);
    case Kind::Float: return is_real(o);
    case Kind::Bool: return is_bool(o);
    case Kind::Scalar: return is_number(o) || (is_tensor(o) && tensor_of(o).dim() == 0);
    case Kind::Complex: return is_number(o) && !is_bool(o);
    case Kind::Str: return PyUnicode_Check(o) != 0;
    case Kind::Dtype: { ScalarType t; return parse_dtype(o, t); }
    case Kind::Layout: { std::int64_t l; return parse_layout(o, l); }
    case Kind::MemoryFormat: { std::int64_t m; return parse_memory_format(o, m); }
    case Kind::Device: { Device d = Device::cpu(); return parse_device(o, d); }
    case Kind::IntList: return (p.fixed_size > 0 && is_int(o)) || (is_sequence(o) && all_elements(o, is_int));
    case Kind::FloatList: return (p.fixed_size > 0 && is_real(o)) || (is_sequence(o) && all_elements(o, is_real));
    case Kind::BoolList: return (p.fixed_size > 0 && is_bool(o)) || (is_sequence(o) && all_elements(o, is_bool));
    case Kind::TensorList: return is_sequence(o) && all_elements(o, [](PyObject* e) { return accepts_tensor(e, false); });
    case Kind::OptTensorList:
      return is_sequence(o) && all_elements(o, [](PyObject* e) { return e == Py_None || accepts_tensor(e, false); });
    case Kind::ScalarList: return is_sequence(o) && all_elements(o, is_number);
    case Kind::StrList: return is_sequence(o) && all_elements(o, [](PyObject* e) { return PyUnicode_Check(e) != 0; });
    case Kind::Generator: return false;
    case Kind::Other: return true;
  }
  return false;
}

IValue to_ivalue(const Param& p, PyObject* o, std::string_view op, std::size_t position) {
  try {
    return convert(p, o, true);
  } catch (const mismatch&) {
    throw TypeError(opd::detail::str_cat(op, "(): argument '", p.name, "' (position ", position + 1, ") must be ",
                                         p.type_text, ", not ", type_name_of(o)));
  }
}

IValue to_ivalue(const Signature& sig, std::size_t k, PyObject* o) {
  const Param& p = sig.params[k];
  // The common cases first, without a call: a tensor of ours, an int, a float.
  if (p.kind == Kind::Tensor && is_tensor(o)) return IValue(tensor_of(o));
  return to_ivalue(p, o, sig.name, k);
}

PyObject* to_python(const IValue& v, const Param* p) {
  if (v.is_tensor()) {
    const Tensor& t = v.to_tensor();
    if (!t.defined()) Py_RETURN_NONE;
    return wrap(t);
  }
  if (v.is_none()) Py_RETURN_NONE;
  if (v.is_int()) {
    if (p != nullptr && p->kind == Kind::Dtype && is_valid_scalar_type(v.to_int()))
      return dtype_object(static_cast<ScalarType>(v.to_int()));
    return PyLong_FromLongLong(v.to_int());
  }
  if (v.is_double()) return PyFloat_FromDouble(v.to_double());
  if (v.is_bool()) return PyBool_FromLong(v.to_bool());
  if (v.is_complex_double()) {
    const std::complex<double> c = v.to_complex_double();
    return PyComplex_FromDoubles(c.real(), c.imag());
  }
  if (v.is_string()) {
    const std::string& s = v.to_string_ref();
    return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
  }
  if (v.is_device()) return device_object(v.to_device());
  const auto list_of = [](const auto& items, auto&& one) -> PyObject* {
    PyObject* l = PyList_New(static_cast<Py_ssize_t>(items.size()));
    if (l == nullptr) return nullptr;
    Py_ssize_t i = 0;
    for (const auto& e : items) {
      PyObject* x = one(e);
      if (x == nullptr) {
        Py_DECREF(l);
        return nullptr;
      }
      PyList_SET_ITEM(l, i++, x);
    }
    return l;
  };
  if (v.is_tensor_list()) return list_of(v.to_tensor_list(), [](const Tensor& t) { return wrap(t); });
  if (v.is_optional_tensor_list())
    return list_of(v.to_optional_tensor_list(), [](const std::optional<Tensor>& t) -> PyObject* {
      if (!t || !t->defined()) Py_RETURN_NONE;
      return wrap(*t);
    });
  if (v.is_int_list()) return list_of(v.to_int_list(), [](std::int64_t x) { return PyLong_FromLongLong(x); });
  if (v.is_double_list()) return list_of(v.to_double_list(), [](double x) { return PyFloat_FromDouble(x); });
  if (v.is_bool_list()) {
    const std::vector<bool>& b = v.to_bool_list();
    std::vector<int> as_int(b.begin(), b.end());
    return list_of(as_int, [](int x) { return PyBool_FromLong(x); });
  }
  if (v.is_string_list())
    return list_of(v.to_string_list(), [](const std::string& s) {
      return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
    });
  if (v.is_generic_list()) return list_of(v.to_generic_list(), [](const IValue& e) { return to_python(e, nullptr); });
  if (v.is_tuple()) {
    const auto& items = v.to_tuple();
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(items.size()));
    if (t == nullptr) return nullptr;
    for (std::size_t i = 0; i < items.size(); ++i) {
      PyObject* x = to_python(items[i], nullptr);
      if (x == nullptr) {
        Py_DECREF(t);
        return nullptr;
      }
      PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), x);
    }
    return t;
  }
  PyErr_Format(PyExc_TypeError, "opdispatch: a value of kind %s has no Python form", std::string(v.tag_kind()).c_str());
  return nullptr;
}

std::string signature_text(const Signature& sig) { return sig.schema_text; }

}  // namespace opd::python
