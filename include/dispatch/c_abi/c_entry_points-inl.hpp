#pragma once
// The extern "C" functions of opd_c.h: errors, tensor handles, DLPack,
// values and the boxed call. Each catches everything (catch (...), bad_alloc
// included) and returns a status. Compiled once into libopdispatch
// (src/c_abi.cpp); a header-only program that needs them includes this file
// in exactly one of its translation units.
#include <dlpack/dlpack.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dispatch/c_abi/dlpack.hpp"
#include "dispatch/c_abi/handles.hpp"
#include "dispatch/c_abi/opd_c.h"
#include "dispatch/c_abi/runtime-inl.hpp"
#include "dispatch/dispatcher/call.hpp"
#include "dispatch/dispatcher/boxed_defaults.hpp"
#include "dispatch/dispatcher/dispatcher.hpp"
#include "dispatch/schema/printer.hpp"
#include "dispatch/schema/runtime.hpp"

namespace opd::c_abi::detail {

inline ScalarType dtype_from_code(std::int64_t code, const char* function) {
  if (!is_valid_scalar_type(code)) throw ValueError(opd::detail::str_cat(function, ": unknown dtype code ", code));
  return static_cast<ScalarType>(code);
}

// ---- the boxed call ---------------------------------------------------------------
// (Schema defaults as values: dispatcher/boxed_defaults.hpp.)
using opd::detail::default_ivalue;

// A result as a boxed value: flat values in place, tensors as new handles,
// everything else (lists, strings, tuples) as a new opd_value.
inline opd_any any_from_ivalue(IValue v) {
  opd_any a{};
  if (v.is_none()) a.tag = OPD_TAG_NONE;
  else if (v.is_int()) a.tag = OPD_TAG_INT, a.v.i = v.to_int();
  else if (v.is_double()) a.tag = OPD_TAG_DOUBLE, a.v.d = v.to_double();
  else if (v.is_bool()) a.tag = OPD_TAG_BOOL, a.v.i = v.to_bool();
  else if (v.is_tensor()) a.tag = OPD_TAG_TENSOR, a.v.tensor = new_tensor(std::move(v).to_tensor());
  else if (v.is_device()) {
    const Device d = v.to_device();
    a.tag = OPD_TAG_DEVICE, a.v.device.type = static_cast<std::int32_t>(d.type()), a.v.device.index = d.index();
  } else a.tag = OPD_TAG_LIST, a.v.value = new_value(std::move(v));
  return a;
}

// Element i of a list or tuple value (the value itself, i == 0, otherwise).
inline IValue element_of(const IValue& v, std::int64_t i) {
  const auto at = [&](const auto& vec) -> IValue {
    if (i < 0 || static_cast<std::size_t>(i) >= vec.size())
      throw IndexError(opd::detail::str_cat("opd_value_get: index ", i, " out of range for ", vec.size(), " elements"));
    return IValue(vec[static_cast<std::size_t>(i)]);
  };
  if (v.is_tensor_list()) return at(v.to_tensor_list());
  if (v.is_optional_tensor_list()) return at(v.to_optional_tensor_list());
  if (v.is_int_list()) return at(v.to_int_list());
  if (v.is_double_list()) return at(v.to_double_list());
  if (v.is_bool_list()) {
    const std::vector<bool>& b = v.to_bool_list();
    if (i < 0 || static_cast<std::size_t>(i) >= b.size()) throw IndexError(opd::detail::str_cat("opd_value_get: index ", i, " out of range"));
    return IValue(static_cast<bool>(b[static_cast<std::size_t>(i)]));
  }
  if (v.is_string_list()) return at(v.to_string_list());
  if (v.is_generic_list()) return at(v.to_generic_list());
  if (v.is_tuple()) return at(v.to_tuple());
  if (i != 0) throw IndexError(opd::detail::str_cat("opd_value_get: index ", i, " of a value that is not a list"));
  return v;
}
inline std::int64_t size_of(const IValue& v) {
  if (v.is_tensor_list()) return static_cast<std::int64_t>(v.to_tensor_list().size());
  if (v.is_optional_tensor_list()) return static_cast<std::int64_t>(v.to_optional_tensor_list().size());
  if (v.is_int_list()) return static_cast<std::int64_t>(v.to_int_list().size());
  if (v.is_double_list()) return static_cast<std::int64_t>(v.to_double_list().size());
  if (v.is_bool_list()) return static_cast<std::int64_t>(v.to_bool_list().size());
  if (v.is_string_list()) return static_cast<std::int64_t>(v.to_string_list().size());
  if (v.is_generic_list()) return static_cast<std::int64_t>(v.to_generic_list().size());
  if (v.is_tuple()) return static_cast<std::int64_t>(v.to_tuple().size());
  return 1;
}

// ---- the boxed call's argument checks and conversions -----------------------------
// A boxed argument is checked against its schema type, and converted where the
// C caller's form differs from the one the kernel's unboxing reads: int to
// float (also inside lists), lists built by opd_value_list (a generic list of
// BOOLs, STRINGs or tensors and NONEs) to the typed list the schema names, a
// bare number for T[N] to N copies. Types the C tags cannot express (type
// variables, tuples, Dict, Generator, ...) pass unchecked: the kernel's
// unboxing decides.
struct conform_context {
  std::string_view op, arg;
  const schema::dynamic_schema& s;
  std::int16_t full_type;  // the argument's type, for messages
};

[[noreturn]] inline void throw_mismatch(const conform_context& c, std::string_view where, const IValue& got) {
  schema::string_sink type;
  schema::print_type(c.s, c.full_type, type, [](const schema::type_node&, schema::string_sink&) {});
  throw ValueError(opd::detail::str_cat(c.op, ": argument '", c.arg, "'", where, ": expected ", type.out, ", got ",
                                        got.is_borrowed() ? std::string_view("Tensor") : got.tag_kind()));
}

inline bool is_float_type(schema::base_type b) { return b == schema::base_type::float_ || b == schema::base_type::SymFloat; }
inline bool is_int_type(schema::base_type b) {
  return b == schema::base_type::int_ || b == schema::base_type::SymInt || b == schema::base_type::DeviceIndex;
}
inline bool is_bool_type(schema::base_type b) { return b == schema::base_type::bool_ || b == schema::base_type::SymBool; }

// One value of base type b, or throws; `where` names the list element.
inline IValue conform_leaf(IValue v, schema::base_type b, const conform_context& c, std::string_view where) {
  using BT = schema::base_type;
  bool ok = true;
  switch (b) {
    case BT::Tensor: ok = v.is_tensor(); break;
    case BT::int_: case BT::SymInt: case BT::DeviceIndex: ok = v.is_int(); break;
    case BT::float_: case BT::SymFloat:
      if (v.is_int()) return IValue(static_cast<double>(v.to_int()));
      ok = v.is_double();
      break;
    case BT::bool_: case BT::SymBool: ok = v.is_bool(); break;
    case BT::str: case BT::Dimname: ok = v.is_string(); break;
    case BT::Scalar: ok = v.is_int() || v.is_double() || v.is_bool() || v.is_complex_double(); break;
    case BT::complex:
      if (v.is_int() || v.is_double()) return IValue(std::complex<double>(v.is_int() ? static_cast<double>(v.to_int()) : v.to_double(), 0.0));
      ok = v.is_complex_double();
      break;
    case BT::ScalarType: case BT::Layout: case BT::MemoryFormat: case BT::QScheme: ok = v.is_int(); break;
    case BT::Device: ok = v.is_device(); break;
    default: break;  // Generator, Storage, Stream, ...: unchecked
  }
  if (!ok) throw_mismatch(c, where, v);
  return v;
}

inline IValue conform(IValue v, std::int16_t t, const conform_context& c, std::string_view where);

inline std::string element_where(std::string_view where, std::size_t i) {
  return opd::detail::str_cat(where, where.empty() ? " element " : ", element ", i);
}

// A list for list type node n.
inline IValue conform_list(IValue v, const schema::type_node& n, const conform_context& c, std::string_view where) {
  using TK = schema::type_kind;
  const schema::type_node& e = c.s.type(n.child);
  const bool base = e.kind == TK::base;
  // A bare number for T[N] stands for N copies (as PyTorch reads `int[2] stride=1`).
  if (!v.is_list() && !v.is_tuple() && n.fixed_size > 0 && base &&
      (is_int_type(e.base) || is_float_type(e.base) || is_bool_type(e.base))) {
    const IValue one = conform_leaf(std::move(v), e.base, c, where);
    const auto count = static_cast<std::size_t>(n.fixed_size);
    if (one.is_int()) return IValue(std::vector<std::int64_t>(count, one.to_int()));
    if (one.is_double()) return IValue(std::vector<double>(count, one.to_double()));
    return IValue(std::vector<bool>(count, one.to_bool()));
  }
  if (!v.is_list()) throw_mismatch(c, where, v);
  // Already the typed list the kernel reads.
  if (base && ((is_int_type(e.base) && v.is_int_list()) || (is_float_type(e.base) && v.is_double_list()) ||
               (is_bool_type(e.base) && v.is_bool_list()) || (e.base == schema::base_type::str && v.is_string_list()) ||
               (e.base == schema::base_type::Tensor && v.is_tensor_list())))
    return v;
  const bool optional_tensors = e.kind == TK::optional && c.s.type(e.child).kind == TK::base &&
                                c.s.type(e.child).base == schema::base_type::Tensor;
  if (optional_tensors && v.is_optional_tensor_list()) return v;
  // Element by element, each conformed to the element type.
  const std::size_t count = static_cast<std::size_t>(size_of(v));
  std::vector<IValue> items;
  items.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    items.push_back(conform(element_of(v, static_cast<std::int64_t>(i)), n.child, c, element_where(where, i)));
  if (optional_tensors) {
    std::vector<std::optional<Tensor>> l(count);
    for (std::size_t i = 0; i < count; ++i)
      if (!items[i].is_none()) l[i] = std::move(items[i]).to_tensor();
    return IValue(std::move(l));
  }
  if (base) {
    const auto typed = [&](auto element) {
      using E = typename decltype(element)::type;
      std::vector<E> l;
      l.reserve(count);
      for (IValue& x : items) l.push_back(std::move(x).template to<E>());
      return IValue(std::move(l));
    };
    if (is_int_type(e.base)) return typed(std::type_identity<std::int64_t>{});
    if (is_float_type(e.base)) return typed(std::type_identity<double>{});
    if (is_bool_type(e.base)) return typed(std::type_identity<bool>{});
    if (e.base == schema::base_type::str) return typed(std::type_identity<std::string>{});
    if (e.base == schema::base_type::Tensor) return typed(std::type_identity<Tensor>{});
  }
  return IValue(std::move(items));  // Device[], Scalar[], int[][], int?[], ...: a generic list of checked elements
}

inline IValue conform(IValue v, std::int16_t t, const conform_context& c, std::string_view where) {
  const schema::type_node& n = c.s.type(t);
  switch (n.kind) {
    case schema::type_kind::base: return conform_leaf(std::move(v), n.base, c, where);
    case schema::type_kind::optional:
      if (v.is_none()) return v;
      return conform(std::move(v), n.child, c, where);
    case schema::type_kind::list: return conform_list(std::move(v), n, c, where);
    default: return v;  // type variables, tuples, Dict, ...: unchecked
  }
}

// What opd_call_boxed knows of one argument before any call.
struct boxed_argument {
  enum class kind : std::uint8_t {
    tensor,  // Tensor, Tensor? (any alias annotation): a TENSOR is lent for the call
    number,  // int, SymInt, Scalar: an INT / DOUBLE (Scalar) goes in as it is
    real,    // float, SymFloat: an INT becomes a double
    other,   // checked and converted by conform()
  };
  kind how = kind::other;
  bool has_default = false;
  IValue default_value;  // the schema default as the kernel reads it
};

}  // namespace opd::c_abi::detail

