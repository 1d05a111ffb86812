#pragma once
// The C ABI's C++ helpers (handles.hpp, shim.hpp declare them): errors,
// conversions off the hot path. Compiled once in libopdispatch (src/c_abi.cpp),
// inline under OPD_HEADER_ONLY. The extern "C" functions of opd_c.h are in
// c_entry_points-inl.hpp.
#include <complex>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dispatch/c_abi/handles.hpp"
#include "dispatch/core/error.hpp"

namespace opd::c_abi {

namespace detail {
// This thread's last error (opd_last_error()).
inline std::string& last_error() noexcept {
  thread_local std::string message;
  return message;
}
}  // namespace detail

OPD_FUNC std::int32_t fail(std::int32_t status, std::string_view message) noexcept {
  try {
    detail::last_error().assign(message.data(), message.size());
  } catch (...) {  // no memory for the message: keep the status
    detail::last_error().clear();
  }
  return status;
}

OPD_FUNC std::int32_t status_from_current_exception() noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return fail(OPD_ERR_OUT_OF_MEMORY, "out of memory");
  } catch (const ValueError& e) {
    return fail(OPD_ERR_INVALID_ARGUMENT, e.what());
  } catch (const TypeError& e) {
    return fail(OPD_ERR_INVALID_ARGUMENT, e.what());
  } catch (const std::exception& e) {
    return fail(OPD_ERR_OPERATOR, e.what());
  } catch (...) {
    return fail(OPD_ERR_OPERATOR, "unknown exception");
  }
}

namespace detail {

OPD_FUNC void throw_null_tensor(std::string_view op, std::string_view arg) {
  throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': expected a tensor handle, got NULL"));
}
OPD_FUNC void throw_bad_scalar(std::string_view op, std::string_view arg, std::int32_t tag) {
  throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': unknown opd_scalar tag ", tag,
                           " (expected OPD_SCALAR_INT, _DOUBLE, _BOOL or _COMPLEX)"));
}
OPD_FUNC void throw_bad_list(std::string_view op, std::string_view arg, std::int64_t length) {
  throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': a list of length ", length,
                           length < 0 ? " (expected a length >= 0)" : " with a NULL data pointer"));
}
OPD_FUNC void throw_bad_dtype(std::string_view op, std::string_view arg, std::int64_t code) {
  throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': unknown dtype code ", code));
}

// Tensor handles freed on this thread, kept for its next new_tensor: a boxed
// call hands out a new handle per tensor result, and a caller releases it
// soon after; reusing the block costs a push and a pop instead of a malloc
// and a free. At most `capacity` blocks wait; the rest go back to the heap,
// as all of them do when the thread ends.
// (Under AddressSanitizer no block is kept, so that a handle used after its
// release is still reported.)
struct tensor_handle_cache {
#if defined(__SANITIZE_ADDRESS__)
  static constexpr int capacity = 0;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  static constexpr int capacity = 0;
#else
  static constexpr int capacity = 16;
#endif
#else
  static constexpr int capacity = 16;
#endif
  void* blocks[capacity > 0 ? capacity : 1];
  int count = 0;
  bool alive = true;  // false once the thread's destructors ran: plain new and delete then
  ~tensor_handle_cache() {
    while (count > 0) ::operator delete(blocks[--count]);
    alive = false;
  }
};
inline tensor_handle_cache& handle_cache() noexcept {
  thread_local tensor_handle_cache cache;
  return cache;
}

OPD_FUNC opd_tensor new_tensor(Tensor t) {
  tensor_handle_cache& c = handle_cache();
  if (c.count > 0) return new (c.blocks[--c.count]) opd_tensor_s{std::move(t)};  // (0 once the thread ends)
  return new opd_tensor_s{std::move(t)};
}
OPD_FUNC void delete_tensor(opd_tensor t) noexcept {
  if (t == nullptr) return;
  t->~opd_tensor_s();
  tensor_handle_cache& c = handle_cache();
  if (c.alive && c.count < tensor_handle_cache::capacity) c.blocks[c.count++] = t;
  else ::operator delete(t);
}
OPD_FUNC opd_value new_value(IValue v) { return new opd_value_s{std::move(v)}; }

