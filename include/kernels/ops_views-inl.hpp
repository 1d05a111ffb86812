#pragma once
// Out-of-line part of ops_views.hpp (compiled in src/kernels/views.cpp): the
// kernels of the view operators and copies, and register_views().
#include <algorithm>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_views.hpp"
#include "kernels/views/geometry.hpp"

namespace opd::kernels {

namespace views_detail {

using views::Geometry;
using ints = std::span<const int64_t>;

inline IntArrayRef ref(ints s) { return IntArrayRef(s.data(), s.size()); }

inline Geometry geometry_of(const Tensor& t) {
  return Geometry{SizesVector(t.sizes()), SizesVector(t.strides()), t.storage_offset()};
}

// A view: same storage and version counter, is_view(), _base().
inline Tensor make_view(const Tensor& self, const Geometry& g) { return self.as_strided(g.sizes, g.strides, g.offset); }

// Same storage and version counter, but no view (detach, _unsafe_view).
OPD_FUNC Tensor make_alias(const Tensor& self, const Geometry& g) {
  auto impl = make_intrusive<TensorImpl>(self.storage(), self.key_set(), self.dtype(),
                                         self.unsafe_get_impl()->version_counter());
  impl->set_sizes_and_strides(g.sizes, g.strides, g.offset);
  return Tensor(std::move(impl));
}

inline std::vector<Tensor> make_views(const Tensor& self, const std::vector<Geometry>& pieces) {
  std::vector<Tensor> out;
  out.reserve(pieces.size());
  for (const Geometry& g : pieces) out.push_back(make_view(self, g));
  return out;
}

// ---- views ------------------------------------------------------------------

inline Tensor view(const Tensor& self, ints size) {
  return make_view(self, views::view("aten::view", geometry_of(self), ref(size)));
}
inline Tensor unsafe_view(const Tensor& self, ints size) {
  return make_alias(self, views::view("aten::_unsafe_view", geometry_of(self), ref(size)));
}
// A view when computeStride finds strides for the shape, else a contiguous
// copy (a fresh tensor, as ATen's _unsafe_view(clone(...))).
OPD_FUNC Tensor reshape(const Tensor& self, ints shape) {
  constexpr std::string_view op = "aten::reshape";
  const Geometry in = geometry_of(self);
  const SizesVector sizes = views::infer_size(op, ref(shape), self.numel());
  if (std::optional<SizesVector> strides = views::compute_stride(in, sizes)) {
    return make_view(self, Geometry{sizes, std::move(*strides), in.offset});
  }
  const Tensor copy = call<ops::clone>(self, arg<"memory_format"> = MemoryFormat::Contiguous);
  return make_alias(copy, Geometry{sizes, opd::detail::contiguous_strides(sizes), copy.storage_offset()});
}
inline Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return make_view(self, views::transpose("aten::transpose.int", geometry_of(self), dim0, dim1));
}
inline Tensor t(const Tensor& self) { return make_view(self, views::t("aten::t", geometry_of(self))); }
inline Tensor permute(const Tensor& self, ints dims) {
  return make_view(self, views::permute("aten::permute", geometry_of(self), ref(dims)));
}
inline Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                    int64_t step) {
  return make_view(self, views::slice("aten::slice.Tensor", geometry_of(self), dim, start, end, step));
}
inline Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return make_view(self, views::select("aten::select.int", geometry_of(self), dim, index));
}
inline Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return make_view(self, views::narrow("aten::narrow", geometry_of(self), dim, start, length));
}
inline Tensor diagonal(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  return make_view(self, views::diagonal("aten::diagonal", geometry_of(self), offset, dim1, dim2));
}
inline Tensor unsqueeze(const Tensor& self, int64_t dim) {
  return make_view(self, views::unsqueeze("aten::unsqueeze", geometry_of(self), dim));
}
inline Tensor squeeze(const Tensor& self) { return make_view(self, views::squeeze(geometry_of(self))); }
inline Tensor squeeze_dim(const Tensor& self, int64_t dim) {
  return make_view(self, views::squeeze_dim("aten::squeeze.dim", geometry_of(self), dim));
}
inline Tensor expand(const Tensor& self, ints size, bool implicit) {
  (void)implicit;  // only autograd's tracing reads it
  return make_view(self, views::expand("aten::expand", geometry_of(self), ref(size)));
}
inline Tensor expand_as(const Tensor& self, const Tensor& other) {
  return make_view(self, views::expand("aten::expand_as", geometry_of(self), other.sizes()));
}
OPD_FUNC Tensor as_strided(const Tensor& self, ints size, ints stride, std::optional<int64_t> storage_offset) {
  constexpr std::string_view op = "aten::as_strided";
  const Geometry g = views::as_strided(op, ref(size), ref(stride), storage_offset.value_or(self.storage_offset()));
  const int64_t needed = opd::detail::required_storage_bytes(g.sizes, g.strides, g.offset, self.itemsize());
  OPD_CHECK(static_cast<uint64_t>(needed) <= self.storage().nbytes(), op, ": setStorage: sizes ", g.sizes.ref(),
            ", strides ", g.strides.ref(), ", storage offset ", g.offset, ", and itemsize ", self.itemsize(),
            " requiring a storage size of ", needed, " are out of bounds for storage of size ", self.storage().nbytes());
  return make_view(self, g);
}
inline Tensor alias(const Tensor& self) { return make_view(self, geometry_of(self)); }
inline Tensor reshape_alias(const Tensor& self, ints size, ints stride) {
  return make_view(self, views::as_strided("aten::_reshape_alias", ref(size), ref(stride), self.storage_offset()));
}
inline Tensor lift_fresh(const Tensor& self) { return self; }
inline std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  return make_views(self, views::split("aten::split.Tensor", geometry_of(self), split_size, dim));
}
inline std::vector<Tensor> split_with_sizes(const Tensor& self, ints split_sizes, int64_t dim) {
  return make_views(self, views::split_with_sizes("aten::split_with_sizes", geometry_of(self), ref(split_sizes), dim));
}
inline std::vector<Tensor> unbind(const Tensor& self, int64_t dim) {
  return make_views(self, views::unbind("aten::unbind.int", geometry_of(self), dim));
}
inline std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  return make_views(self, views::chunk("aten::chunk", geometry_of(self), chunks, dim));
}
inline Tensor unfold(const Tensor& self, int64_t dimension, int64_t size, int64_t step) {
  return make_view(self, views::unfold("aten::unfold", geometry_of(self), dimension, size, step));
}
// ATen returns the input itself when start_dim == end_dim (and the input has
// dimensions); otherwise reshape: a view where strides allow it.
OPD_FUNC Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  constexpr std::string_view op = "aten::flatten.using_ints";
  const SizesVector shape = views::flatten_shape(op, self.sizes(), start_dim, end_dim);
  if (self.dim() > 0 && views::wrap_dim(op, start_dim, self.dim()) == views::wrap_dim(op, end_dim, self.dim())) {
    return self;
  }
  return call<ops::reshape>(self, std::span<const int64_t>(shape.data(), shape.size()));
}
inline Tensor detach(const Tensor& self) { return make_alias(self, geometry_of(self)); }

