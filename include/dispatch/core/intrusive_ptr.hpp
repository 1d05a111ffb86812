// intrusive_target / intrusive_ptr<T>: reference counting stored in the object.
//
// Why intrusive (like c10::intrusive_ptr) rather than std::shared_ptr:
//  * a handle is one pointer wide, so Tensor and IValue payloads stay small;
//  * copying costs one relaxed atomic increment, moving costs nothing atomic;
//  * a raw pointer can be turned back into an owning handle (reclaim), which
//    IValue needs to keep a single untyped pointer slot for every heap kind.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace opd {

class intrusive_target;

namespace detail {
inline void incref(const intrusive_target* p) noexcept;
inline void decref(const intrusive_target* p) noexcept;
}  // namespace detail

// Base class of every reference-counted object. The count starts at 0; the
// first intrusive_ptr that adopts the object (make_intrusive) sets it to 1.
class intrusive_target {
 public:
  intrusive_target() noexcept = default;
  // Counts are identity, never copied along with the object.
  intrusive_target(const intrusive_target&) noexcept {}
  intrusive_target& operator=(const intrusive_target&) noexcept { return *this; }
  virtual ~intrusive_target() = default;

  std::size_t use_count() const noexcept { return refcount_.load(std::memory_order_acquire); }

 private:
  friend void detail::incref(const intrusive_target* p) noexcept;
  friend void detail::decref(const intrusive_target* p) noexcept;
  mutable std::atomic<std::size_t> refcount_{0};
};

namespace detail {
inline void incref(const intrusive_target* p) noexcept {
  // Relaxed is enough for increments: the caller already holds a reference.
  p->refcount_.fetch_add(1, std::memory_order_relaxed);
}
// The last reference is gone: out of line, so that decref itself inlines.
[[gnu::noinline]] inline void delete_target(const intrusive_target* p) noexcept { delete p; }
inline void decref(const intrusive_target* p) noexcept {
  // acq_rel so the deleting thread sees all writes made through other handles.
  if (p->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) [[unlikely]]
    delete_target(p);
}
}  // namespace detail

struct adopt_t {
  explicit adopt_t() = default;
};
inline constexpr adopt_t adopt{};

template <class T>
class intrusive_ptr {
  static_assert(std::is_base_of_v<intrusive_target, T>, "T must derive from opd::intrusive_target");

 public:
  using element_type = T;

  constexpr intrusive_ptr() noexcept = default;
  constexpr intrusive_ptr(std::nullptr_t) noexcept {}

  // Takes a new reference on p (p may be null).
  explicit intrusive_ptr(T* p) noexcept : ptr_(p) {
    if (ptr_) detail::incref(ptr_);
  }
  // Adopts a reference already counted for us (see release()).
  intrusive_ptr(T* p, adopt_t) noexcept : ptr_(p) {}

  intrusive_ptr(const intrusive_ptr& other) noexcept : ptr_(other.ptr_) {
    if (ptr_) detail::incref(ptr_);
  }
  intrusive_ptr(intrusive_ptr&& other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}

  template <class U>
    requires std::is_convertible_v<U*, T*>
  intrusive_ptr(const intrusive_ptr<U>& other) noexcept : intrusive_ptr(static_cast<T*>(other.get())) {}
  template <class U>
    requires std::is_convertible_v<U*, T*>
  intrusive_ptr(intrusive_ptr<U>&& other) noexcept : ptr_(other.release()) {}

  intrusive_ptr& operator=(const intrusive_ptr& other) noexcept {
    intrusive_ptr(other).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& other) noexcept {
    intrusive_ptr(std::move(other)).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(std::nullptr_t) noexcept {
    reset();
    return *this;
  }

  ~intrusive_ptr() {
    if (ptr_) detail::decref(ptr_);
  }

  T* get() const noexcept { return ptr_; }
  T& operator*() const noexcept { return *ptr_; }
  T* operator->() const noexcept { return ptr_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }
  bool defined() const noexcept { return ptr_ != nullptr; }

  std::size_t use_count() const noexcept { return ptr_ ? ptr_->use_count() : 0; }
  bool unique() const noexcept { return use_count() == 1; }

  void reset() noexcept { intrusive_ptr().swap(*this); }
  void swap(intrusive_ptr& other) noexcept { std::swap(ptr_, other.ptr_); }

  // Gives up ownership without decrementing; pair with intrusive_ptr(p, adopt).
  [[nodiscard]] T* release() noexcept { return std::exchange(ptr_, nullptr); }

  friend bool operator==(const intrusive_ptr& a, const intrusive_ptr& b) noexcept { return a.ptr_ == b.ptr_; }
  friend bool operator==(const intrusive_ptr& a, std::nullptr_t) noexcept { return a.ptr_ == nullptr; }

 private:
  T* ptr_ = nullptr;
};

template <class T, class... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace opd
