#pragma once
// Out-of-line part of elementwise.hpp (compiled in src/kernels/elementwise.cpp).
#include <cstdint>
#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/loops-inl.hpp"

namespace opd::kernels {

OPD_FUNC void copy_elements(const OperandRef& out, const OperandRef& in) {
  ElementwiseIter<1> iter(out, {in});
  if (iter.numel() == 0) return;
  const detail::ConvertRow row = detail::convert_row_for(out.dtype, in.dtype, "copy_");
  iter.for_each_row_parallel([&](const auto& ptrs, const auto& strides, int64_t n) {
    row(ptrs[0], strides[0], ptrs[1], strides[1], n);
  });
}

OPD_FUNC MemoryFormat elementwise_layout_of(const Tensor& t, std::size_t ndim) {
  if (t.is_contiguous()) return MemoryFormat::Contiguous;
  if (ndim == 4 && t.is_contiguous(MemoryFormat::ChannelsLast)) return MemoryFormat::ChannelsLast;
  if (ndim == 5 && t.is_contiguous(MemoryFormat::ChannelsLast3d)) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

OPD_FUNC MemoryFormat elementwise_memory_format(IntArrayRef shape, std::initializer_list<const Tensor*> inputs) {
  for (const Tensor* t : inputs) {
    if (t == nullptr || !t->defined() || !(t->sizes() == shape)) continue;
    return elementwise_layout_of(*t, shape.size());
  }
  return MemoryFormat::Contiguous;
}

OPD_FUNC Tensor contiguous_clone(const Tensor& t) {
  std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  Tensor copy = opd::empty(IntArrayRef(sizes), t.dtype(), t.device());
  if (!copy.is_meta()) copy_elements(OperandRef::of(copy), OperandRef::of(t));  // Meta: the shape only
  return copy;
}

}  // namespace opd::kernels
