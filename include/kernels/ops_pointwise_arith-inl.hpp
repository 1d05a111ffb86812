#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_arith.cpp): the registration of remainder,
// fmod, the bitwise ops and shifts; register_pointwise() gathers the groups.
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_arith() {
  RegistrationSet set;
  set.add(register_structured<ops::remainder>());
  set.add(register_structured<ops::remainder_scalar>());
  set.add(register_structured<ops::fmod>());
  set.add(register_structured<ops::fmod_scalar>());
  set.add(register_structured<ops::bitwise_and>());
  set.add(register_structured<ops::bitwise_and_scalar>());
  set.add(register_structured<ops::bitwise_or>());
  set.add(register_structured<ops::bitwise_or_scalar>());
  set.add(register_structured<ops::bitwise_xor>());
  set.add(register_structured<ops::bitwise_xor_scalar>());
  set.add(register_structured<ops::bitwise_left_shift>());
  set.add(register_structured<ops::bitwise_left_shift_scalar>());
  set.add(register_structured<ops::bitwise_right_shift>());
  set.add(register_structured<ops::bitwise_right_shift_scalar>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  using P = PointwiseOp;
  set.add(register_kernel<ops::remainder_scalar_tensor, &detail::scalar_tensor_kernel<P::Remainder>>(cpu));
  set.add(register_kernel<ops::bitwise_and_scalar_tensor, &detail::scalar_tensor_kernel<P::BitwiseAnd>>(cpu));
  set.add(register_kernel<ops::bitwise_or_scalar_tensor, &detail::scalar_tensor_kernel<P::BitwiseOr>>(cpu));
  set.add(register_kernel<ops::bitwise_xor_scalar_tensor, &detail::scalar_tensor_kernel<P::BitwiseXor>>(cpu));
  set.add(register_kernel<ops::bitwise_left_shift_scalar_tensor, &detail::scalar_tensor_kernel<P::LeftShift>>(cpu));
  set.add(register_kernel<ops::bitwise_right_shift_scalar_tensor, &detail::scalar_tensor_kernel<P::RightShift>>(cpu));
  // Meta: the same meta functions (masked_fill: the same function, which
  // stops before reading data on Meta tensors); out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::remainder_scalar_tensor, &detail::scalar_tensor_meta_kernel<PointwiseOp::Remainder>>(meta));
  set.add(register_kernel<ops::bitwise_and_scalar_tensor, &detail::scalar_tensor_meta_kernel<PointwiseOp::BitwiseAnd>>(meta));
  set.add(register_kernel<ops::bitwise_or_scalar_tensor, &detail::scalar_tensor_meta_kernel<PointwiseOp::BitwiseOr>>(meta));
  set.add(register_kernel<ops::bitwise_xor_scalar_tensor, &detail::scalar_tensor_meta_kernel<PointwiseOp::BitwiseXor>>(meta));
  set.add(register_kernel<ops::bitwise_left_shift_scalar_tensor, &detail::scalar_tensor_meta_kernel<PointwiseOp::LeftShift>>(meta));
  set.add(register_kernel<ops::bitwise_right_shift_scalar_tensor, &detail::scalar_tensor_meta_kernel<PointwiseOp::RightShift>>(meta));
  return set;
}

}  // namespace opd::kernels::detail