// An operator found by name, with what its boxed calls need, computed once.
// Handles are never freed (an OperatorEntry lives as long as the process).
struct opd_op_s {
  const opd::OperatorEntry* entry = nullptr;
  const opd::schema::dynamic_schema* schema = nullptr;
  std::string name;  // "ns::name.overload", for messages
  std::vector<opd::c_abi::detail::boxed_argument> arguments;
};

namespace opd::c_abi::detail {

inline opd_op make_op(const OperatorEntry& e) {
  auto op = std::make_unique<opd_op_s>();
  op->entry = &e;
  op->schema = &e.schema().value();
  const schema::dynamic_schema& s = *op->schema;
  op->name = opd::detail::str_cat(s.ns.empty() ? "" : s.ns, s.ns.empty() ? "" : "::", s.name,
                                  s.overload.empty() ? "" : ".", s.overload);
  for (const schema::argument& a : s.arguments) {
    boxed_argument b;
    const schema::type_node& n = s.type(a.type);
    using BT = schema::base_type;
    const bool optional_tensor = n.kind == schema::type_kind::optional && s.type(n.child).kind == schema::type_kind::base &&
                                 s.type(n.child).base == BT::Tensor;
    if (optional_tensor) {
      b.how = boxed_argument::kind::tensor;
    } else if (n.kind == schema::type_kind::base) {
      if (n.base == BT::Tensor) b.how = boxed_argument::kind::tensor;
      else if (n.base == BT::int_ || n.base == BT::SymInt || n.base == BT::Scalar) b.how = boxed_argument::kind::number;
      else if (is_float_type(n.base)) b.how = boxed_argument::kind::real;
    }
    b.has_default = a.has_default;
    if (a.has_default) b.default_value = default_ivalue(s, a);
    op->arguments.push_back(std::move(b));
  }
  return op.release();
}

// The handle of `name`: found once per process (the registry's lock and a
// map), then kept.
inline opd_op find_op(std::string_view name) {
  // Never destroyed (as the handles it holds): a handle used from another
  // static destructor at exit stays valid, and leak checkers see them reachable.
  static std::mutex& mutex = *new std::mutex;
  static std::unordered_map<std::string, opd_op>& found = *new std::unordered_map<std::string, opd_op>;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = found.find(std::string(name)); it != found.end()) return it->second;
  }
  const OperatorEntry& e = Dispatcher::singleton().find_schema_or_throw(name);  // (takes the registry's lock)
  std::lock_guard<std::mutex> lock(mutex);
  opd_op& slot = found[std::string(name)];
  if (slot == nullptr) {
    for (const auto& [other_name, other] : found)  // another spelling of the same operator
      if (other != nullptr && other->entry == &e) slot = other;
    if (slot == nullptr) slot = make_op(e);
  }
  return slot;
}

