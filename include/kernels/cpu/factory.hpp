// Factories with PyTorch's optional dtype/device arguments:
//
//   empty(int[] size, *, ScalarType? dtype=None, Device? device=None)
//   zeros(int[] size, *, ScalarType? dtype=None, Device? device=None)
//   ones(int[] size, *, ScalarType? dtype=None, Device? device=None)
//   full(int[] size, Scalar fill_value, *, ScalarType? dtype=None, Device? device=None)
//
// dtype defaults to the default dtype (Float); full infers it from the
// value instead (bool -> Bool, int -> Long, float -> Float), as PyTorch
// does since 1.8. device defaults to the CPU. Contiguous results.
//
// Call them qualified (opd::kernels::empty): opd::empty (dispatch/core) has
// the same name and is found by argument-dependent lookup.
#pragma once

#include <cstring>
#include <optional>

#include "dispatch/core/device.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

inline Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                    std::optional<Device> device = std::nullopt) {
  return opd::empty(size, dtype.value_or(default_dtype()), device.value_or(Device::cpu()));
}

// All-zero bytes are zero for every dtype, so zeros works for all of them.
inline Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                    std::optional<Device> device = std::nullopt) {
  Tensor t = kernels::empty(size, dtype, device);
  if (t.device().is_cpu() && t.numel() > 0) std::memset(t.data_ptr(), 0, t.nbytes());
  return t;
}

inline Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                   std::optional<Device> device = std::nullopt) {
  Tensor t = kernels::empty(size, dtype, device);
  return kernels::fill_(t, Scalar(int64_t{1}));
}

// The dtype full() picks for a value when none is given.
inline ScalarType full_default_dtype(const Scalar& fill_value) noexcept {
  switch (fill_value.kind()) {
    case Scalar::Kind::Bool: return ScalarType::Bool;
    case Scalar::Kind::Int: return ScalarType::Long;
    case Scalar::Kind::Double: return default_dtype();
    case Scalar::Kind::ComplexDouble: return default_complex_dtype();
  }
  return default_dtype();
}

inline Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype = std::nullopt,
                   std::optional<Device> device = std::nullopt) {
  Tensor t = kernels::empty(size, dtype.value_or(full_default_dtype(fill_value)), device);
  return kernels::fill_(t, fill_value);
}

}  // namespace opd::kernels
