// Operators as Python callables: OpOverload (one schema) and OpPacket (every
// overload of a name, resolved from the argument types in PyTorch's order).
// Both are vectorcall objects over one argument binder (bind_and_call).
#include "operators.hpp"

#include <algorithm>
#include <optional>

namespace opd::python {
namespace {

// ---- binding Python arguments to a schema --------------------------------------------------
// The bound objects, one per parameter (null: not given); small operators use no heap.
struct bound_arguments {
  PyObject* small[24];
  std::vector<PyObject*> large;
  PyObject** slots;
  explicit bound_arguments(std::size_t n) : slots(small) {
    if (n > std::size(small)) {
      large.assign(n, nullptr);
      slots = large.data();
    } else {
      std::fill_n(small, n, nullptr);
    }
  }
};

std::ptrdiff_t find_param(const Signature& sig, PyObject* key) {
  for (std::size_t k = 0; k < sig.params.size(); ++k)
    if (sig.params[k].py_name == key) return static_cast<std::ptrdiff_t>(k);
  for (std::size_t k = 0; k < sig.params.size(); ++k)
    if (PyUnicode_Compare(sig.params[k].py_name, key) == 0) return static_cast<std::ptrdiff_t>(k);
  return -1;
}

// Binds positional and keyword arguments; on failure returns the reason (no exception set).
std::optional<std::string> bind(const Signature& sig, PyObject* const* args, std::size_t nargs, PyObject* kwnames,
                                bound_arguments& b) {
  const std::size_t n = sig.params.size();
  if (nargs > sig.max_positional && !sig.vararg)
    return opd::detail::str_cat(sig.name, "() takes ", sig.max_positional, " positional argument",
                                sig.max_positional == 1 ? "" : "s", " but ", nargs, " were given");
  for (std::size_t i = 0; i < nargs && i < n; ++i) b.slots[i] = args[i];
  if (kwnames != nullptr) {
    const Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t j = 0; j < nkw; ++j) {
      PyObject* key = PyTuple_GET_ITEM(kwnames, j);
      const std::ptrdiff_t k = find_param(sig, key);
      if (k < 0) return opd::detail::str_cat(sig.name, "() got an unexpected keyword argument '", PyUnicode_AsUTF8(key), "'");
      if (b.slots[k] != nullptr)
        return opd::detail::str_cat(sig.name, "() got multiple values for argument '", sig.params[static_cast<std::size_t>(k)].name, "'");
      b.slots[k] = args[nargs + static_cast<std::size_t>(j)];
    }
  }
  for (std::size_t k = 0; k < n; ++k)
    if (b.slots[k] == nullptr && !sig.params[k].has_default)
      return opd::detail::str_cat(sig.name, "() missing required argument '", sig.params[k].name, "' (position ", k + 1,
                                  ")");
  return std::nullopt;
}

// This thread's stack, reused between calls; a nested call (a Python kernel
// calling an operator) gets a fresh one.
struct stack_lease {
  Stack* stack;
  std::optional<Stack> fresh;
  bool owned;
  static Stack& shared() {
    thread_local Stack s;
    return s;
  }
  static bool& in_use() {
    thread_local bool b = false;
    return b;
  }
  stack_lease() : owned(!in_use()) {
    stack = owned ? &shared() : &fresh.emplace();
    if (owned) in_use() = true;
  }
  ~stack_lease() {
    stack->clear();
    if (owned) in_use() = false;
  }
};

// Elements a call touches above which the GIL is released while the kernel runs.
constexpr std::int64_t release_gil_above = 1 << 15;

PyObject* results_to_python(const Signature& sig, Stack& stack, const bound_arguments& b) {
  const std::size_t nret = stack.size();
  const auto one = [&](std::size_t r) -> PyObject* {
    if (r < sig.return_is_argument.size()) {
      const int k = sig.return_is_argument[r];
      if (k >= 0 && b.slots[k] != nullptr && b.slots[k] != Py_None) return Py_NewRef(b.slots[k]);
    }
    return to_python(stack[r], r < sig.returns.size() ? &sig.returns[r] : nullptr);
  };
  if (nret == 0) Py_RETURN_NONE;
  if (nret == 1) return one(0);
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(nret));
  if (t == nullptr) return nullptr;
  for (std::size_t r = 0; r < nret; ++r) {
    PyObject* x = one(r);
    if (x == nullptr) {
      Py_DECREF(t);
      return nullptr;
    }
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(r), x);
  }
  return t;
}

}  // namespace

