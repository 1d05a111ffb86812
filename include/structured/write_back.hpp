#pragma once
// The slow paths of the derived out= and in-place kernels: writing a result
// into a caller's tensor that does not fit meta() as it is (another dtype,
// shape or strides). Out of line and shared by every family: the family's
// only part is impl() itself, reached through a function pointer, so that a
// file registering N families compiles these paths once rather than N times
// per backend.
#include <string_view>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/keys/dispatch_key.hpp"
#include "structured/tensor_meta.hpp"

namespace opd::structured_detail {

// One family's impl() at one backend, into `into`, with the kernel's
// arguments behind `args` (a closure of the derived kernel).
using RunImplFn = void (*)(const void* args, Tensor& into);

// Can impl() write into t directly: meta's dtype and sizes, contiguous in
// meta's memory format (or with meta's explicit strides, which are dense)?
// Such a t also passes every check of a written tensor: it has no internal
// overlap (dense), the result's dtype casts to it (the same) and it needs
// no resize (the same sizes).
inline bool fits_meta(const Tensor& t, const TensorMeta& m) {
  if (!t.defined()) return false;  // (the checks that follow say so)
  const TensorImpl& i = *t.impl_ptr();
  if (!(i.dtype() == m.dtype && i.sizes() == m.sizes.ref())) return false;
  return m.strides.empty() ? i.is_contiguous(m.memory_format) : i.strides() == m.strides.ref();
}

// out= into an out that does not fit: PyTorch's checks in TensorIterator's
// order, the resize, then impl() into out (when it fits now) or, for other
// strides or dtype, into a temporary copied back at `key`. run null: nothing
// to compute (a Meta kernel).
OPD_API void write_out_checked(std::string_view op, const TensorMeta& m, Tensor& result, DispatchKey key,
                               RunImplFn run, const void* args);

// In-place into a self that does not fit: PyTorch's checks (no internal
// overlap, the result's shape exactly, a castable dtype), then impl() into
// self or into a temporary copied back.
OPD_API void write_inplace_checked(std::string_view op, const TensorMeta& m, Tensor& self, DispatchKey key,
                                   RunImplFn run, const void* args);

}  // namespace opd::structured_detail

#ifdef OPD_HEADER_ONLY
#include "structured/write_back-inl.hpp"
#endif
