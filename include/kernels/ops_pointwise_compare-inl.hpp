#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_compare.cpp): the registration of the
// comparisons (eq, ne, lt, le, gt, ge);
// register_pointwise() gathers the groups.
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_compare() {
  RegistrationSet set;
  set.add(register_structured<ops::eq>());
  set.add(register_structured<ops::eq_scalar>());
  set.add(register_structured<ops::ne>());
  set.add(register_structured<ops::ne_scalar>());
  set.add(register_structured<ops::lt>());
  set.add(register_structured<ops::lt_scalar>());
  set.add(register_structured<ops::le>());
  set.add(register_structured<ops::le_scalar>());
  set.add(register_structured<ops::gt>());
  set.add(register_structured<ops::gt_scalar>());
  set.add(register_structured<ops::ge>());
  set.add(register_structured<ops::ge_scalar>());
  return set;
}

}  // namespace opd::kernels::detail
