// TensorImpl: the shared, reference-counted body of a Tensor — sizes,
// strides, offset, dtype and dispatch keys over a (shared) Storage.
//
// Why every metadata setter validates: a TensorImpl whose sizes/strides
// point outside its storage turns every later kernel into an out-of-bounds
// access, so bad shapes are rejected here with opd::Error instead.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <utility>

#include "dispatch/config.hpp"
#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/intrusive_ptr.hpp"
#include "dispatch/core/layout.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/object_pool.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/core/storage.hpp"
#include "dispatch/keys/dispatch_key_set.hpp"

namespace opd {

// Shared by a tensor and all of its views: an in-place op on any of them
// bumps the one counter, which is how autograd detects that a tensor it
// saved was modified afterwards.
class VersionCounter final : public intrusive_target {
 public:
  OPD_POOLED_NEW(VersionCounter)  // one per tensor (views share their base's)
  uint32_t current() const noexcept { return version_.load(std::memory_order_relaxed); }
  void bump() noexcept { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  std::atomic<uint32_t> version_{0};
};

using SizesVector = SmallVector<int64_t, 5>;

// Autograd's per-tensor state (autograd/autograd_meta.hpp defines it): owned
// by the TensorImpl, null for a tensor that never required grad, so core does
// not depend on autograd.
class AutogradMetaInterface {
 public:
  virtual ~AutogradMetaInterface() = default;
};

namespace detail {

[[noreturn, gnu::cold, gnu::noinline]] inline void throw_int64_overflow(const char* what) {
  throw Error(std::string(what) + " overflows int64");
}
// Both operands are non-negative here. The overflow builtins, not a division
// by the operand: set_sizes_and_strides runs several per call, on every view.
inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) [[unlikely]]
    throw_int64_overflow(what);
  return r;
}
inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) [[unlikely]]
    throw_int64_overflow(what);
  return r;
}

OPD_API void check_sizes(IntArrayRef sizes);

// Product of sizes, checked (sizes already validated non-negative).
OPD_API int64_t checked_numel(IntArrayRef sizes);

// Row-major strides (size-1 and size-0 dims count as 1, like PyTorch).
OPD_API SizesVector contiguous_strides(IntArrayRef sizes);

// Strides for a memory format: ChannelsLast needs 4 dims (NCHW laid out as
// NHWC), ChannelsLast3d needs 5 (NCDHW as NDHWC).
OPD_API SizesVector strides_for_memory_format(IntArrayRef sizes, MemoryFormat format);

// Bytes a tensor with these sizes/strides/offset needs from its storage:
// (offset + 1 + sum((size-1)*stride)) * itemsize, or 0 if it has no elements.
OPD_API int64_t required_storage_bytes(IntArrayRef sizes, IntArrayRef strides, int64_t offset, std::size_t itemsize);

OPD_API bool compute_contiguous(IntArrayRef sizes, IntArrayRef strides);

