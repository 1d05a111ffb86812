#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_unary_float.cpp): the registration of the
// exponentials, logarithms, sqrt, rsqrt and reciprocal; register_pointwise() gathers the
// groups.
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_unary_float() {
  RegistrationSet set;
  set.add(register_structured<ops::exp>());
  set.add(register_structured<ops::exp2>());
  set.add(register_structured<ops::expm1>());
  set.add(register_structured<ops::log>());
  set.add(register_structured<ops::log2>());
  set.add(register_structured<ops::log10>());
  set.add(register_structured<ops::log1p>());
  set.add(register_structured<ops::sqrt>());
  set.add(register_structured<ops::rsqrt>());
  set.add(register_structured<ops::reciprocal>());
  return set;
}

}  // namespace opd::kernels::detail
