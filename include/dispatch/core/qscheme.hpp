// QScheme: PyTorch's quantization schemes, with PyTorch's numbering; in an
// IValue a QScheme travels as Int, as in PyTorch.
#pragma once

#include <cstdint>

#include "dispatch/core/error.hpp"
#include "dispatch/core/ivalue.hpp"

namespace opd {

enum class QScheme : std::uint8_t {
  PerTensorAffine = 0,
  PerChannelAffine = 1,
  PerTensorSymmetric = 2,
  PerChannelSymmetric = 3,
  PerChannelAffineFloatQParams = 4,
};

template <>
struct ivalue_converter<QScheme> {
  static IValue to_ivalue(QScheme q) { return IValue(static_cast<std::int64_t>(q)); }
  static QScheme from_ivalue(const IValue& v) {
    const std::int64_t i = v.to_int();
    OPD_CHECK_VALUE(i >= 0 && i <= static_cast<std::int64_t>(QScheme::PerChannelAffineFloatQParams), "Int value ", i,
                    " is not a valid QScheme");
    return static_cast<QScheme>(i);
  }
};

}  // namespace opd