namespace {

// Converts the bound arguments, calls, converts the results.
PyObject* call_bound(const Signature& sig, const bound_arguments& b, PyObject* const* args, std::size_t nargs) {
  const std::size_t n = sig.params.size();
  try {
    check_current(sig);
    stack_lease lease;
    Stack& stack = *lease.stack;
    stack.reserve(std::max(n, nargs));
    std::int64_t work = 0;
    for (std::size_t k = 0; k < n; ++k) {
      PyObject* o = b.slots[k];
      if (o == nullptr) {
        stack.push_back(sig.params[k].default_value);
      } else if (is_tensor(o) && sig.params[k].kind == Kind::Tensor) {
        const Tensor& t = tensor_of(o);  // lent for the call: the caller holds o
        work += t.numel();
        stack.emplace_back(opd::borrow, t);
      } else {
        stack.push_back(to_ivalue(sig, k, o));
        if (stack.back().is_tensor()) work += stack.back().to_tensor().numel();
      }
    }
    for (std::size_t i = n; i < nargs; ++i) {  // (vararg)
      static const Param any;
      stack.push_back(to_ivalue(any, args[i], sig.name, i));
    }
    if (work > release_gil_above) {
      PyThreadState* ts = PyEval_SaveThread();
      try {
        call_boxed(*sig.entry, stack);
      } catch (...) {
        PyEval_RestoreThread(ts);
        throw;
      }
      PyEval_RestoreThread(ts);
    } else {
      call_boxed(*sig.entry, stack);
    }
    return results_to_python(sig, stack, b);
  } catch (...) {
    set_error_from_current_exception();
    return nullptr;
  }
}

// Binds into b; whether the arguments fit sig (no conversion, no exception).
bool bind_if_matches(const Signature& sig, PyObject* const* args, std::size_t nargs, PyObject* kwnames, bool numbers,
                     bound_arguments& b) {
  if (bind(sig, args, nargs, kwnames, b)) return false;
  for (std::size_t k = 0; k < sig.params.size(); ++k)
    if (b.slots[k] != nullptr && !accepts(sig.params[k], b.slots[k], numbers)) return false;
  return true;
}

}  // namespace

PyObject* call_signature(const Signature& sig, PyObject* const* args, std::size_t nargs, PyObject* kwnames) {
  bound_arguments b(sig.params.size());
  if (std::optional<std::string> why = bind(sig, args, nargs, kwnames, b)) return raise_type_error(*why);
  return call_bound(sig, b, args, nargs);
}

// ---- the order PyTorch's Python bindings try overloads in ----------------------------------
// torchgen's sort_overloads: a signature whose arguments are each equal to, or
// "smaller" than, another's (Scalar < Tensor, int[] < int, Dimname last, ...)
// is tried after it; a stable topological sort over that partial order.
namespace {

std::vector<const Param*> non_out(const Signature& s) {
  std::vector<const Param*> v;
  for (const Param& p : s.params)
    if (!p.is_out) v.push_back(&p);
  return v;
}

bool arg_smaller(std::string_view t1, std::string_view t2) {
  const auto has = [](std::string_view t, std::string_view x) { return t.find(x) != std::string_view::npos; };
  const auto is_int_list = [](std::string_view t) { return t.starts_with("int[") && t.ends_with("]"); };
  return (t1 == "Scalar" && t2 == "Tensor") || (t1 == "Scalar?" && t2 == "Tensor?") ||
         (has(t1, "Dimname") && !has(t2, "Dimname")) || (is_int_list(t1) && (t2 == "int" || t2 == "int?")) ||
         (t1 == "Tensor[]" && has(t2, "[]")) || (t1.starts_with("SymInt[") && is_int_list(t2)) ||
         ((t1 == "SymInt" || t1 == "int") && t2 == "Tensor");
}

bool signature_smaller(const Signature& s1, const Signature& s2) {
  const std::vector<const Param*> a1 = non_out(s1), a2 = non_out(s2);
  if (a1.size() != a2.size()) return false;
  bool equal = true, smaller_or_equal = true;
  for (std::size_t i = 0; i < a1.size(); ++i) {
    const bool same = a1[i]->type_text == a2[i]->type_text;
    equal = equal && same;
    smaller_or_equal = smaller_or_equal && (same || arg_smaller(a1[i]->type_text, a2[i]->type_text));
  }
  return smaller_or_equal && !equal;
}

std::string argument_list(const Signature& s) {
  std::string out;
  for (const Param* p : non_out(s)) out += p->type_text + " " + p->name + ",";
  return out;
}

}  // namespace

