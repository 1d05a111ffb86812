// fill_ and copy_ on CPU.
//
//   fill_(Tensor(a!) self, Scalar value) -> Tensor(a!)
//   copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
//
// fill_ converts value with c10's checked Scalar::to<T> (so uint8.fill_(256)
// throws "value cannot be converted to type uint8_t without overflow", and
// int.fill_(2.7) stores 2); any layout, overlapping (expanded) self allowed.
// copy_ broadcasts src to self's shape and converts element by element
// (c10::convert: float -> int truncates, x -> bool is x != 0); both sides
// may be non-contiguous. src sharing memory with self is handled: the same
// elements (self.copy_(self) or an identical view) return at once; any other
// overlap reads from a temporary copy of src (PyTorch rejects the partial
// overlaps it can detect instead). A self whose elements overlap each other
// (expand()) is rejected as in PyTorch. Meta tensors: checks only.
#pragma once

#include <cstdint>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/overlap.hpp"

namespace opd::kernels {

inline Tensor& fill_(Tensor& self, const Scalar& value) {
  OPD_CHECK(self.defined(), "fill_: self is an undefined tensor");
  if (self.device().is_meta()) return self;
  OPD_CHECK(self.device().is_cpu(), "fill_: the CPU kernel got a tensor on device ", self.device());
  dispatch_dtype(self.dtype(), "fill_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T v = checked_scalar_to<T>(value);
    if (self.numel() > 0) fill_elements<T>(OperandRef::of(self), v);
  });
  return self;
}

inline Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking = false) {
  (void)non_blocking;  // CPU copies are synchronous
  OPD_CHECK(self.defined(), "copy_: self is an undefined tensor");
  OPD_CHECK(src.defined(), "copy_: src is an undefined tensor");
  if (self.is_same(src)) return self;
  if (self.is_alias_of(src) && self.storage_offset() == src.storage_offset() && self.strides() == src.strides() &&
      self.sizes() == src.sizes() && self.dtype() == src.dtype()) {
    return self;
  }
  assert_no_internal_overlap(self);
  const IntArrayRef shapes[] = {self.sizes(), src.sizes()};
  const std::vector<int64_t> shape = broadcast_shapes(std::span<const IntArrayRef>(shapes));
  OPD_CHECK(self.sizes() == IntArrayRef(shape), "output with shape ", self.sizes(),
            " doesn't match the broadcast shape ", IntArrayRef(shape));
  if (self.device().is_meta()) return self;
  OPD_CHECK(self.device().is_cpu() && src.device().is_cpu(), "copy_: the CPU kernel got tensors on devices ",
            self.device(), " (self) and ", src.device(), " (src)");
  if (self.numel() == 0) return self;
  const Tensor source = is_safe_elementwise_alias(self, src) ? src : contiguous_clone(src);
  copy_elements(OperandRef::of(self), OperandRef::of(source));
  return self;
}

}  // namespace opd::kernels
