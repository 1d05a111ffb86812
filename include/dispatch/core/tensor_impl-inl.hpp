#pragma once
// Out-of-line part of tensor_impl.hpp: sizes and strides arithmetic and the
// validated mutations of a TensorImpl.
#include "dispatch/core/tensor_impl.hpp"

namespace opd {

namespace detail {

OPD_FUNC void check_sizes(IntArrayRef sizes) {
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0) {
      throw Error(detail::str_cat("Trying to create tensor with negative dimension ", sizes[i], ": ", sizes));
    }
  }
}

OPD_FUNC int64_t checked_numel(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n = checked_mul(n, s, "numel");
  return n;
}

OPD_FUNC SizesVector contiguous_strides(IntArrayRef sizes) {
  SizesVector strides(sizes.size());
  int64_t running = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running = checked_mul(running, sizes[i] > 1 ? sizes[i] : 1, "stride");
  }
  return strides;
}

OPD_FUNC SizesVector strides_for_memory_format(IntArrayRef sizes, MemoryFormat format) {
  switch (format) {
    case MemoryFormat::Contiguous: return contiguous_strides(sizes);
    case MemoryFormat::ChannelsLast:
    case MemoryFormat::ChannelsLast3d: {
      const std::size_t want = format == MemoryFormat::ChannelsLast ? 4 : 5;
      OPD_CHECK(sizes.size() == want, "required rank ", want, " tensor to use ", format, " format, got rank ",
                sizes.size());
      // Fastest to slowest: C, then the spatial dims from last to first, then N.
      SizesVector strides(want);
      int64_t running = 1;
      auto place = [&](std::size_t d) {
        strides[d] = running;
        running = checked_mul(running, sizes[d] > 1 ? sizes[d] : 1, "stride");
      };
      place(1);
      for (std::size_t d = want - 1; d >= 2; --d) place(d);
      place(0);
      return strides;
    }
    case MemoryFormat::Preserve:
    case MemoryFormat::NumOptions: break;
  }
  throw Error(detail::str_cat("unsupported memory format for a new tensor: ", format));
}

OPD_FUNC int64_t required_storage_bytes(IntArrayRef sizes, IntArrayRef strides, int64_t offset, std::size_t itemsize) {
  for (int64_t s : sizes) {
    if (s == 0) return 0;
  }
  int64_t last = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    last = checked_add(last, checked_mul(sizes[i] - 1, strides[i], "storage size"), "storage size");
  }
  const int64_t elements = checked_add(checked_add(last, 1, "storage size"), offset, "storage size");
  return checked_mul(elements, static_cast<int64_t>(itemsize), "storage size in bytes");
}

OPD_FUNC bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides) {
  int64_t expected = 1;
  for (std::size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 0) return true;
  }
  for (std::size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

}  // namespace detail

OPD_FUNC TensorImpl::TensorImpl(Storage storage, DispatchKeySet key_set, ScalarType dtype, intrusive_ptr<VersionCounter> version_counter)
      : storage_(std::move(storage)),
        version_counter_(std::move(version_counter)),
        key_set_(key_set),
        dtype_(dtype),
        device_(checked_storage(storage_).device()) {
    OPD_CHECK(version_counter_.defined(), "TensorImpl: version counter must be defined");
    OPD_CHECK(element_size(dtype) > 0, "TensorImpl: dtype ", dtype, " has no element size");
    // Sizes [0], strides [1]: the members' defaults (numel 0, contiguous) already describe them.
    sizes_.assign(1, 0);
    strides_.assign(1, 1);
  }

namespace detail {

// Whether a geometry passes set_sizes_and_strides's checks, in one pass over
// the dims: sizes, strides and offset non-negative, numel without overflow,
// the extent inside `nbytes`. It only ever accepts what the checks accept; a
// geometry it turns down goes through them, which throw with their message
// (or accept it: an extent that overflows beside a zero size).
inline bool geometry_fits(IntArrayRef sizes, IntArrayRef strides, int64_t offset, std::size_t itemsize,
                          std::size_t nbytes) noexcept {
  if (sizes.size() != strides.size() || offset < 0) return false;
  int64_t numel = 1;
  int64_t last = 0;
  bool empty = false;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const int64_t s = sizes[i];
    const int64_t st = strides[i];
    if (s < 0 || st < 0 || __builtin_mul_overflow(numel, s, &numel)) return false;
    int64_t extent = 0;
    if (s == 0) {
      empty = true;
    } else if (__builtin_mul_overflow(s - 1, st, &extent) || __builtin_add_overflow(last, extent, &last)) {
      return false;
    }
  }
  if (empty) return true;
  int64_t needed = 0;
  return !__builtin_add_overflow(last, 1, &needed) && !__builtin_add_overflow(needed, offset, &needed) &&
         !__builtin_mul_overflow(needed, static_cast<int64_t>(itemsize), &needed) &&
         static_cast<uint64_t>(needed) <= nbytes;
}

}  // namespace detail