// ---- copies -----------------------------------------------------------------

// PyTorch's is_non_overlapping_and_dense: some permutation of the dims is
// contiguous (size-0/1 dims ignored).
OPD_FUNC bool non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  const std::size_t nd = sizes.size();
  if (nd == 1) return sizes[0] < 2 || strides[0] == 1;
  std::vector<std::size_t> perm(nd);
  for (std::size_t i = 0; i < nd; ++i) perm[i] = i;
  std::sort(perm.begin(), perm.end(), [&](std::size_t a, std::size_t b) {
    if (sizes[a] < 2) return false;
    if (sizes[b] < 2) return true;
    return strides[a] < strides[b];
  });
  int64_t required = 1;
  for (std::size_t d : perm) {
    if (sizes[d] < 2) return true;
    if (strides[d] != required) return false;
    required *= sizes[d];
  }
  return true;
}

// PyTorch's suggest_memory_format, for the layouts TensorImpl tracks:
// channels-last(-3d) when the tensor is laid out so (and not plainly
// contiguous), else contiguous.
inline MemoryFormat suggest_memory_format(const Tensor& self) {
  if (self.is_contiguous()) return MemoryFormat::Contiguous;
  if (self.dim() == 4 && self.is_contiguous(MemoryFormat::ChannelsLast)) return MemoryFormat::ChannelsLast;
  if (self.dim() == 5 && self.is_contiguous(MemoryFormat::ChannelsLast3d)) return MemoryFormat::ChannelsLast3d;
  return MemoryFormat::Contiguous;
}

