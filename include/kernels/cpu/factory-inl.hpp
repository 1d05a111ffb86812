#pragma once
// Out-of-line part of factory.hpp (compiled in src/kernels/factory.cpp).
#include <cstring>
#include <optional>

#include "kernels/cpu/factory.hpp"
#include "kernels/cpu/fill_copy.hpp"
#include "kernels/cpu/parallel.hpp"
#include "kernels/cpu/type_promotion.hpp"

namespace opd::kernels {

OPD_FUNC Tensor empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  return opd::empty(size, dtype.value_or(default_dtype()), device.value_or(Device::cpu()));
}

OPD_FUNC Tensor zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Device> device) {
  Tensor t = kernels::empty(size, dtype, device);
  if (!t.device().is_cpu() || t.numel() == 0) return t;
  // all-zero bytes are 0 in every dtype; large blocks in pieces across threads
  auto* bytes = static_cast<char*>(t.data_ptr());
  parallel_for(0, static_cast<int64_t>(t.nbytes()), grain_size * int64_t{sizeof(float)}, [&](int64_t b, int64_t e) {
    std::memset(bytes + b, 0, static_cast<std::size_t>(e - b));
  });
  return t;
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