// `order` lists dims from fastest to slowest varying.
template <std::size_t N>
inline bool compute_contiguous_in_order(IntArrayRef sizes, IntArrayRef strides, const std::size_t (&order)[N]) {
  if (sizes.size() != N) return false;
  int64_t expected = 1;
  for (std::size_t d : order) {
    if (sizes[d] == 0) return true;
  }
  for (std::size_t d : order) {
    if (sizes[d] == 1) continue;
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

inline int64_t wrap_dim(int64_t dim, int64_t ndim) {
  // Like PyTorch, a 0-d tensor accepts dims -1 and 0.
  const int64_t range = ndim > 0 ? ndim : 1;
  OPD_CHECK_INDEX(dim >= -range && dim < range, "Dimension out of range (expected to be in range of [", -range, ", ",
                  range - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + range : dim;
}

}  // namespace detail

// Non-trivial members are out of line (tensor_impl-inl.hpp).
class OPD_API TensorImpl : public intrusive_target {
 public:
  // A contiguous 0-elements-so-far tensor over `storage`: sizes [0]. Callers
  // normally follow with set_sizes_contiguous / set_sizes_and_strides.
  TensorImpl(Storage storage, DispatchKeySet key_set, ScalarType dtype)
      : TensorImpl(std::move(storage), key_set, dtype, make_intrusive<VersionCounter>()) {}

  // Same, sharing an existing version counter (views, detach-like aliases).
  TensorImpl(Storage storage, DispatchKeySet key_set, ScalarType dtype, intrusive_ptr<VersionCounter> version_counter);

  // ---- metadata -------------------------------------------------------
  IntArrayRef sizes() const noexcept { return sizes_; }
  IntArrayRef strides() const noexcept { return strides_; }
  int64_t dim() const noexcept { return static_cast<int64_t>(sizes_.size()); }
  int64_t size(int64_t d) const { return sizes_[checked_dim(d)]; }
  int64_t stride(int64_t d) const { return strides_[checked_dim(d)]; }
  int64_t numel() const noexcept { return numel_; }
  ScalarType dtype() const noexcept { return dtype_; }
  std::size_t itemsize() const noexcept { return element_size(dtype_); }
  Device device() const noexcept { return device_; }
  Layout layout() const noexcept { return Layout::Strided; }
  DispatchKeySet key_set() const noexcept { return key_set_; }
  const Storage& storage() const noexcept { return storage_; }
  int64_t storage_offset() const noexcept { return storage_offset_; }
  bool is_view() const noexcept { return is_view_; }
  // A 0-dim tensor made from a Python (or other host-language) number for a
  // Tensor argument: type promotion counts it as the number it was (c10's
  // is_wrapped_number), so `int_tensor + 2.5` is Float, not Double.
  bool is_wrapped_number() const noexcept { return is_wrapped_number_; }
  // The tensor a view was taken from (never itself a view: a view of a view
  // has the first one's base, as in PyTorch); null when this is no view.
  intrusive_ptr<TensorImpl> base() const noexcept { return intrusive_ptr<TensorImpl>(base_impl()); }

  bool is_contiguous(MemoryFormat format = MemoryFormat::Contiguous) const {
    switch (format) {
      case MemoryFormat::Contiguous: return is_contiguous_;
      case MemoryFormat::ChannelsLast: return is_channels_last_contiguous_;
      case MemoryFormat::ChannelsLast3d: return is_channels_last_3d_contiguous_;
      case MemoryFormat::Preserve:
      case MemoryFormat::NumOptions: break;
    }
    throw Error(detail::str_cat("is_contiguous: memory format ", format, " is not a layout"));
  }

  // First element (storage data + offset); null for meta tensors.
  void* data() const noexcept {
    char* base = static_cast<char*>(storage_.unsafe_get_impl()->data());
    if (base == nullptr) return nullptr;
    return base + storage_offset_ * static_cast<int64_t>(itemsize());
  }

  // ---- version counter ------------------------------------------------
  uint32_t version() const noexcept { return version_counter_->current(); }
  void bump_version() const noexcept { version_counter_->bump(); }
  const intrusive_ptr<VersionCounter>& version_counter() const noexcept { return version_counter_; }
  void set_version_counter(intrusive_ptr<VersionCounter> vc) {
    OPD_CHECK(vc.defined(), "set_version_counter: null counter");
    version_counter_ = std::move(vc);
  }

  // ---- autograd ----------------------------------------------------------
  AutogradMetaInterface* autograd_meta() const noexcept { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> meta) noexcept { autograd_meta_ = std::move(meta); }

  // ---- mutation (all validated) ---------------------------------------
  // Sets sizes, strides and (optionally) the offset; the result must lie
  // inside the storage. Strides must be non-negative.
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, std::optional<int64_t> offset = std::nullopt);

  // Contiguous strides for `sizes`; the storage must already be big enough
  // (use resize() to grow it).
  void set_sizes_contiguous(IntArrayRef sizes, MemoryFormat format = MemoryFormat::Contiguous);

  // resize_: contiguous strides for `sizes`, growing the storage (keeping
  // its bytes) if it is too small. Never shrinks the storage. A no-op when
  // sizes are unchanged (strides are then left alone, as in PyTorch).
  void resize(IntArrayRef sizes, MemoryFormat format = MemoryFormat::Contiguous);

  void set_storage_offset(int64_t offset) { set_sizes_and_strides(sizes_, strides_, offset); }

  void set_key_set(DispatchKeySet ks) noexcept { key_set_ = ks; }
  void add_keys(DispatchKeySet ks) noexcept { key_set_ = key_set_ | ks; }
  void remove_keys(DispatchKeySet ks) noexcept { key_set_ = key_set_ - ks; }
  void set_is_view(bool v) noexcept { is_view_ = v; }
  void set_wrapped_number(bool v) noexcept { is_wrapped_number_ = v; }

  // A new TensorImpl over the same storage and version counter (a view,
  // whose base() is this tensor's base, or this tensor when it is no view).
  // `dtype`: the view's element type when it differs (view_as_real /
  // view_as_complex reinterpret the bytes; sizes, strides and offset count
  // elements of the new type).
  intrusive_ptr<TensorImpl> make_view(IntArrayRef sizes, IntArrayRef strides, std::optional<int64_t> offset,
                                      std::optional<ScalarType> dtype = std::nullopt) const;

 protected:
  // For a subclass whose storage is data-less (it bounds nothing) and whose
  // geometry mirrors one validated elsewhere (a lazy tensor's comes from its
  // operator's Meta kernel, a functional wrapper's from its value): sizes and
  // strides taken as they are, offset 0, no checks.
  void set_sizes_and_strides_unchecked(IntArrayRef sizes, IntArrayRef strides) {
    sizes_.assign(sizes);
    strides_.assign(strides);
    storage_offset_ = 0;
    refresh_numel_and_contiguity();
  }

 private:
  std::size_t checked_dim(int64_t d) const {
    OPD_CHECK_INDEX(dim() > 0, "dimension specified as ", d, " but tensor has no dimensions");
    return static_cast<std::size_t>(detail::wrap_dim(d, dim()));
  }

  static const Storage& checked_storage(const Storage& s) {
    OPD_CHECK(s.defined(), "TensorImpl: storage must be defined");
    return s;
  }

  void check_fits_storage(IntArrayRef sizes, IntArrayRef strides, int64_t offset) const;
  // set_sizes_and_strides's checks, each with its message.
  void check_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t offset) const;

  void refresh_numel_and_contiguity();

  Storage storage_;
  intrusive_ptr<VersionCounter> version_counter_;
  SizesVector sizes_;
  SizesVector strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 0;
  DispatchKeySet key_set_;
  ScalarType dtype_;
  Device device_;
  bool is_contiguous_ = true;
  bool is_channels_last_contiguous_ = false;
  bool is_channels_last_3d_contiguous_ = false;
  bool is_view_ = false;
  bool is_wrapped_number_ = false;
  // Held through the base class: TensorImpl is incomplete here.
  intrusive_ptr<intrusive_target> base_;  // set by make_view only
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  TensorImpl* base_impl() const noexcept { return static_cast<TensorImpl*>(base_.get()); }
};

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/tensor_impl-inl.hpp"
#endif
