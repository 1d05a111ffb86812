// SmallVector<T, N>: a vector with N elements of inline storage, for
// trivially copyable T only (sizes/strides).
//
// Why: almost every tensor has <= 5 dims; keeping sizes and strides inline
// saves two heap allocations per TensorImpl, which dominates the cost of
// creating views and small outputs. Restricting to trivially copyable T keeps
// the implementation to memcpy and obviously correct.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>

#include "dispatch/core/array_ref.hpp"

namespace opd {

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector only supports trivially copyable T");
  static_assert(N > 0, "SmallVector needs inline capacity");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() noexcept = default;
  explicit SmallVector(std::size_t n, const T& value = T()) { assign(n, value); }
  SmallVector(std::initializer_list<T> list) { assign(ArrayRef<T>(list)); }
  explicit SmallVector(ArrayRef<T> values) { assign(values); }

  SmallVector(const SmallVector& other) { assign(ArrayRef<T>(other)); }
  SmallVector(SmallVector&& other) noexcept { steal(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(ArrayRef<T>(other));
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      free_heap();
      steal(other);
    }
    return *this;
  }
  ~SmallVector() { free_heap(); }

  operator ArrayRef<T>() const noexcept { return ArrayRef<T>(data_, size_); }
  ArrayRef<T> ref() const noexcept { return ArrayRef<T>(data_, size_); }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t capacity() const noexcept { return capacity_; }
  bool empty() const noexcept { return size_ == 0; }
  bool is_inline() const noexcept { return data_ == inline_; }

  T* begin() noexcept { return data_; }
  T* end() noexcept { return data_ + size_; }
  const T* begin() const noexcept { return data_; }
  const T* end() const noexcept { return data_ + size_; }

  T& operator[](std::size_t i) noexcept { return data_[i]; }
  const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  T& back() noexcept { return data_[size_ - 1]; }

  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    T* fresh = static_cast<T*>(::operator new(n * sizeof(T)));
    if (size_) std::memcpy(fresh, data_, size_ * sizeof(T));
    free_heap();
    data_ = fresh;
    capacity_ = n;
  }

  void resize(std::size_t n, const T& value = T()) {
    reserve(n);
    for (std::size_t i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }

  void assign(std::size_t n, const T& value) {
    size_ = 0;
    resize(n, value);
  }
  // values may be (a part of) this vector itself.
  void assign(ArrayRef<T> values) {
    const std::size_t n = values.size();
    if (n > capacity_) {  // values cannot be ours: they do not fit in our buffer
      size_ = 0;
      reserve(n);
    }
    // Element by element, front to back (safe for a part of our own buffer):
    // for a handful of dimensions cheaper than a call to memmove.
    const T* from = values.data();
    for (std::size_t i = 0; i < n; ++i) data_[i] = from[i];
    size_ = n;
  }

  void push_back(const T& value) {
    if (size_ == capacity_) {
      T copy = value;  // value may live in our buffer
      reserve(capacity_ * 2);
      data_[size_++] = copy;
    } else {
      data_[size_++] = value;
    }
  }
  void pop_back() noexcept { --size_; }
  void clear() noexcept { size_ = 0; }

  friend bool operator==(const SmallVector& a, const SmallVector& b) noexcept { return a.ref() == b.ref(); }

 private:
  void free_heap() noexcept {
    if (data_ != inline_) ::operator delete(data_);
    data_ = inline_;
    capacity_ = N;
  }
  void steal(SmallVector& other) noexcept {
    if (other.data_ == other.inline_) {
      data_ = inline_;
      capacity_ = N;
      if (other.size_) std::memcpy(inline_, other.inline_, other.size_ * sizeof(T));
    } else {
      data_ = other.data_;
      capacity_ = other.capacity_;
      other.data_ = other.inline_;
      other.capacity_ = N;
    }
    size_ = other.size_;
    other.size_ = 0;
  }

  T* data_ = inline_;
  std::size_t size_ = 0;
  std::size_t capacity_ = N;
  T inline_[N];
};

}  // namespace opd