std::vector<const Signature*> pytorch_order(std::vector<const Signature*> overloads) {
  std::stable_sort(overloads.begin(), overloads.end(),
                   [](const Signature* a, const Signature* b) { return argument_list(*a) < argument_list(*b); });
  const std::size_t n = overloads.size();
  std::vector<std::vector<std::size_t>> larger_than(n);  // i is smaller than each of larger_than[i]
  bool any = false;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (signature_smaller(*overloads[i], *overloads[j])) larger_than[i].push_back(j), any = true;
  if (!any) return overloads;
  std::vector<std::size_t> order;
  std::vector<bool> placed(n, false);
  for (std::size_t i = 0; i < n; ++i)
    if (larger_than[i].empty()) order.push_back(i), placed[i] = true;
  for (std::size_t idx = 0; idx < order.size(); ++idx) {
    const std::size_t i = order[idx];
    for (std::size_t j = 0; j < n; ++j) {
      if (placed[j]) continue;
      auto& l = larger_than[j];
      l.erase(std::remove(l.begin(), l.end(), i), l.end());
      if (l.empty()) order.push_back(j), placed[j] = true;
    }
  }
  for (std::size_t i = 0; i < n; ++i)  // (a cycle cannot occur; kept for safety)
    if (!placed[i]) order.push_back(i);
  std::vector<const Signature*> out;
  for (std::size_t i : order) out.push_back(overloads[i]);
  return out;
}

// ---- OpOverload ----------------------------------------------------------------------------
namespace {

PyObject* overload_vectorcall(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  return call_signature(*reinterpret_cast<PyOverload*>(self)->sig, args, PyVectorcall_NARGS(nargsf), kwnames);
}

void overload_dealloc(PyObject* self) {
  Py_XDECREF(reinterpret_cast<PyOverload*>(self)->overload_name);
  Py_TYPE(self)->tp_free(self);
}

PyObject* overload_repr(PyObject* self) {
  return PyUnicode_FromFormat("<OpOverload %s>", reinterpret_cast<PyOverload*>(self)->sig->name.c_str());
}

// A method descriptor, as a Python function is: `Tensor.add = ops.aten.add.Tensor`
// makes t.add(u) call it with t first, and pydoc documents it as a routine.
PyObject* bind_descriptor(PyObject* self, PyObject* obj, PyObject*) {
  if (obj == nullptr || obj == Py_None) return Py_NewRef(self);
  return PyMethod_New(self, obj);
}

PyObject* overload_doc(PyObject* self, void*) {
  const Signature& s = *reinterpret_cast<PyOverload*>(self)->sig;
  return PyUnicode_FromFormat("%s\n\nThe operator %s, called through opdispatch's boxed dispatcher.", s.schema_text.c_str(),
                              s.name.c_str());
}
PyObject* overload_name(PyObject* self, void*) {
  return PyUnicode_FromString(reinterpret_cast<PyOverload*>(self)->sig->name.c_str());
}
PyObject* overload_schema(PyObject* self, void*) {
  return PyUnicode_FromString(reinterpret_cast<PyOverload*>(self)->sig->schema_text.c_str());
}
PyObject* overload_overloadname(PyObject* self, void*) {
  return Py_NewRef(reinterpret_cast<PyOverload*>(self)->overload_name);
}
PyObject* overload_text_signature(PyObject*, void*) { Py_RETURN_NONE; }

PyGetSetDef overload_getset[] = {
    {"__doc__", overload_doc, nullptr, nullptr, nullptr},
    {"__name__", overload_name, nullptr, nullptr, nullptr},
    {"__qualname__", overload_name, nullptr, nullptr, nullptr},
    {"__text_signature__", overload_text_signature, nullptr, nullptr, nullptr},
    {"schema", overload_schema, nullptr, "the schema, as the registry prints it", nullptr},
    {"overloadname", overload_overloadname, nullptr, "the overload name ('default' for none)", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

}  // namespace

PyTypeObject OverloadType = make_type("opdispatch._C.OpOverload", sizeof(PyOverload),
                                      Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR, nullptr);

PyObject* make_overload(const Signature& sig) {
  auto* o = PyObject_New(PyOverload, &OverloadType);
  if (o == nullptr) return nullptr;
  o->vectorcall = overload_vectorcall;
  o->sig = &sig;
  const std::size_t dot = sig.name.rfind('.');
  const std::size_t colon = sig.name.rfind("::");
  const bool has_overload = dot != std::string::npos && (colon == std::string::npos || dot > colon);
  o->overload_name = PyUnicode_FromString(has_overload ? sig.name.c_str() + dot + 1 : "default");
  return reinterpret_cast<PyObject*>(o);
}

// ---- OpPacket ------------------------------------------------------------------------------
namespace {

// The overloads of "ns::name" now in the registry, in PyTorch's order.
std::vector<const Signature*> find_overloads(const std::string& qualified) {
  std::vector<const Signature*> found;
  Dispatcher& d = Dispatcher::singleton();
  const std::string prefix = qualified + ".";
  for (const std::string& n : d.operator_names())
    if (n == qualified || n.starts_with(prefix))
      if (const OperatorEntry* e = d.find_schema(n)) found.push_back(&signature_of(*e));
  return pytorch_order(std::move(found));
}

PyObject* packet_no_match(PyPacket* p, PyObject* const* args, std::size_t nargs, PyObject* kwnames) {
  std::string got;
  for (std::size_t i = 0; i < nargs; ++i) got += (i ? ", " : "") + type_name_of(args[i]);
  if (kwnames != nullptr)
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(kwnames); ++j)
      got += std::string(got.empty() ? "" : ", ") + PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, j)) + "=" +
             type_name_of(args[nargs + static_cast<std::size_t>(j)]);
  std::string text = opd::detail::str_cat(p->qualified, "() received an invalid combination of arguments - got (", got,
                                          "), but expected one of:");
  for (const Signature* s : p->overloads) text += "\n * " + s->schema_text;
  if (p->overloads.empty()) text = opd::detail::str_cat(p->qualified, ": no overload is declared any more");
  return raise_type_error(text);
}