namespace runtime {
[[noreturn]] inline void throw_bad_code(std::string_view op, std::string_view arg, std::string_view what, std::int64_t code) {
  throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': unknown ", what, " code ", code));
}
inline Device device_from_c(std::int32_t type, std::int64_t index, std::string_view op, std::string_view arg) {
  if (type < 0 || type >= kNumDeviceTypes) throw_bad_code(op, arg, "device type", type);
  if (index < -1 || index > 127) throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': bad device index ", index));
  return Device(static_cast<DeviceType>(type), static_cast<DeviceIndex>(index));
}

// One element of C type `f.base` at `p` (schema leaf `f.leaf`).
inline IValue leaf_ivalue(const c_form& f, const void* p, std::int64_t second, std::string_view op, std::string_view arg) {
  using BT = schema::base_type;
  switch (f.base) {
    case c_base::tensor: {
      const opd_tensor h = *static_cast<const opd_tensor*>(p);
      if (h == nullptr) throw_null_tensor(op, arg);
      return IValue(h->t);
    }
    case c_base::i64: return IValue(*static_cast<const std::int64_t*>(p));
    case c_base::f64: return IValue(*static_cast<const double*>(p));
    case c_base::str: {
      const char* s = *static_cast<const opd_str*>(p);
      if (s == nullptr) throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': expected a string, got NULL"));
      return IValue(std::string(s));
    }
    case c_base::scalar: return IValue(scalar_from_c(*static_cast<const opd_scalar*>(p), op, arg));
    case c_base::complex: {
      const opd_complex c = *static_cast<const opd_complex*>(p);
      return IValue(std::complex<double>(c.re, c.im));
    }
    case c_base::any: return ivalue_from_any(*static_cast<const opd_any*>(p), op, arg);
    case c_base::value: {
      const opd_value v = *static_cast<const opd_value*>(p);
      if (v == nullptr) throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': expected a value handle, got NULL"));
      return v->v;
    }
    case c_base::i32: break;
  }
  const std::int32_t code = *static_cast<const std::int32_t*>(p);
  switch (f.leaf) {
    case BT::bool_:
    case BT::SymBool: return IValue(code != 0);
    case BT::ScalarType:
      if (!is_valid_scalar_type(code)) throw_bad_dtype(op, arg, code);
      return IValue(static_cast<std::int64_t>(code));
    case BT::Layout:
      if (code < 0 || code >= static_cast<std::int32_t>(Layout::NumOptions)) throw_bad_code(op, arg, "layout", code);
      return IValue(static_cast<std::int64_t>(code));
    case BT::MemoryFormat:
      if (code < 0 || code >= kNumMemoryFormats) throw_bad_code(op, arg, "memory format", code);
      return IValue(static_cast<std::int64_t>(code));
    case BT::Device: return IValue(device_from_c(code, second, op, arg));
    default: return IValue(static_cast<std::int64_t>(code));  // QScheme
  }
}

inline std::size_t c_size(c_base b) {
  switch (b) {
    case c_base::tensor: return sizeof(opd_tensor);
    case c_base::i64: return sizeof(std::int64_t);
    case c_base::f64: return sizeof(double);
    case c_base::i32: return sizeof(std::int32_t);
    case c_base::str: return sizeof(opd_str);
    case c_base::scalar: return sizeof(opd_scalar);
    case c_base::complex: return sizeof(opd_complex);
    case c_base::any: return sizeof(opd_any);
    case c_base::value: return sizeof(opd_value);
  }
  return 1;
}

inline IValue list_ivalue(const c_form& f, const void* data, std::int64_t length, std::string_view op, std::string_view arg) {
  using BT = schema::base_type;
  if (length < 0 || (data == nullptr && length > 0)) throw_bad_list(op, arg, length);
  if (f.fixed_size >= 0 && length != f.fixed_size && length != 1)
    throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': expected a list of ", f.fixed_size, " elements, got ", length));
  // T[N] given one value stands for N copies of it (as PyTorch reads `int[2] stride=1`).
  const bool repeated = f.fixed_size > 1 && length == 1;
  const auto n = static_cast<std::size_t>(repeated ? f.fixed_size : length);
  const std::size_t step = f.optional_elements ? sizeof(const void*) : c_size(f.base);
  const auto element = [&](std::size_t i) -> std::optional<IValue> {
    const void* p = static_cast<const char*>(data) + (repeated ? 0 : i) * step;
    if (f.optional_elements) {
      p = *static_cast<const void* const*>(p);
      if (p == nullptr) return std::nullopt;
    }
    return leaf_ivalue(f, p, 0, op, arg);
  };
  if (f.base == c_base::tensor && f.optional_elements) {
    std::vector<std::optional<Tensor>> v(n);
    for (std::size_t i = 0; i < n; ++i)
      if (std::optional<IValue> e = element(i)) v[i] = std::move(*e).to_tensor();
    return IValue(std::move(v));
  }
  std::vector<IValue> items;
  items.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::optional<IValue> e = element(i);
    items.push_back(e ? std::move(*e) : IValue());
  }
  if (!f.optional_elements) {  // the typed list kinds the IValue conversions expect
    switch (f.base) {
      case c_base::tensor: {
        std::vector<Tensor> v;
        for (IValue& e : items) v.push_back(std::move(e).to_tensor());
        return IValue(std::move(v));
      }
      case c_base::i64: {
        std::vector<std::int64_t> v;
        for (IValue& e : items) v.push_back(e.to_int());
        return IValue(std::move(v));
      }
      case c_base::f64: {
        std::vector<double> v;
        for (IValue& e : items) v.push_back(e.to_double());
        return IValue(std::move(v));
      }
      case c_base::str: {
        std::vector<std::string> v;
        for (IValue& e : items) v.push_back(std::move(e).to_string_ref());
        return IValue(std::move(v));
      }
      case c_base::i32:
        if (f.leaf == BT::bool_ || f.leaf == BT::SymBool) {
          std::vector<bool> v;
          for (IValue& e : items) v.push_back(e.to_bool());
          return IValue(std::move(v));
        }
        break;
      default: break;
    }
  }
  return IValue(std::move(items));
}
}  // namespace runtime

