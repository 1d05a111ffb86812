#pragma once
// The C++ side of opd_c.h's handles, and the out-of-line helpers the shims
// call (runtime-inl.hpp defines them): the conversions that are not on the
// hot path, and the one function that turns an exception into a status.
//
// An opd_tensor points at a heap opd::Tensor, so that a shim binds a kernel's
// `const Tensor&` / `Tensor&` to it with no reference-count traffic.
#include "dispatch/config.hpp"  // first: a pre-C++20 compile stops with one readable error
#include <cstdint>
#include <string_view>
#include <utility>

#include "dispatch/c_abi/c_types.hpp"
#include "dispatch/c_abi/opd_c.h"
#include "dispatch/core/ivalue.hpp"
#include "dispatch/core/tensor.hpp"

struct opd_tensor_s {
  opd::Tensor t;
};
struct opd_value_s {
  opd::IValue v;
};

namespace opd::c_abi {

// The status for the exception being handled (call only inside a catch),
// its message kept as this thread's last error. Never throws.
OPD_API std::int32_t status_from_current_exception() noexcept;
// Sets this thread's last error and returns `status`.
OPD_API std::int32_t fail(std::int32_t status, std::string_view message) noexcept;

namespace detail {

// Errors naming the operator and the argument (thrown as opd::Error's family).
[[noreturn]] OPD_API void throw_null_tensor(std::string_view op, std::string_view arg);
[[noreturn]] OPD_API void throw_bad_scalar(std::string_view op, std::string_view arg, std::int32_t tag);
[[noreturn]] OPD_API void throw_bad_list(std::string_view op, std::string_view arg, std::int64_t length);
[[noreturn]] OPD_API void throw_bad_dtype(std::string_view op, std::string_view arg, std::int64_t code);

// The argument described by form `f` as an IValue: `first` is the address of
// its first C parameter, `second` the value of its second (a length, a device
// index) if it has one.
OPD_API IValue ivalue_from_c(const c_form& f, const void* first, std::int64_t second, std::string_view op,
                             std::string_view arg);
// A boxed value as an IValue (the boxed call's and opd_any parameters').
OPD_API IValue ivalue_from_any(const opd_any& a, std::string_view op, std::string_view arg);
// A result as a new opd_value handle.
OPD_API opd_value new_value(IValue v);
OPD_API opd_tensor new_tensor(Tensor t);
// Releases a handle from new_tensor (NULL is fine).
OPD_API void delete_tensor(opd_tensor t) noexcept;

// The shape of every entry point: runs f (which returns a status) with every
// exception turned into a status.
template <class F>
std::int32_t guarded(F&& f) noexcept {
  try {
    return f();
  } catch (...) {
    return status_from_current_exception();
  }
}
inline std::int32_t invalid(std::string_view message) { return fail(OPD_ERR_INVALID_ARGUMENT, message); }

inline Tensor& tensor_of(opd_tensor t, const char* function) {
  if (t == nullptr) throw ValueError(opd::detail::str_cat(function, ": tensor handle is NULL"));
  return t->t;
}

inline Scalar scalar_from_c(const opd_scalar& s, std::string_view op, std::string_view arg) {
  switch (s.tag) {
    case OPD_SCALAR_INT: return Scalar(s.v.i);
    case OPD_SCALAR_DOUBLE: return Scalar(s.v.d);
    case OPD_SCALAR_BOOL: return Scalar(s.v.i != 0);
    case OPD_SCALAR_COMPLEX: return Scalar(std::complex<double>(s.v.c[0], s.v.c[1]));
    default: throw_bad_scalar(op, arg, s.tag);
  }
}
inline opd_scalar scalar_to_c(const Scalar& s) {
  opd_scalar r{};
  if (s.is_boolean()) r.tag = OPD_SCALAR_BOOL, r.v.i = s.to_bool();
  else if (s.is_complex()) {
    const std::complex<double> c = s.to_complex_double();
    r.tag = OPD_SCALAR_COMPLEX, r.v.c[0] = c.real(), r.v.c[1] = c.imag();
  } else if (s.is_floating_point()) r.tag = OPD_SCALAR_DOUBLE, r.v.d = s.to_double();
  else r.tag = OPD_SCALAR_INT, r.v.i = s.to_long();
  return r;
}

}  // namespace detail
}  // namespace opd::c_abi

#ifdef OPD_HEADER_ONLY
#include "dispatch/c_abi/runtime-inl.hpp"
#endif
