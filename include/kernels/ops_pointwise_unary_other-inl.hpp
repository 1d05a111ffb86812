#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_unary_other.cpp): the registration of the
// other unary operators (neg, abs, sign, rounding, bitwise_not,
// logical_not, isnan, isinf, isfinite);
// register_pointwise() gathers the groups.
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_unary_other() {
  RegistrationSet set;
  set.add(register_structured<ops::neg>());
  set.add(register_structured<ops::abs>());
  set.add(register_structured<ops::sign>());
  set.add(register_structured<ops::sgn>());
  set.add(register_structured<ops::floor>());
  set.add(register_structured<ops::ceil>());
  set.add(register_structured<ops::round>());
  set.add(register_structured<ops::trunc>());
  set.add(register_structured<ops::bitwise_not>());
  set.add(register_structured<ops::logical_not>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  set.add(register_kernel<ops::isnan, &detail::isnan_kernel>(cpu));
  set.add(register_kernel<ops::isinf, &detail::isinf_kernel>(cpu));
  set.add(register_kernel<ops::isfinite, &detail::isfinite_kernel>(cpu));
  // Meta: the same meta functions (masked_fill: the same function, which
  // stops before reading data on Meta tensors); out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::isnan, &detail::unary_meta_kernel<UnaryOp::IsNan>>(meta));
  set.add(register_kernel<ops::isinf, &detail::unary_meta_kernel<UnaryOp::IsInf>>(meta));
  set.add(register_kernel<ops::isfinite, &detail::unary_meta_kernel<UnaryOp::IsFinite>>(meta));
  return set;
}

}  // namespace opd::kernels::detail