// This thread's state between boxed calls: the last operator named (a
// repeated name costs a strcmp) and a stack whose capacity is kept.
struct boxed_thread_state {
  std::string last_name;
  opd_op last_op = nullptr;
  Stack stack;
  bool stack_in_use = false;  // a kernel calling back into the boxed entry gets a fresh stack
};
inline boxed_thread_state& thread_state() {
  thread_local boxed_thread_state state;
  return state;
}

inline std::int32_t call_op(boxed_thread_state& ts, opd_op op, const opd_any* args, std::int64_t nargs, opd_any* results,
                            std::int64_t max_results, std::int64_t* nresults) {
  const schema::dynamic_schema& s = *op->schema;
  const std::string_view name = op->name;
  const std::size_t n = op->arguments.size();
  if (static_cast<std::size_t>(nargs) > n && !s.is_vararg)
    return invalid(opd::detail::str_cat(name, ": expected at most ", n, " arguments, got ", nargs));
  std::optional<Stack> fresh;  // (only made for a nested call)
  Stack& stack = ts.stack_in_use ? fresh.emplace() : ts.stack;
  struct release_stack {
    Stack& stack;
    bool& in_use;
    bool owned;
    ~release_stack() {
      stack.clear();
      if (owned) in_use = false;
    }
  } release{stack, ts.stack_in_use, !ts.stack_in_use};
  ts.stack_in_use = true;
  if (const std::size_t need = std::max<std::size_t>(n, static_cast<std::size_t>(nargs)); stack.capacity() < need)
    stack.reserve(need);
  using K = boxed_argument::kind;
  for (std::int64_t i = 0; i < nargs; ++i) {
    const std::size_t k = static_cast<std::size_t>(i);
    const opd_any& a = args[i];
    if (k >= n) {  // (vararg)
      stack.push_back(ivalue_from_any(a, name, "..."));
      continue;
    }
    const K how = op->arguments[k].how;
    if (a.tag == OPD_TAG_TENSOR && a.v.tensor != nullptr && how == K::tensor) {  // lent for the call: no count traffic
      stack.emplace_back(opd::borrow, a.v.tensor->t);
      continue;
    }
    if (a.tag == OPD_TAG_INT && (how == K::number || how == K::real)) {
      if (how == K::real) stack.emplace_back(static_cast<double>(a.v.i));
      else stack.emplace_back(a.v.i);
      continue;
    }
    const std::string_view arg = s.arguments[k].name;
    const conform_context c{name, arg, s, s.arguments[k].type};
    stack.push_back(conform(ivalue_from_any(a, name, arg), s.arguments[k].type, c, ""));
  }
  for (std::size_t k = static_cast<std::size_t>(nargs); k < n; ++k) {
    if (!op->arguments[k].has_default)
      return invalid(opd::detail::str_cat(name, ": argument '", s.arguments[k].name, "' (position ", k,
                                          ") was not given and has no default"));
    stack.push_back(op->arguments[k].default_value);
  }
  opd::call_boxed(*op->entry, stack);
  const std::int64_t count = static_cast<std::int64_t>(stack.size());
  for (std::int64_t r = 0; r < count && r < max_results; ++r)
    results[r] = any_from_ivalue(std::move(stack[static_cast<std::size_t>(r)]));
  if (nresults != nullptr) *nresults = count;
  return OPD_OK;
}

