#pragma once
// A constexpr vector with a capacity fixed at compile time: the storage of a
// schema parsed at compile time (literal.hpp: an upper bound computed from the
// schema text while parsing, see schema::capacity_for, then exactly the sizes found).
#include <array>
#include <cstddef>

namespace opd::schema {

template <class T, std::size_t Capacity>
class static_vector {
 public:
  using value_type = T;
  constexpr std::size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  static constexpr std::size_t capacity() { return Capacity; }
  // Returns false instead of overflowing; the parser turns that into an error.
  constexpr bool push_back(const T& v) {
    if (size_ == Capacity) return false;
    items_[size_++] = v;
    return true;
  }
  constexpr T& operator[](std::size_t i) { return items_[i]; }
  constexpr const T& operator[](std::size_t i) const { return items_[i]; }
  constexpr T& back() { return items_[size_ - 1]; }
  constexpr const T* begin() const { return items_.data(); }
  constexpr const T* end() const { return items_.data() + size_; }
  constexpr T* begin() { return items_.data(); }
  constexpr T* end() { return items_.data() + size_; }

 private:
  std::array<T, Capacity> items_{};
  std::size_t size_ = 0;
};

}  // namespace opd::schema
