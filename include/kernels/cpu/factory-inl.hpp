#pragma once
// Out-of-line part of factory.hpp (compiled in src/kernels/factory.cpp).
#include <optional>

#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

OPD_FUNC Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return opd::empty(size, dtype.value_or(default_dtype()), device.value_or(Device::cpu()));
}

OPD_FUNC Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor t = kernels::empty(size, dtype, device);
  return kernels::fill_(t, Scalar(int64_t{0}));  // as ones: fill_'s vector stores, split across threads
}

OPD_FUNC Tensor ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor t = kernels::empty(size, dtype, device);
  return kernels::fill_(t, Scalar(int64_t{1}));
}

OPD_FUNC ScalarType full_default_dtype(const Scalar& fill_value) noexcept {
  switch (fill_value.kind()) {
    case Scalar::Kind::Bool: return ScalarType::Bool;
    case Scalar::Kind::Int: return ScalarType::Long;
    case Scalar::Kind::Double: return default_dtype();
    case Scalar::Kind::ComplexDouble: return default_complex_dtype();
  }
  return default_dtype();
}

OPD_FUNC Tensor full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                     std::optional<Device> device) {
  Tensor t = kernels::empty(size, dtype.value_or(full_default_dtype(fill_value)), device);
  return kernels::fill_(t, fill_value);
}

}  // namespace opd::kernels