OPD_FUNC IValue ivalue_from_c(const c_form& f, const void* first, std::int64_t second, std::string_view op,
                              std::string_view arg) {
  switch (f.shape) {
    case c_shape::leaf:
    case c_shape::any: return runtime::leaf_ivalue(f, first, second, op, arg);
    case c_shape::optional: {
      const void* p = *static_cast<const void* const*>(first);
      if (p == nullptr) return IValue();
      return runtime::leaf_ivalue(f, p, second, op, arg);
    }
    case c_shape::list: return runtime::list_ivalue(f, *static_cast<const void* const*>(first), second, op, arg);
    case c_shape::optional_list: {
      const void* p = *static_cast<const void* const*>(first);
      if (p == nullptr) return IValue();
      return runtime::list_ivalue(f, *static_cast<const void* const*>(p), second, op, arg);
    }
  }
  return IValue();
}

OPD_FUNC IValue ivalue_from_any(const opd_any& a, std::string_view op, std::string_view arg) {
  switch (a.tag) {
    case OPD_TAG_NONE: return IValue();
    case OPD_TAG_INT: return IValue(a.v.i);
    case OPD_TAG_DOUBLE: return IValue(a.v.d);
    case OPD_TAG_BOOL: return IValue(a.v.i != 0);
    case OPD_TAG_STRING:
      if (a.v.s == nullptr) throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': a string value with a NULL pointer"));
      return IValue(std::string(a.v.s));
    case OPD_TAG_TENSOR:
      if (a.v.tensor == nullptr) throw_null_tensor(op, arg);
      return IValue(a.v.tensor->t);
    case OPD_TAG_LIST:
      if (a.v.value == nullptr) throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': a list value with a NULL handle"));
      return a.v.value->v;
    case OPD_TAG_DEVICE: return IValue(runtime::device_from_c(a.v.device.type, a.v.device.index, op, arg));
    case OPD_TAG_DTYPE:
      if (!is_valid_scalar_type(a.v.i32)) throw_bad_dtype(op, arg, a.v.i32);
      return IValue(static_cast<std::int64_t>(a.v.i32));
    default: throw ValueError(opd::detail::str_cat(op, ": argument '", arg, "': unknown opd_any tag ", a.tag));
  }
}

}  // namespace detail
}  // namespace opd::c_abi