// An uninitialised tensor like `self` on `device` with `dtype`: the same strides
// under preserve_format when self is dense, else the layout of `format`
// (preserve: channels-last when self is channels-last, else contiguous).
OPD_FUNC Tensor empty_like_for_copy(std::string_view op, const Tensor& self, ScalarType dtype, Device device,
                                    MemoryFormat format) {
  const std::span<const int64_t> sizes(self.sizes().data(), self.sizes().size());
  if (format == MemoryFormat::Preserve) {
    if (non_overlapping_and_dense(self.sizes(), self.strides())) {
      return call<ops::empty_strided>(sizes, std::span<const int64_t>(self.strides().data(), self.strides().size()),
                                      arg<"dtype"> = dtype, arg<"device"> = device);
    }
    format = suggest_memory_format(self);
  }
  OPD_CHECK_VALUE(format == MemoryFormat::Contiguous || (format == MemoryFormat::ChannelsLast && self.dim() == 4) ||
                      (format == MemoryFormat::ChannelsLast3d && self.dim() == 5),
                  op, ": required rank ", format == MemoryFormat::ChannelsLast ? 4 : 5,
                  " tensor to use ", format, " format, got a ", self.dim(), "-d tensor");
  return call<ops::empty>(sizes, arg<"dtype"> = dtype, arg<"device"> = device, arg<"memory_format"> = format);
}

OPD_FUNC Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format) {
  Tensor out = empty_like_for_copy("aten::clone", self, self.dtype(), self.device(),
                                   memory_format.value_or(MemoryFormat::Preserve));
  call<ops::copy_>(out, self, false);
  return out;
}

OPD_FUNC Tensor contiguous(const Tensor& self, MemoryFormat memory_format) {
  OPD_CHECK_VALUE(memory_format != MemoryFormat::Preserve, "aten::contiguous",
                  ": preserve memory format is unsupported by the contiguous operator");
  if (self.is_contiguous(memory_format)) return self;
  return call<ops::clone>(self, arg<"memory_format"> = memory_format);
}

OPD_FUNC Tensor empty_strided(ints size, ints stride, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                              std::optional<Device> device, std::optional<bool> pin_memory) {
  constexpr std::string_view op = "aten::empty_strided";
  detail::check_factory_options(op, layout, pin_memory, std::nullopt);
  (void)views::as_strided(op, ref(size), ref(stride), 0);  // the same checks on sizes and strides
  return opd::empty_strided(ref(size), ref(stride), dtype.value_or(ScalarType::Float), device.value_or(Device::cpu()));
}

OPD_FUNC Tensor to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                        std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                        std::optional<MemoryFormat> memory_format) {
  constexpr std::string_view op = "aten::_to_copy";
  detail::check_factory_options(op, layout, pin_memory, std::nullopt);
  Tensor out = empty_like_for_copy(op, self, dtype.value_or(self.dtype()), device.value_or(self.device()),
                                   memory_format.value_or(MemoryFormat::Preserve));
  call<ops::copy_>(out, self, non_blocking);
  return out;
}

// ATen's to_will_alias: no copy asked for and nothing to change. As in ATen,
// a memory format counts as unchanged when it is the one suggested for the
// input (so to(memory_format=contiguous_format) of a transposed matrix
// returns it as it is).
inline bool to_will_alias(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Device> device,
                          bool copy, std::optional<MemoryFormat> memory_format) {
  const MemoryFormat format = memory_format.value_or(MemoryFormat::Preserve);
  return !copy && (!dtype || *dtype == self.dtype()) && (!device || *device == self.device()) &&
         (format == MemoryFormat::Preserve || suggest_memory_format(self) == format);
}

OPD_FUNC Tensor to_impl(std::string_view op, const Tensor& self, std::optional<ScalarType> dtype,
                        std::optional<Layout> layout, std::optional<Device> device, std::optional<bool> pin_memory,
                        bool non_blocking, bool copy, std::optional<MemoryFormat> memory_format) {
  detail::check_factory_options(op, layout, pin_memory, std::nullopt);
  if (to_will_alias(self, dtype, device, copy, memory_format)) return self;
  return call<ops::to_copy>(self, arg<"dtype"> = dtype, arg<"layout"> = layout, arg<"device"> = device,
                            arg<"pin_memory"> = pin_memory, arg<"non_blocking"> = non_blocking,
                            arg<"memory_format"> = memory_format);
}

