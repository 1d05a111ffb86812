#pragma once
// Out-of-line part of ivalue.hpp: its error paths.
#include "dispatch/core/error.hpp"
#include "dispatch/core/ivalue.hpp"

namespace opd {

OPD_FUNC void IValue::fail_expected(std::string_view expected) const {
  throw TypeError(detail::str_cat("Expected ", expected, " but got ", tag_kind()));
}
OPD_FUNC void IValue::fail_expected(Tag expected) const { fail_expected(opd::tag_name(expected)); }

}  // namespace opd
