#pragma once
// The vocabulary of structured kernels:
//
//   opd::TensorMeta          what a structured operator's meta() returns: the
//                            output's sizes, dtype and memory format
//   opd::MetaSizes           TensorMeta::sizes: a SmallVector with 5 dimensions
//                            inline (no heap), used like a std::vector<int64_t>
//   opd::backend_tag<Key>    the first parameter of impl(), one overload per backend
//   opd::structured_backend_keys  the backends impl() is looked for on
//   opd::structured_detail::can_cast  PyTorch's c10::canCast
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "dispatch/core/array_ref.hpp"
#include "dispatch/core/error.hpp"
#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/small_vector.hpp"
#include "dispatch/keys/dispatch_key.hpp"

namespace opd {

// The sizes of a TensorMeta: a SmallVector with 5 dimensions inline, so that
// a meta() call allocates nothing in the common case, that also reads and
// writes like the std::vector<int64_t> it replaces: built from (and assigned)
// a braced list, a std::vector<int64_t> or an IntArrayRef, converts to
// IntArrayRef and std::vector<int64_t>, compares with all three, prints.
class MetaSizes : public SmallVector<int64_t, 5> {
  using base = SmallVector<int64_t, 5>;

 public:
  MetaSizes() noexcept = default;
  MetaSizes(std::initializer_list<int64_t> list) : base(list) {}
  MetaSizes(IntArrayRef sizes) : base(sizes) {}
  MetaSizes(const std::vector<int64_t>& sizes) : base(IntArrayRef(sizes)) {}
  explicit MetaSizes(std::size_t n, int64_t value = 0) : base(n, value) {}

  MetaSizes& operator=(std::initializer_list<int64_t> list) {
    assign(IntArrayRef(list));
    return *this;
  }
  MetaSizes& operator=(IntArrayRef sizes) {
    assign(sizes);
    return *this;
  }
  MetaSizes& operator=(const std::vector<int64_t>& sizes) {
    assign(IntArrayRef(sizes));
    return *this;
  }

  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }
  operator std::vector<int64_t>() const { return vec(); }
  const int64_t& at(std::size_t i) const {
    OPD_CHECK_INDEX(i < size(), "MetaSizes: index ", i, " out of range for size ", size());
    return (*this)[i];
  }

  friend bool operator==(const MetaSizes& a, const MetaSizes& b) noexcept { return a.ref() == b.ref(); }
  friend bool operator==(const MetaSizes& a, IntArrayRef b) noexcept { return a.ref() == b; }
  friend bool operator==(const MetaSizes& a, const std::vector<int64_t>& b) noexcept {
    return a.ref() == IntArrayRef(b);
  }
  friend std::ostream& operator<<(std::ostream& os, const MetaSizes& s) { return os << s.ref(); }
};

// The output of a structured operator as its meta function computes it. The
// device is not part of it: the output lives where the inputs live (on the
// backend whose kernel runs; on Meta for the Meta kernel).
struct TensorMeta {
  MetaSizes sizes;
  ScalarType dtype = ScalarType::Float;
  // The layout impl() receives its output in (Contiguous, ChannelsLast,
  // ChannelsLast3d; Preserve is not a layout and is rejected).
  MemoryFormat memory_format = MemoryFormat::Contiguous;
  // Empty (the common case): the output is contiguous in memory_format.
  // Otherwise its strides, one per dimension, dense: the layout no memory
  // format names that TensorIterator gives an elementwise output whose
  // inputs are permuted (kernels::elementwise_output_layout), which
  // memory_format then does not describe.
  MetaSizes strides{};
};

// impl(opd::backend_tag<opd::DispatchKey::CPU>, ...) is the CPU kernel of a
// structured operator; one overload per backend.
template <DispatchKey Key>
struct backend_tag {
  static constexpr DispatchKey key = Key;
};

template <DispatchKey Key>
using dispatch_key_constant = std::integral_constant<DispatchKey, Key>;

// The backends a structured operator's impl() overloads are looked for on, in
// registration order.
using structured_backend_keys =
    boost::mp11::mp_list<dispatch_key_constant<DispatchKey::CPU>, dispatch_key_constant<DispatchKey::CUDA>,
                         dispatch_key_constant<DispatchKey::Meta>, dispatch_key_constant<DispatchKey::PrivateUse1>,
                         dispatch_key_constant<DispatchKey::PrivateUse2>,
                         dispatch_key_constant<DispatchKey::PrivateUse3>>;

namespace structured_detail {

// c10::canCast: may a result of dtype `from` be written into a tensor of
// dtype `to`? Not into a lower category: complex -> real, floating ->
// integral, and anything but Bool -> Bool are refused (int_tensor *= 1.5 is an
// error); within a category any cast is fine (float_tensor *= double_tensor).
constexpr bool can_cast(ScalarType from, ScalarType to) noexcept {
  if (is_complex_type(from) && !is_complex_type(to)) return false;
  if (is_floating_type(from) && is_integral_type(to, /*include_bool=*/false)) return false;
  if (from != ScalarType::Bool && to == ScalarType::Bool) return false;
  return true;
}

}  // namespace structured_detail
}  // namespace opd