inline std::int32_t check_call_arrays(std::string_view name, const opd_any* args, std::int64_t nargs, opd_any* results,
                                      std::int64_t max_results) {
  if (nargs < 0 || (nargs > 0 && args == nullptr))
    return invalid(opd::detail::str_cat("opd_call_boxed: ", name, ": bad argument array of length ", nargs));
  if (max_results < 0 || (max_results > 0 && results == nullptr))
    return invalid(opd::detail::str_cat("opd_call_boxed: ", name, ": bad result array of length ", max_results));
  return OPD_OK;
}

}  // namespace opd::c_abi::detail


extern "C" {

OPD_C_API const char* opd_last_error(void) { return opd::c_abi::detail::last_error().c_str(); }

// ---- tensors -------------------------------------------------------------------------
OPD_C_API int32_t opd_tensor_from_data(void* data, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                                       int32_t dtype, int32_t device_type, int32_t device_index,
                                       opd_deleter deleter, void* context, opd_tensor* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_from_data: out is NULL");
    if (ndim < 0 || ndim > 64) return invalid(opd::detail::str_cat("opd_tensor_from_data: bad ndim ", ndim));
    if (ndim > 0 && sizes == nullptr) return invalid("opd_tensor_from_data: sizes is NULL");
    for (int64_t d = 0; d < ndim; ++d)
      if (sizes[d] < 0) return invalid(opd::detail::str_cat("opd_tensor_from_data: negative size ", sizes[d]));
    const opd::ScalarType st = dtype_from_code(dtype, "opd_tensor_from_data");
    const opd::Device device = runtime::device_from_c(device_type, device_index, "opd_tensor_from_data", "device");
    std::vector<int64_t> sz(sizes, sizes + ndim), st_(static_cast<std::size_t>(ndim));
    if (strides != nullptr) {
      st_.assign(strides, strides + ndim);
    } else {
      int64_t s = 1;
      for (int64_t d = ndim - 1; d >= 0; --d) st_[static_cast<std::size_t>(d)] = s, s *= std::max<int64_t>(sz[static_cast<std::size_t>(d)], 1);
    }
    std::function<void(void*)> on_free;
    if (deleter != nullptr) on_free = [deleter, context](void* p) { deleter(p, context); };
    *out = new_tensor(opd::from_blob(data, sz, st_, st, device, std::move(on_free)));
    return OPD_OK;
  });
}

