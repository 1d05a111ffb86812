#pragma once
// Out-of-line part of fill_copy.hpp (compiled in src/kernels/fill_copy.cpp).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dispatch/core/error.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/tensor.hpp"
#include "dispatch/transfer.hpp"
#include "kernels/cpu/broadcast.hpp"
#include "kernels/cpu/convert-inl.hpp"
#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/fill_simd.hpp"
#include "kernels/cpu/loops-inl.hpp"
#include "kernels/cpu/overlap.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/simd_row_split-inl.hpp"  // kMinSimdElements

namespace opd::kernels {

OPD_FUNC Tensor& fill_(Tensor& self, const Scalar& value) {
  OPD_CHECK(self.defined(), "fill_: self is an undefined tensor");
  if (self.device().is_meta()) return self;
  OPD_CHECK(self.device().is_cpu(), "fill_: the CPU kernel got a tensor on device ", self.device());
  dispatch_dtype_with_complex_half(self.dtype(), "fill_", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const int64_t n = self.numel();
    // ComplexHalf as ATen 1.13: one element is checked against Half's range
    // (its scalar_fill), more against float's and rounded (its fill_kernel
    // goes through complex<float>), so fill_(1e6) throws on one element and
    // gives inf on two.
    const T v = [&] {
      if constexpr (is_complex_half_v<T>) {
        if (n != 1) return convert<T>(checked_scalar_to<std::complex<float>>(value));
      }
      return checked_scalar_to<T>(value);
    }();
    // fill_ takes outputs whose elements overlap (ATen does not check):
    // those are filled on one thread, so that no two threads write one element.
    if (n == 0) return;
    if (n == 1) {  // one element (scalar_tensor, a 0-dim result): stored, no layout to walk
      *static_cast<T*>(self.data_ptr()) = v;
      return;
    }
    const bool dense = is_non_overlapping_and_dense(self);
    if (dense && n >= detail::kMinSimdElements) {
      // Dense: the elements are one block from the first (strides are never
      // negative), whatever their order; filled at the CPU's store width.
      T* block = reinterpret_cast<T*>(OperandRef::of(self).data);
      parallel_for(0, n, grain_size, [&](int64_t begin, int64_t end) {
        if (!simd::fill_row(block + begin, &v, static_cast<int64_t>(sizeof(T)), end - begin)) {
          std::fill_n(block + begin, end - begin, v);
        }
      });
      return;
    }
    fill_elements<T>(OperandRef::of(self), v, n <= grain_size || dense);
  });
  return self;
}

// Through the CPU, with the devices' _copy_from kernels (dispatch/transfer.hpp):
// src comes to the CPU; dtype conversion and broadcasting happen there; the
// result goes into self with self's device's kernel. self is only written by
// the last step, so a failure before it leaves self as it was.
OPD_FUNC Tensor& copy_between_devices(Tensor& self, const Tensor& src, bool non_blocking) {
  const Tensor src_cpu = opd::to(src, Device(DeviceType::CPU), non_blocking);
  if (self.device().is_cpu()) return copy_(self, src_cpu, non_blocking);
  Tensor staged = opd::empty(self.sizes(), self.dtype(), Device(DeviceType::CPU));
  copy_(staged, src_cpu, non_blocking);
  (void)opd::copy_from_and_resize(staged, self);
  return self;
}

OPD_FUNC Tensor& copy_(Tensor& self, const Tensor& src, bool non_blocking) {
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
  if (self.device() != src.device()) return copy_between_devices(self, src, non_blocking);
  OPD_CHECK(self.device().is_cpu() && src.device().is_cpu(), "copy_: the CPU kernel got tensors on devices ",
            self.device(), " (self) and ", src.device(), " (src)");
  if (self.numel() == 0) return self;
  const Tensor source = is_safe_elementwise_alias(self, src) ? src : contiguous_clone(src);
  copy_elements(OperandRef::of(self), OperandRef::of(source));
  return self;
}

}  // namespace opd::kernels
