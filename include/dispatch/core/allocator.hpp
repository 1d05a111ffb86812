// DataPtr, Allocator and the per-DeviceType allocator registry.
//
// Why a registry instead of hard-wired malloc: the library is
// device-agnostic; a CUDA (or PrivateUse1) backend plugs its allocator in
// with set_allocator() at start-up and every factory (empty, resize_) picks
// it up by the tensor's device type. CPU and Meta come pre-registered.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <utility>

#include "dispatch/config.hpp"
#include "dispatch/core/cpu_block_cache.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/error.hpp"

namespace opd {

// An owning pointer to device memory plus how to free it. `data` is what
// kernels read; `context` is what the deleter receives (often the same
// pointer; a caching allocator may pass its block record instead).
class DataPtr {
 public:
  using Deleter = void (*)(void* context) noexcept;

  explicit DataPtr(Device device = Device::cpu()) noexcept : device_(device) {}
  DataPtr(void* data, void* context, Deleter deleter, Device device) noexcept
      : data_(data), context_(context), deleter_(deleter), device_(device) {}

  // Wraps memory owned elsewhere; `on_free` (may be empty) runs when the
  // DataPtr dies.
  static DataPtr from_function(void* data, std::function<void(void*)> on_free, Device device) {
    if (!on_free) return DataPtr(data, nullptr, nullptr, device);
    struct Ctx {
      void* data;
      std::function<void(void*)> fn;
    };
    auto* ctx = new Ctx{data, std::move(on_free)};
    return DataPtr(data, ctx, [](void* c) noexcept {
      auto* typed = static_cast<Ctx*>(c);
      typed->fn(typed->data);
      delete typed;
    }, device);
  }

  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        context_(std::exchange(other.context_, nullptr)),
        deleter_(std::exchange(other.deleter_, nullptr)),
        device_(other.device_) {}
  DataPtr& operator=(DataPtr&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      context_ = std::exchange(other.context_, nullptr);
      deleter_ = std::exchange(other.deleter_, nullptr);
      device_ = other.device_;
    }
    return *this;
  }
  ~DataPtr() { reset(); }

  void reset() noexcept {
    if (deleter_) deleter_(context_);
    data_ = context_ = nullptr;
    deleter_ = nullptr;
  }

  void* get() const noexcept { return data_; }
  void* context() const noexcept { return context_; }
  Deleter deleter() const noexcept { return deleter_; }
  Device device() const noexcept { return device_; }
  explicit operator bool() const noexcept { return data_ != nullptr; }

 private:
  void* data_ = nullptr;
  void* context_ = nullptr;
  Deleter deleter_ = nullptr;
  Device device_;
};

class OPD_API Allocator {
 public:
  virtual ~Allocator() = default;
  // Must return a DataPtr for `nbytes` bytes on `device` (null data is fine
  // for nbytes == 0). Throws on failure.
  virtual DataPtr allocate(std::size_t nbytes, Device device) = 0;
  // Copies between two buffers this allocator produced (used when a storage
  // grows). The default is memcpy, right for host-addressable memory only;
  // device allocators must override.
  virtual void copy_data(void* dst, const void* src, std::size_t nbytes) const {
    if (nbytes) std::memcpy(dst, src, nbytes);
  }
};

// 64-byte aligned host memory: a cache line, and enough for AVX-512 loads.
// Blocks of cpu_block_cache::kMinBytes and more are reused through that
// cache (cpu_block_cache.hpp says why); smaller ones are malloc's.
class OPD_API CPUAllocator final : public Allocator {
 public:
  static constexpr std::size_t kAlignment = 64;

  DataPtr allocate(std::size_t nbytes, Device device) override {
    OPD_CHECK(device.is_cpu(), "CPUAllocator cannot allocate on ", device);
    if (nbytes == 0) return DataPtr(nullptr, nullptr, nullptr, device);
    if (nbytes >= cpu_block_cache::kMinBytes) {
      void* block = cpu_block_cache::allocate(nbytes, kAlignment);
      return DataPtr(block, block, &cpu_block_cache::release, device);
    }
    // malloc, aligned by hand (the deleter gets malloc's pointer): aligned
    // operator new goes to glibc's memalign, several hundred instructions a
    // call where malloc's fast path takes a few dozen (small tensors).
    if (nbytes > std::numeric_limits<std::size_t>::max() - kAlignment) throw std::bad_alloc();
    void* raw = std::malloc(nbytes + kAlignment - 1);
    if (raw == nullptr) throw std::bad_alloc();
    const auto aligned = (reinterpret_cast<std::uintptr_t>(raw) + kAlignment - 1) & ~std::uintptr_t{kAlignment - 1};
    return DataPtr(reinterpret_cast<void*>(aligned), raw, &free_raw, device);
  }

 private:
  static void free_raw(void* p) noexcept { std::free(p); }
};

// Meta tensors carry shapes only: the storage records nbytes, data is null.
class OPD_API MetaAllocator final : public Allocator {
 public:
  DataPtr allocate(std::size_t, Device device) override { return DataPtr(nullptr, nullptr, nullptr, device); }
  void copy_data(void*, const void*, std::size_t) const override {}
};

namespace detail {
// The process's one table, a slot per DeviceType (allocator-inl.hpp):
// initialised on first use, so registering from another translation unit's
// static initialiser is safe.
OPD_API std::atomic<Allocator*>* allocator_table() noexcept;
}  // namespace detail

// Registers (or, with nullptr, unregisters) the allocator for a device type.
// The allocator must outlive every storage it allocates. Returns the
// previous one so tests can restore it.
inline Allocator* set_allocator(DeviceType type, Allocator* allocator) {
  OPD_CHECK(is_valid_device_type(static_cast<int64_t>(type)), "set_allocator: invalid DeviceType value ",
            static_cast<int>(type));
  return detail::allocator_table()[static_cast<int>(type)].exchange(allocator, std::memory_order_acq_rel);
}

// Null if none is registered.
inline Allocator* try_get_allocator(DeviceType type) noexcept {
  if (!is_valid_device_type(static_cast<int64_t>(type))) return nullptr;
  return detail::allocator_table()[static_cast<int>(type)].load(std::memory_order_acquire);
}

// Throws opd::Error if none is registered.
inline Allocator* get_allocator(DeviceType type) {
  Allocator* a = try_get_allocator(type);
  OPD_CHECK(a != nullptr, "no allocator registered for device type ", type,
            " (call opd::set_allocator(DeviceType::", type, ", ...) first)");
  return a;
}

}  // namespace opd

#ifdef OPD_HEADER_ONLY
#include "dispatch/core/allocator-inl.hpp"
#endif