OPD_C_API int32_t opd_tensor_empty(int64_t ndim, const int64_t* sizes, int32_t dtype, int32_t device_type,
                                   int32_t device_index, opd_tensor* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_empty: out is NULL");
    if (ndim < 0 || ndim > 64) return invalid(opd::detail::str_cat("opd_tensor_empty: bad ndim ", ndim));
    if (ndim > 0 && sizes == nullptr) return invalid("opd_tensor_empty: sizes is NULL");
    for (int64_t d = 0; d < ndim; ++d)
      if (sizes[d] < 0) return invalid(opd::detail::str_cat("opd_tensor_empty: negative size ", sizes[d]));
    const opd::ScalarType st = dtype_from_code(dtype, "opd_tensor_empty");
    const opd::Device device = runtime::device_from_c(device_type, device_index, "opd_tensor_empty", "device");
    *out = new_tensor(opd::empty(std::vector<int64_t>(sizes, sizes + ndim), st, device));
    return OPD_OK;
  });
}

OPD_C_API int32_t opd_tensor_release(opd_tensor t) {
  opd::c_abi::detail::delete_tensor(t);
  return OPD_OK;
}

OPD_C_API int32_t opd_tensor_ndim(opd_tensor t, int64_t* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_ndim: out is NULL");
    *out = tensor_of(t, "opd_tensor_ndim").dim();
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_sizes(opd_tensor t, const int64_t** out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_sizes: out is NULL");
    *out = tensor_of(t, "opd_tensor_sizes").sizes().data();
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_strides(opd_tensor t, const int64_t** out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_strides: out is NULL");
    *out = tensor_of(t, "opd_tensor_strides").strides().data();
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_dtype(opd_tensor t, int32_t* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_dtype: out is NULL");
    *out = static_cast<int32_t>(tensor_of(t, "opd_tensor_dtype").dtype());
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_device(opd_tensor t, int32_t* type, int32_t* index) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    const opd::Device d = tensor_of(t, "opd_tensor_device").device();
    if (type != nullptr) *type = static_cast<int32_t>(d.type());
    if (index != nullptr) *index = d.index();
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_tensor_data_ptr(opd_tensor t, void** out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_tensor_data_ptr: out is NULL");
    *out = tensor_of(t, "opd_tensor_data_ptr").data_ptr();
    return OPD_OK;
  });
}

// ---- DLPack ------------------------------------------------------------------------------
OPD_C_API int32_t opd_tensor_from_dlpack(void* managed, opd_tensor* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (managed == nullptr) return invalid("opd_tensor_from_dlpack: managed tensor is NULL");
    if (out == nullptr) return invalid("opd_tensor_from_dlpack: out is NULL");
    *out = new_tensor(opd::tensor_from_dlpack(static_cast<DLManagedTensor*>(managed)));
    return OPD_OK;
  });
}

