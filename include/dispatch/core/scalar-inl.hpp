#pragma once
// Out-of-line part of scalar.hpp: its error path.
#include <string>
#include <string_view>

#include "dispatch/core/error.hpp"
#include "dispatch/core/scalar.hpp"

namespace opd {

OPD_FUNC void Scalar::throw_overflow(std::string_view target) {
  if (target.empty()) throw ValueError("value cannot be converted without overflow");
  throw ValueError(detail::str_cat("value cannot be converted to type ", target, " without overflow"));
}

}  // namespace opd
