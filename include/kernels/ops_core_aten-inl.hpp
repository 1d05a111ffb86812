#pragma once
// Out-of-line part of ops_core_aten.hpp (compiled in src/kernels/core_aten.cpp).
#include <algorithm>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/cpu/elementwise.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/ops_core_aten.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/views/geometry.hpp"
#include "structured/derive.hpp"
#include "structured/out_semantics.hpp"

namespace opd::kernels {

namespace core_aten_ops_detail {

using ints = std::span<const int64_t>;

// The wrapped dimensions of `dim` as a mask over self's (0-dim: one), each
// at most once (ATen's dim_list_to_bitset).
inline std::vector<bool> dim_mask(std::string_view op, const Tensor& self, ints dim) {
  const int64_t nd = self.dim();
  std::vector<bool> mask(static_cast<std::size_t>(std::max<int64_t>(nd, 1)), false);
  for (int64_t d : dim) {
    const auto w = static_cast<std::size_t>(views::wrap_dim(op, d, nd));
    OPD_CHECK(!mask[w], op, ": dim ", w, " appears multiple times in the list of dims");
    mask[w] = true;
  }
  return mask;
}

// squeeze.dims: the listed dimensions of size 1 dropped, the others kept (a view).
inline Tensor squeeze_dims(const Tensor& self, ints dim) {
  constexpr std::string_view op = "aten::squeeze.dims";
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  const std::vector<bool> mask = dim_mask(op, self, dim);
  std::vector<int64_t> sizes, strides;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (mask[static_cast<std::size_t>(d)] && self.size(d) == 1) continue;
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d));
  }
  return self.as_strided(sizes, strides, self.storage_offset());
}

// any.dims: any.dim over each listed dimension, the last first (so that the
// others keep their numbers without keepdim); None or [] reduce them all.
inline Tensor any_dims(const Tensor& self, std::optional<ints> dim, bool keepdim) {
  constexpr std::string_view op = "aten::any.dims";
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  const bool all = !dim || dim->empty();
  const std::vector<bool> mask = all ? std::vector<bool>(static_cast<std::size_t>(std::max<int64_t>(self.dim(), 1)), true)
                                     : dim_mask(op, self, *dim);
  if (self.dim() == 0) return call<ops::any_dim>(self, int64_t{0}, keepdim);
  Tensor result = self;
  for (int64_t d = self.dim(); d-- > 0;) {
    if (mask[static_cast<std::size_t>(d)]) result = call<ops::any_dim>(result, d, keepdim);
  }
  // no dimension listed cannot happen here (an empty list means all), so
  // result is a new tensor
  return result;
}

// any.dims_out: out= rules as any.out's (a Bool or Byte out, resized).
inline Tensor& any_dims_out(const Tensor& self, std::optional<ints> dim, bool keepdim, Tensor& out) {
  constexpr std::string_view op = "aten::any.dims_out";
  const Tensor result = any_dims(self, dim, keepdim);
  OPD_CHECK(out.dtype() == ScalarType::Bool || out.dtype() == ScalarType::Byte,
            "any only supports bool tensor for result, got: ", out.dtype());
  structured_detail::check_out_device(op, result.device(), out);
  structured_detail::resize_out(op, out, result.sizes(), MemoryFormat::Contiguous);
  if (!out.is_meta()) kernels::copy_(out, result);
  return out;
}

// resize_ (ATen's resize_ with resize_impl_cpu_): new sizes with contiguous
// strides, the storage grown when too small (its bytes kept); unchanged
// sizes keep the strides unless a memory format is given, which restrides.
// Every check before self changes.
inline Tensor& resize_(Tensor& self, ints size, std::optional<MemoryFormat> memory_format) {
  constexpr std::string_view op = "aten::resize_";
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(self.device().is_cpu() || self.device().is_meta(), op, ": the CPU kernel got argument 'self' on device ",
            self.device());
  const IntArrayRef sizes(size.data(), size.size());
  opd::detail::check_sizes(sizes);
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Contiguous);
  OPD_CHECK(format != MemoryFormat::Preserve, "Unsupported memory format", format);
  (void)opd::detail::strides_for_memory_format(sizes, format);  // refuses a rank that does not fit the format
  if (memory_format && self.sizes() == sizes) {
    // ATen restrides even when the sizes stay: go through empty sizes, which
    // keeps the storage (it never shrinks) and its bytes.
    const int64_t zero = 0;
    self.resize_(IntArrayRef(&zero, 1));
  }
  self.resize_(sizes, format);
  return self;
}

// resize: a contiguous copy of self, resized as resize_ resizes (the first
// elements kept; new ones uninitialized, as resize_ leaves them).
inline Tensor resize(const Tensor& self, ints size, std::optional<MemoryFormat> memory_format) {
  OPD_CHECK(self.defined(), "aten::resize: argument 'self' is an undefined tensor");
  Tensor copy = self.is_meta() ? empty(self.sizes(), self.dtype(), self.device()) : kernels::contiguous_clone(self);
  resize_(copy, size, memory_format);
  return copy;
}

inline Tensor scatter_reduce_two(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                 std::string_view reduce, bool include_self) {
  return kernels::scatter_reduce_two(self, dim, index, src, reduce, include_self);
}

}  // namespace core_aten_ops_detail

OPD_FUNC RegistrationSet register_core_aten() {
  namespace d = core_aten_ops_detail;
  RegistrationSet set;
  const DispatchKey composite = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::squeeze_dims, &d::squeeze_dims>(composite));
  set.add(register_kernel<ops::any_dims, &d::any_dims>(composite));
  set.add(register_kernel<ops::any_dims_out, &d::any_dims_out>(composite));
  // Meta: the same kernels, which stop after their checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::resize_, &d::resize_>(key));
    set.add(register_kernel<ops::resize, &d::resize>(key));
    set.add(register_kernel<ops::scatter_reduce_two, &d::scatter_reduce_two>(key));
    set.add(derive_missing_variants<ops::scatter_reduce_two, ops::scatter_reduce__two, ops::scatter_reduce_two_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