OPD_C_API int32_t opd_tensor_to_dlpack(opd_tensor t, void** managed_out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (managed_out == nullptr) return invalid("opd_tensor_to_dlpack: out is NULL");
    *managed_out = opd::tensor_to_dlpack(tensor_of(t, "opd_tensor_to_dlpack"));
    return OPD_OK;
  });
}

// ---- values ------------------------------------------------------------------------------
OPD_C_API int32_t opd_value_kind(opd_value v, int32_t* kind) {
  using namespace opd::c_abi::detail;
  if (v == nullptr || kind == nullptr) return invalid("opd_value_kind: NULL value or out");
  const opd::IValue& iv = v->v;
  *kind = iv.is_none() ? OPD_VALUE_NONE
          : iv.is_list() ? OPD_VALUE_LIST
          : iv.is_string() ? OPD_VALUE_STRING
          : iv.is_tuple() ? OPD_VALUE_TUPLE
                          : OPD_VALUE_OTHER;
  return OPD_OK;
}


OPD_C_API int32_t opd_value_size(opd_value v, int64_t* size) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (v == nullptr || size == nullptr) return invalid("opd_value_size: NULL value or out");
    *size = size_of(v->v);
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_value_get(opd_value v, int64_t i, opd_any* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (v == nullptr || out == nullptr) return invalid("opd_value_get: NULL value or out");
    opd::IValue e = element_of(v->v, i);
    if (e.is_string()) {  // a pointer into v's own storage
      const opd::IValue& held = v->v.is_string() ? v->v : opd::IValue();
      if (v->v.is_string_list()) {
        out->tag = OPD_TAG_STRING, out->v.s = v->v.to_string_list()[static_cast<std::size_t>(i)].c_str();
        return OPD_OK;
      }
      if (held.is_string()) {
        out->tag = OPD_TAG_STRING, out->v.s = v->v.to_string_ref().c_str();
        return OPD_OK;
      }
    }
    *out = any_from_ivalue(std::move(e));
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_value_string(opd_value v, const char** out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (v == nullptr || out == nullptr) return invalid("opd_value_string: NULL value or out");
    if (!v->v.is_string()) return invalid("opd_value_string: the value is not a string");
    *out = v->v.to_string_ref().c_str();
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_value_list(const opd_any* items, int64_t n, opd_value* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (out == nullptr) return invalid("opd_value_list: out is NULL");
    if (n < 0 || (n > 0 && items == nullptr)) return invalid(opd::detail::str_cat("opd_value_list: bad list of length ", n));
    std::vector<opd::IValue> v;
    v.reserve(static_cast<std::size_t>(n));
    bool all_int = true, all_double = true, all_tensor = true;
    for (int64_t i = 0; i < n; ++i) {
      v.push_back(ivalue_from_any(items[i], "opd_value_list", "items"));
      all_int = all_int && v.back().is_int();
      all_double = all_double && v.back().is_double();
      all_tensor = all_tensor && v.back().is_tensor();
    }
    // Typed lists where the elements agree, as the kernels' list types expect.
    if (n > 0 && all_int) {
      std::vector<int64_t> l;
      for (auto& e : v) l.push_back(e.to_int());
      *out = new_value(opd::IValue(std::move(l)));
    } else if (n > 0 && all_double) {
      std::vector<double> l;
      for (auto& e : v) l.push_back(e.to_double());
      *out = new_value(opd::IValue(std::move(l)));
    } else if (n > 0 && all_tensor) {
      std::vector<opd::Tensor> l;
      for (auto& e : v) l.push_back(std::move(e).to_tensor());
      *out = new_value(opd::IValue(std::move(l)));
    } else {
      *out = new_value(opd::IValue(std::move(v)));
    }
    return OPD_OK;
  });
}
OPD_C_API int32_t opd_value_release(opd_value v) {
  delete v;
  return OPD_OK;
}

