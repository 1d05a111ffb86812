#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise.cpp): register_pointwise(), which gathers
// the operator groups registered in ops_pointwise_<group>-inl.hpp (one
// source each: the derived kernels of all of them took 25 s in one file).
#include <string_view>

#include "kernels/ops_pointwise.hpp"

namespace opd::kernels {

OPD_FUNC UnaryOp ops::gelu::op_of(std::string_view approximate) {
  if (approximate == "none") return UnaryOp::Gelu;
  if (approximate == "tanh") return UnaryOp::GeluTanh;
  throw ValueError(opd::detail::str_cat("gelu: approximate argument must be either none or tanh, got '",
                                        approximate, "'"));
}

OPD_FUNC RegistrationSet register_pointwise() {
  RegistrationSet set;
  set.add(detail::register_pointwise_unary_float());
  set.add(detail::register_pointwise_unary_other());
  set.add(detail::register_pointwise_compare());
  set.add(detail::register_pointwise_arith());
  set.add(detail::register_pointwise_unary_trig());
  set.add(detail::register_pointwise_unary_activation());
  set.add(detail::register_pointwise_select());
  set.add(detail::register_pointwise_pow_div());
  return set;
}

}  // namespace opd::kernels
