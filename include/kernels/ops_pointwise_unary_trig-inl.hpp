#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_unary_trig.cpp): the registration of the trigonometric and hyperbolic unary operators, sigmoid, erf, erfc and the inverse hyperbolic functions;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_unary_float-inl.hpp: one source took 8-10 s to compile.)
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_unary_trig() {
  RegistrationSet set;
  set.add(register_structured<ops::sin>());
  set.add(register_structured<ops::cos>());
  set.add(register_structured<ops::tan>());
  set.add(register_structured<ops::asin>());
  set.add(register_structured<ops::acos>());
  set.add(register_structured<ops::atan>());
  set.add(register_structured<ops::sinh>());
  set.add(register_structured<ops::cosh>());
  set.add(register_structured<ops::tanh>());
  set.add(register_structured<ops::sigmoid>());
  set.add(register_structured<ops::erf>());
  set.add(register_structured<ops::erfc>());
  set.add(register_structured<ops::acosh>());
  set.add(register_structured<ops::asinh>());
  set.add(register_structured<ops::atanh>());
  return set;
}

}  // namespace opd::kernels::detail