PyObject* packet_vectorcall(PyObject* self, PyObject* const* args, std::size_t nargsf, PyObject* kwnames) {
  auto* p = reinterpret_cast<PyPacket*>(self);
  const std::size_t nargs = PyVectorcall_NARGS(nargsf);
  for (int attempt = 0; attempt < 2; ++attempt) {
    // A Python number matches a Tensor parameter only when no overload takes
    // it as it is. The match's binding is the call's: arguments bound once.
    // (A match whose operator was declared again since the packet read it:
    // look again.)
    bool stale = false;
    for (const bool numbers : {false, true}) {
      for (const Signature* s : p->overloads) {
        bound_arguments b(s->params.size());
        if (!bind_if_matches(*s, args, nargs, kwnames, numbers, b)) continue;
        if (attempt == 1 || is_current(*s)) return call_bound(*s, b, args, nargs);
        stale = true;
        break;
      }
      if (stale) break;
    }
    if (attempt == 0) {  // overloads declared (or redeclared) since: look again once
      try {
        p->overloads = find_overloads(p->qualified);
      } catch (...) {
        set_error_from_current_exception();
        return nullptr;
      }
    }
  }
  return packet_no_match(p, args, nargs, kwnames);
}

void packet_dealloc(PyObject* self) {
  auto* p = reinterpret_cast<PyPacket*>(self);
  Py_XDECREF(p->cache);
  p->overloads.~vector();
  p->qualified.~basic_string();
  Py_TYPE(self)->tp_free(self);
}

PyObject* packet_repr(PyObject* self) {
  return PyUnicode_FromFormat("<OpOverloadPacket %s>", reinterpret_cast<PyPacket*>(self)->qualified.c_str());
}