// ---- the boxed call ------------------------------------------------------------------------
OPD_C_API int32_t opd_call_boxed(const char* name, const opd_any* args, int64_t nargs, opd_any* results,
                                 int64_t max_results, int64_t* nresults) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (name == nullptr) return invalid("opd_call_boxed: operator name is NULL");
    if (const int32_t bad = check_call_arrays(name, args, nargs, results, max_results)) return bad;
    boxed_thread_state& ts = thread_state();
    if (ts.last_op == nullptr || std::strcmp(ts.last_name.c_str(), name) != 0) {
      ts.last_op = nullptr;
      opd_op op = find_op(name);
      ts.last_name = name;
      ts.last_op = op;
    }
    return call_op(ts, ts.last_op, args, nargs, results, max_results, nresults);
  });
}

OPD_C_API int32_t opd_op_find(const char* name, opd_op* out) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (name == nullptr) return invalid("opd_op_find: operator name is NULL");
    if (out == nullptr) return invalid("opd_op_find: out is NULL");
    *out = find_op(name);
    return OPD_OK;
  });
}

OPD_C_API int32_t opd_op_call_boxed(opd_op op, const opd_any* args, int64_t nargs, opd_any* results,
                                    int64_t max_results, int64_t* nresults) {
  using namespace opd::c_abi::detail;
  return guarded([&]() -> int32_t {
    if (op == nullptr) return invalid("opd_op_call_boxed: operator handle is NULL");
    if (const int32_t bad = check_call_arrays(op->name, args, nargs, results, max_results)) return bad;
    return call_op(thread_state(), op, args, nargs, results, max_results, nresults);
  });
}

}  // extern "C"
