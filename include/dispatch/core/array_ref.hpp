// ArrayRef<T>: a non-owning view of contiguous const T (c10::ArrayRef).
//
// Why not just std::span<const T>: APIs such as empty({2, 3}) need implicit
// construction from a braced list, and tests need == against std::vector and
// printing; std::span offers neither.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "dispatch/core/error.hpp"

namespace opd {

template <class T>
class ArrayRef {
 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;
  using size_type = std::size_t;

  constexpr ArrayRef() noexcept = default;
  constexpr ArrayRef(const T* data, std::size_t size) noexcept : data_(data), size_(size) {}
  constexpr ArrayRef(const T* begin, const T* end) noexcept : data_(begin), size_(static_cast<std::size_t>(end - begin)) {}

  // The list must outlive the ArrayRef: fine for function arguments
  // (empty({2, 3})), dangling if stored. GCC warns about exactly that
  // (-Winit-list-lifetime); the borrowing is the point, as in c10.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"  // intended: the list outlives the call it is passed to
#endif
  constexpr ArrayRef(std::initializer_list<T> list) noexcept
      : data_(list.size() == 0 ? nullptr : list.begin()), size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  template <class A>
  ArrayRef(const std::vector<T, A>& v) noexcept : data_(v.data()), size_(v.size()) {}
  template <std::size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) noexcept : data_(a.data()), size_(N) {}
  template <std::size_t N>
  constexpr ArrayRef(const T (&a)[N]) noexcept : data_(a), size_(N) {}
  template <std::size_t E>
  constexpr ArrayRef(std::span<const T, E> s) noexcept : data_(s.data()), size_(s.size()) {}
  template <std::size_t E>
  constexpr ArrayRef(std::span<T, E> s) noexcept : data_(s.data()), size_(s.size()) {}

  constexpr const T* data() const noexcept { return data_; }
  constexpr std::size_t size() const noexcept { return size_; }
  constexpr bool empty() const noexcept { return size_ == 0; }
  constexpr const T* begin() const noexcept { return data_; }
  constexpr const T* end() const noexcept { return data_ + size_; }
  constexpr const T& front() const { return at(0); }
  constexpr const T& back() const { return at(size_ - 1); }

  constexpr const T& operator[](std::size_t i) const noexcept { return data_[i]; }
  constexpr const T& at(std::size_t i) const {
    OPD_CHECK_INDEX(i < size_, "ArrayRef: index ", i, " out of range for size ", size_);
    return data_[i];
  }

  constexpr ArrayRef slice(std::size_t start, std::size_t n) const {
    OPD_CHECK_INDEX(start <= size_ && n <= size_ - start, "ArrayRef::slice(", start, ", ", n,
                    ") out of range for size ", size_);
    return ArrayRef(data_ + start, n);
  }
  constexpr ArrayRef slice(std::size_t start) const {
    OPD_CHECK_INDEX(start <= size_, "ArrayRef::slice(", start, ") out of range for size ", size_);
    return ArrayRef(data_ + start, size_ - start);
  }

  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  constexpr std::span<const T> span() const noexcept { return {data_, size_}; }

  friend constexpr bool operator==(ArrayRef a, ArrayRef b) noexcept {
    if (a.size_ != b.size_) return false;
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (!(a.data_[i] == b.data_[i])) return false;
    }
    return true;
  }
  // So `ref == std::vector{...}` works in both orders (C++20 also tries the
  // reversed form).
  template <class A>
  friend bool operator==(ArrayRef a, const std::vector<T, A>& b) noexcept {
    return a == ArrayRef(b);
  }

  friend std::ostream& operator<<(std::ostream& os, ArrayRef a) {
    os << '[';
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (i) os << ", ";
      os << a.data_[i];
    }
    return os << ']';
  }
  // The same text for error messages, without a stream (str_cat finds it by ADL).
  friend void append_to(std::string& out, ArrayRef a) {
    detail::append_to(out, '[');
    for (std::size_t i = 0; i < a.size_; ++i) {
      if (i) detail::append_to(out, std::string_view(", "));
      detail::append_to(out, a.data_[i]);
    }
    detail::append_to(out, ']');
  }

 private:
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

using IntArrayRef = ArrayRef<int64_t>;

}  // namespace opd
