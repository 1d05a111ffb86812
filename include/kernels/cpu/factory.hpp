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

#include <optional>

#include "dispatch/config.hpp"
#include "dispatch/core/device.hpp"
#include "dispatch/core/scalar.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                     std::optional<Device> device = std::nullopt);
// All-zero bytes are zero for every dtype, so zeros works for all of them.
OPD_API Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                     std::optional<Device> device = std::nullopt);
OPD_API Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                    std::optional<Device> device = std::nullopt);

// The dtype full() picks for a value when none is given.
OPD_API ScalarType full_default_dtype(const Scalar& fill_value) noexcept;

OPD_API Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype = std::nullopt,
                    std::optional<Device> device = std::nullopt);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/factory-inl.hpp"
#endif