inline Tensor to_dtype(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy,
                       std::optional<MemoryFormat> memory_format) {
  return to_impl("aten::to.dtype", self, dtype, std::nullopt, std::nullopt, std::nullopt, non_blocking, copy,
                 memory_format);
}
inline Tensor to_dtype_layout(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                              std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                              bool copy, std::optional<MemoryFormat> memory_format) {
  return to_impl("aten::to.dtype_layout", self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format);
}
inline Tensor to_other(const Tensor& self, const Tensor& other, bool non_blocking, bool copy,
                       std::optional<MemoryFormat> memory_format) {
  return to_impl("aten::to.other", self, other.dtype(), std::nullopt, other.device(), std::nullopt, non_blocking, copy,
                 memory_format);
}
inline Tensor to_device(const Tensor& self, Device device, ScalarType dtype, bool non_blocking, bool copy,
                        std::optional<MemoryFormat> memory_format) {
  return to_impl("aten::to.device", self, dtype, std::nullopt, device, std::nullopt, non_blocking, copy, memory_format);
}

}  // namespace views_detail

OPD_FUNC RegistrationSet register_views() {
  namespace v = views_detail;
  constexpr DispatchKey explicit_ = DispatchKey::CompositeExplicitAutograd;
  constexpr DispatchKey implicit_ = DispatchKey::CompositeImplicitAutograd;
  RegistrationSet set;
  set.add(register_kernel<ops::view, &v::view>(explicit_));
  set.add(register_kernel<ops::unsafe_view, &v::unsafe_view>(explicit_));
  set.add(register_kernel<ops::reshape, &v::reshape>(implicit_));
  set.add(register_kernel<ops::transpose, &v::transpose>(explicit_));
  set.add(register_kernel<ops::t, &v::t>(explicit_));
  set.add(register_kernel<ops::permute, &v::permute>(explicit_));
  set.add(register_kernel<ops::slice, &v::slice>(explicit_));
  set.add(register_kernel<ops::select, &v::select>(explicit_));
  set.add(register_kernel<ops::narrow, &v::narrow>(implicit_));
  set.add(register_kernel<ops::diagonal, &v::diagonal>(explicit_));
  set.add(register_kernel<ops::unsqueeze, &v::unsqueeze>(explicit_));
  set.add(register_kernel<ops::squeeze, &v::squeeze>(explicit_));
  set.add(register_kernel<ops::squeeze_dim, &v::squeeze_dim>(explicit_));
  set.add(register_kernel<ops::expand, &v::expand>(explicit_));
  set.add(register_kernel<ops::expand_as, &v::expand_as>(implicit_));
  set.add(register_kernel<ops::as_strided, &v::as_strided>(explicit_));
  set.add(register_kernel<ops::alias, &v::alias>(explicit_));
  set.add(register_kernel<ops::reshape_alias, &v::reshape_alias>(explicit_));
  set.add(register_kernel<ops::lift_fresh, &v::lift_fresh>(explicit_));
  set.add(register_kernel<ops::split, &v::split>(explicit_));
  set.add(register_kernel<ops::split_with_sizes, &v::split_with_sizes>(explicit_));
  set.add(register_kernel<ops::unbind, &v::unbind>(explicit_));
  set.add(register_kernel<ops::chunk, &v::chunk>(implicit_));
  set.add(register_kernel<ops::unfold, &v::unfold>(explicit_));
  set.add(register_kernel<ops::flatten, &v::flatten>(implicit_));
  set.add(register_kernel<ops::detach, &v::detach>(explicit_));
  set.add(register_kernel<ops::contiguous, &v::contiguous>(implicit_));
  set.add(register_kernel<ops::clone, &v::clone>(explicit_));
  set.add(register_kernel<ops::empty_strided, &v::empty_strided>(DispatchKey::CPU));
  set.add(register_kernel<ops::empty_strided, &v::empty_strided>(DispatchKey::Meta));
  set.add(register_kernel<ops::to_copy, &v::to_copy>(explicit_));
  set.add(register_kernel<ops::to_dtype, &v::to_dtype>(implicit_));
  set.add(register_kernel<ops::to_dtype_layout, &v::to_dtype_layout>(implicit_));
  set.add(register_kernel<ops::to_other, &v::to_other>(implicit_));
  set.add(register_kernel<ops::to_device, &v::to_device>(implicit_));
  return set;
}

}  // namespace opd::kernels