// packet.Tensor, packet.default: the overload of that name.
PyObject* packet_getattro(PyObject* self, PyObject* name) {
  auto* p = reinterpret_cast<PyPacket*>(self);
  if (PyObject* cached = PyDict_GetItemWithError(p->cache, name)) return Py_NewRef(cached);
  if (PyErr_Occurred()) return nullptr;
  const char* n = PyUnicode_AsUTF8(name);
  if (n == nullptr) return nullptr;
  if (n[0] == '_' && n[1] == '_') return PyObject_GenericGetAttr(self, name);
  return guarded([&]() -> PyObject* {
    const std::string want = std::string_view(n) == "default" ? p->qualified : p->qualified + "." + n;
    const OperatorEntry* e = Dispatcher::singleton().find_schema(want);
    if (e == nullptr) {
      PyObject* generic = PyObject_GenericGetAttr(self, name);
      if (generic != nullptr) return generic;
      PyErr_Clear();
      PyErr_Format(PyExc_AttributeError, "operator %s has no overload '%s'", p->qualified.c_str(), n);
      return nullptr;
    }
    PyObject* o = make_overload(signature_of(*e));
    if (o != nullptr && PyDict_SetItem(p->cache, name, o) < 0) Py_CLEAR(o);
    return o;
  });
}

PyObject* packet_overloads(PyObject* self, PyObject*) {
  auto* p = reinterpret_cast<PyPacket*>(self);
  return guarded([&]() -> PyObject* {
    p->overloads = find_overloads(p->qualified);
    PyObject* l = PyList_New(0);
    for (const Signature* s : p->overloads) {
      const std::size_t dot = s->name.rfind('.');
      const std::size_t colon = s->name.rfind("::");
      const bool has = dot != std::string::npos && dot > colon;
      PyObject* x = PyUnicode_FromString(has ? s->name.c_str() + dot + 1 : "default");
      PyList_Append(l, x);
      Py_DECREF(x);
    }
    return l;
  });
}
PyObject* packet_doc(PyObject* self, void*) {
  auto* p = reinterpret_cast<PyPacket*>(self);
  std::string text = p->qualified + ": overloads, in the order a call tries them:";
  for (const Signature* s : p->overloads) text += "\n  " + s->schema_text;
  return PyUnicode_FromString(text.c_str());
}
PyObject* packet_name(PyObject* self, void*) { return PyUnicode_FromString(reinterpret_cast<PyPacket*>(self)->qualified.c_str()); }

PyMethodDef packet_methods[] = {
    {"overloads", packet_overloads, METH_NOARGS, "the overload names, in the order a call tries them"},
    {nullptr, nullptr, 0, nullptr},
};
PyGetSetDef packet_getset[] = {
    {"__doc__", packet_doc, nullptr, nullptr, nullptr},
    {"__name__", packet_name, nullptr, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

}  // namespace

PyTypeObject PacketType = make_type("opdispatch._C.OpOverloadPacket", sizeof(PyPacket),
                                    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR, nullptr);

PyObject* make_packet(const std::string& qualified) {
  std::vector<const Signature*> overloads = find_overloads(qualified);
  if (overloads.empty()) {
    PyErr_Format(PyExc_AttributeError, "no operator named '%s' is declared", qualified.c_str());
    return nullptr;
  }
  auto* p = PyObject_New(PyPacket, &PacketType);
  if (p == nullptr) return nullptr;
  p->vectorcall = packet_vectorcall;
  new (&p->qualified) std::string(qualified);
  new (&p->overloads) std::vector<const Signature*>(std::move(overloads));
  p->cache = PyDict_New();
  return reinterpret_cast<PyObject*>(p);
}

bool init_operator_types(PyObject* module) {
  OverloadType.tp_vectorcall_offset = offsetof(PyOverload, vectorcall);
  OverloadType.tp_call = PyVectorcall_Call;
  OverloadType.tp_dealloc = overload_dealloc;
  OverloadType.tp_repr = overload_repr;
  OverloadType.tp_descr_get = bind_descriptor;
  OverloadType.tp_getset = overload_getset;
  if (!add_type(module, "OpOverload", OverloadType)) return false;
  PacketType.tp_vectorcall_offset = offsetof(PyPacket, vectorcall);
  PacketType.tp_call = PyVectorcall_Call;
  PacketType.tp_dealloc = packet_dealloc;
  PacketType.tp_repr = packet_repr;
  PacketType.tp_getattro = packet_getattro;
  PacketType.tp_descr_get = bind_descriptor;
  PacketType.tp_methods = packet_methods;
  PacketType.tp_getset = packet_getset;
  return add_type(module, "OpOverloadPacket", PacketType);
}

}  // namespace opd::python