OPD_FUNC void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, std::optional<int64_t> offset) {
    const int64_t new_offset = offset.value_or(storage_offset_);
    // Every view comes through here: the common case costs one pass.
    if (!detail::geometry_fits(sizes, strides, new_offset, itemsize(), storage_.nbytes())) {
      check_sizes_and_strides(sizes, strides, new_offset);
    }
    sizes_.assign(sizes);
    strides_.assign(strides);
    storage_offset_ = new_offset;
    refresh_numel_and_contiguity();
  }

OPD_FUNC void TensorImpl::check_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t new_offset) const {
    OPD_CHECK(sizes.size() == strides.size(), "mismatch in length of strides and shape: sizes ", sizes,
              " has length ", sizes.size(), " but strides ", strides, " has length ", strides.size());
    detail::check_sizes(sizes);
    for (int64_t s : strides) {
      OPD_CHECK(s >= 0, "as_strided: Negative strides are not supported at the moment, got strides: ", strides);
    }
    OPD_CHECK(new_offset >= 0, "Tensor: invalid storage offset ", new_offset);
    detail::checked_numel(sizes);  // overflow check before anything is committed
    check_fits_storage(sizes, strides, new_offset);
  }

OPD_FUNC void TensorImpl::set_sizes_contiguous(IntArrayRef sizes, MemoryFormat format) {
    detail::check_sizes(sizes);
    const int64_t numel = detail::checked_numel(sizes);
    const SizesVector strides = detail::strides_for_memory_format(sizes, format);
    // Dense strides span exactly numel elements from the offset, so the
    // storage test is one product; set_sizes_and_strides's general checks
    // (stride signs, the extent sum) cannot fail here. Every factory call
    // comes through this path.
    int64_t needed = 0;
    const bool fits = numel == 0 ||
                      (!__builtin_add_overflow(storage_offset_, numel, &needed) &&
                       !__builtin_mul_overflow(needed, static_cast<int64_t>(itemsize()), &needed) &&
                       static_cast<uint64_t>(needed) <= storage_.nbytes());
    if (!fits) check_fits_storage(sizes, strides, storage_offset_);  // throws, with its message
    sizes_.assign(sizes);
    strides_.assign(strides);
    refresh_numel_and_contiguity();
  }

OPD_FUNC void TensorImpl::resize(IntArrayRef sizes, MemoryFormat format) {
    if (sizes == sizes_.ref() && format == MemoryFormat::Contiguous) return;
    detail::check_sizes(sizes);
    const int64_t numel = detail::checked_numel(sizes);
    const SizesVector strides = detail::strides_for_memory_format(sizes, format);
    if (numel > 0) {
      const int64_t needed = detail::checked_mul(detail::checked_add(storage_offset_, numel, "resize_ storage size"),
                                                 static_cast<int64_t>(itemsize()), "resize_ storage size in bytes");
      if (static_cast<uint64_t>(needed) > storage_.nbytes()) storage_.resize(static_cast<std::size_t>(needed));
    }
    sizes_.assign(sizes);
    strides_.assign(strides);
    refresh_numel_and_contiguity();
  }

OPD_FUNC intrusive_ptr<TensorImpl> TensorImpl::make_view(IntArrayRef sizes, IntArrayRef strides, std::optional<int64_t> offset,
                                                    std::optional<ScalarType> dtype) const {
    auto view = make_intrusive<TensorImpl>(storage_, key_set_, dtype.value_or(dtype_), version_counter_);
    view->storage_offset_ = storage_offset_;
    view->set_sizes_and_strides(sizes, strides, offset.value_or(storage_offset_));
    view->is_view_ = true;
    // `this` is owned by an intrusive_ptr (TensorImpls are only made by
    // make_intrusive), so taking a new reference on it is safe.
    view->base_ = base_ ? base_ : intrusive_ptr<intrusive_target>(const_cast<TensorImpl*>(this));
    return view;
  }

OPD_FUNC void TensorImpl::check_fits_storage(IntArrayRef sizes, IntArrayRef strides, int64_t offset) const {
    const int64_t needed = detail::required_storage_bytes(sizes, strides, offset, itemsize());
    OPD_CHECK(static_cast<uint64_t>(needed) <= storage_.nbytes(), "setStorage: sizes ", sizes, ", strides ", strides,
              ", storage offset ", offset, ", and itemsize ", itemsize(), " requiring a storage size of ", needed,
              " are out of bounds for storage of size ", storage_.nbytes());
  }

OPD_FUNC void TensorImpl::refresh_numel_and_contiguity() {
    // Every caller has checked the product for overflow already.
    int64_t numel = 1;
    for (int64_t s : sizes_) numel *= s;
    numel_ = numel;
    is_contiguous_ = detail::compute_contiguous(sizes_, strides_);
    static constexpr std::size_t cl2d[] = {1, 3, 2, 0};
    static constexpr std::size_t cl3d[] = {1, 4, 3, 2, 0};
    is_channels_last_contiguous_ = detail::compute_contiguous_in_order(sizes_, strides_, cl2d);
    is_channels_last_3d_contiguous_ = detail::compute_contiguous_in_order(sizes_, strides_, cl3d);
  }

}  // namespace opd
