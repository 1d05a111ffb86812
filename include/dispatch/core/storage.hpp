// StorageImpl / Storage: a reference-counted, resizable byte buffer on one
// device.
//
// Why separate from TensorImpl: views (as_strided) are distinct TensorImpls
// over one buffer; resize_ on any of them must grow the buffer for all, so
// the buffer lives in its own shared object whose data pointer can change.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <ostream>
#include <utility>

#include "dispatch/core/allocator.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/intrusive_ptr.hpp"
#include "dispatch/core/object_pool.hpp"

namespace opd {

class StorageImpl final : public intrusive_target {
 public:
  OPD_POOLED_NEW(StorageImpl)  // one per tensor that is no view
  // Allocates nbytes from `allocator` (which must not be null).
  StorageImpl(std::size_t nbytes, Allocator* allocator, Device device, bool resizable = true)
      : data_(checked(allocator)->allocate(nbytes, device)),
        nbytes_(nbytes),
        allocator_(allocator),
        resizable_(resizable) {}

  // Adopts existing memory. With allocator == nullptr the storage cannot be
  // resized (we would not know how to allocate a bigger buffer).
  StorageImpl(DataPtr data, std::size_t nbytes, Allocator* allocator, bool resizable)
      : data_(std::move(data)), nbytes_(nbytes), allocator_(allocator), resizable_(resizable && allocator) {}

  void* data() const noexcept { return data_.get(); }
  std::size_t nbytes() const noexcept { return nbytes_; }
  Device device() const noexcept { return data_.device(); }
  bool resizable() const noexcept { return resizable_; }
  Allocator* allocator() const noexcept { return allocator_; }
  const DataPtr& data_ptr() const noexcept { return data_; }

  // Reallocates to exactly new_nbytes, copying min(old, new) bytes. Every
  // tensor sharing this storage sees the new buffer.
  void resize(std::size_t new_nbytes) {
    OPD_CHECK(resizable_, "Trying to resize storage that is not resizable");
    if (new_nbytes == nbytes_) return;
    DataPtr fresh = allocator_->allocate(new_nbytes, device());
    const std::size_t keep = std::min(nbytes_, new_nbytes);
    if (keep && data_.get()) allocator_->copy_data(fresh.get(), data_.get(), keep);
    data_ = std::move(fresh);
    nbytes_ = new_nbytes;
  }

  // Swaps in a different buffer (e.g. after an out-of-place kernel).
  DataPtr set_data_ptr(DataPtr data, std::size_t nbytes) noexcept {
    std::swap(data_, data);
    nbytes_ = nbytes;
    return data;
  }

 private:
  static Allocator* checked(Allocator* a) {
    OPD_CHECK(a != nullptr, "StorageImpl: allocator must not be null");
    return a;
  }

  DataPtr data_;
  std::size_t nbytes_;
  Allocator* allocator_;
  bool resizable_;
};

// Handle to a StorageImpl; copying shares the buffer. A default-constructed
// Storage is undefined (null).
class Storage {
 public:
  Storage() noexcept = default;
  explicit Storage(intrusive_ptr<StorageImpl> impl) noexcept : impl_(std::move(impl)) {}

  // nbytes of fresh (uninitialised) memory from the device type's registered
  // allocator. Throws if none is registered.
  static Storage allocate(std::size_t nbytes, Device device) {
    return Storage(make_intrusive<StorageImpl>(nbytes, get_allocator(device.type()), device, true));
  }

  // Wraps memory owned by the caller; `on_free` (optional) runs when the last
  // reference dies. Not resizable.
  static Storage from_blob(void* data, std::size_t nbytes, Device device, std::function<void(void*)> on_free = {}) {
    return Storage(make_intrusive<StorageImpl>(DataPtr::from_function(data, std::move(on_free), device), nbytes,
                                               nullptr, false));
  }

  bool defined() const noexcept { return impl_.defined(); }
  void* data() const { return impl().data(); }
  std::size_t nbytes() const { return impl().nbytes(); }
  Device device() const { return impl().device(); }
  bool resizable() const { return impl().resizable(); }
  void resize(std::size_t new_nbytes) const { impl().resize(new_nbytes); }

  std::size_t use_count() const noexcept { return impl_.use_count(); }
  bool is_same(const Storage& other) const noexcept { return impl_ == other.impl_; }
  StorageImpl* unsafe_get_impl() const noexcept { return impl_.get(); }
  const intrusive_ptr<StorageImpl>& impl_ptr() const noexcept { return impl_; }

  friend std::ostream& operator<<(std::ostream& os, const Storage& s) {
    if (!s.defined()) return os << "Storage(undefined)";
    return os << "Storage(nbytes=" << s.nbytes() << ", device=" << s.device() << ")";
  }

 private:
  StorageImpl& impl() const {
    OPD_CHECK(impl_.defined(), "Storage is undefined");
    return *impl_;
  }

  intrusive_ptr<StorageImpl> impl_;
};

}  // namespace opd
