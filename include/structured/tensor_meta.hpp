#pragma once
// The vocabulary of structured kernels:
//
//   opd::TensorMeta          what a structured operator's meta() returns: the
//                            output's sizes, dtype and memory format
//   opd::backend_tag<Key>    the first parameter of impl(), one overload per backend
//   opd::structured_backend_keys  the backends impl() is looked for on
//   opd::structured_detail::can_cast  PyTorch's c10::canCast
#include <cstdint>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>

#include "dispatch/core/memory_format.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/keys/dispatch_key.hpp"

namespace opd {

// The output of a structured operator as its meta function computes it. The
// device is not part of it: the output lives where the inputs live (on the
// backend whose kernel runs; on Meta for the Meta kernel).
struct TensorMeta {
  std::vector<int64_t> sizes;
  ScalarType dtype = ScalarType::Float;
  // The layout impl() receives its output in (Contiguous, ChannelsLast,
  // ChannelsLast3d; Preserve is not a layout and is rejected).
  MemoryFormat memory_format = MemoryFormat::Contiguous;
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
