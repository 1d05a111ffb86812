#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_pow_div.cpp): the registration of atan2, pow, the divisions, lerp, addcmul and addcdiv;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_arith-inl.hpp: one source took 8-10 s to compile.)
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_pow_div() {
  RegistrationSet set;
  set.add(register_structured<ops::atan2>());
  set.add(register_structured<ops::pow_scalar_self>());
  set.add(register_structured<ops::div_mode>());
  set.add(register_structured<ops::lerp_scalar>());
  set.add(register_structured<ops::lerp_tensor>());
  set.add(register_structured<ops::addcmul>());
  set.add(register_structured<ops::addcdiv>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  using P = PointwiseOp;
  set.add(register_kernel<ops::pow_tensor, &detail::pointwise_kernel<P::Pow>>(cpu));
  set.add(register_kernel<ops::pow_tensor_, &detail::pointwise_inplace<P::Pow>>(cpu));
  set.add(derive_missing_variants<ops::pow_tensor, ops::pow_tensor_, ops::pow_tensor_out>(cpu, detail::pointwise_spec<P::Pow>{}));
  set.add(register_kernel<ops::pow_scalar, &detail::pointwise_scalar_kernel<P::Pow>>(cpu));
  set.add(register_kernel<ops::pow_scalar_, &detail::pointwise_scalar_inplace<P::Pow>>(cpu));
  set.add(derive_missing_variants<ops::pow_scalar, ops::pow_scalar_, ops::pow_scalar_out>(cpu, detail::pointwise_scalar_spec<P::Pow>{}));
  set.add(register_kernel<ops::floor_divide, &detail::pointwise_kernel<P::FloorDivide>>(cpu));
  set.add(register_kernel<ops::floor_divide_, &detail::pointwise_inplace<P::FloorDivide>>(cpu));
  set.add(derive_missing_variants<ops::floor_divide, ops::floor_divide_, ops::floor_divide_out>(cpu, detail::pointwise_spec<P::FloorDivide>{}));
  set.add(register_kernel<ops::floor_divide_scalar, &detail::pointwise_scalar_kernel<P::FloorDivide>>(cpu));
  set.add(register_kernel<ops::floor_divide_scalar_, &detail::pointwise_scalar_inplace<P::FloorDivide>>(cpu));
  set.add(register_kernel<ops::div_scalar_mode, &detail::div_scalar_mode_kernel>(cpu));
  set.add(register_kernel<ops::div_scalar_mode_, &detail::div_scalar_mode_inplace>(cpu));
  // Meta: the same meta functions; out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::pow_tensor, &detail::pointwise_meta_kernel<PointwiseOp::Pow>>(meta));
  set.add(register_kernel<ops::pow_tensor_, &detail::pointwise_inplace_meta<PointwiseOp::Pow>>(meta));
  set.add(derive_missing_variants<ops::pow_tensor, ops::pow_tensor_, ops::pow_tensor_out>(meta, detail::pointwise_spec<PointwiseOp::Pow>{}));
  set.add(register_kernel<ops::pow_scalar, &detail::pointwise_scalar_meta_kernel<PointwiseOp::Pow>>(meta));
  set.add(register_kernel<ops::pow_scalar_, &detail::pointwise_scalar_inplace_meta<PointwiseOp::Pow>>(meta));
  set.add(derive_missing_variants<ops::pow_scalar, ops::pow_scalar_, ops::pow_scalar_out>(meta, detail::pointwise_scalar_spec<PointwiseOp::Pow>{}));
  set.add(register_kernel<ops::floor_divide, &detail::pointwise_meta_kernel<PointwiseOp::FloorDivide>>(meta));
  set.add(register_kernel<ops::floor_divide_, &detail::pointwise_inplace_meta<PointwiseOp::FloorDivide>>(meta));
  set.add(derive_missing_variants<ops::floor_divide, ops::floor_divide_, ops::floor_divide_out>(meta, detail::pointwise_spec<PointwiseOp::FloorDivide>{}));
  set.add(register_kernel<ops::floor_divide_scalar, &detail::pointwise_scalar_meta_kernel<PointwiseOp::FloorDivide>>(meta));
  set.add(register_kernel<ops::floor_divide_scalar_, &detail::pointwise_scalar_inplace_meta<PointwiseOp::FloorDivide>>(meta));
  set.add(register_kernel<ops::div_scalar_mode, &detail::div_scalar_mode_meta>(meta));
  set.add(register_kernel<ops::div_scalar_mode_, &detail::div_scalar_mode_inplace_meta>(meta));
  return set;
}

}  // namespace opd::kernels::detail
