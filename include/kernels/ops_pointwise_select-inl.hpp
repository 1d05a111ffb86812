#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_select.cpp): the registration of the logical ops, where, clamp, maximum/minimum and masked_fill;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_compare-inl.hpp: one source took 8-10 s to compile.)
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_select() {
  RegistrationSet set;
  set.add(register_structured<ops::logical_and>());
  set.add(register_structured<ops::logical_or>());
  set.add(register_structured<ops::logical_xor>());
  set.add(register_structured<ops::where>());
  set.add(register_structured<ops::clamp>());
  set.add(register_structured<ops::clamp_tensor>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  set.add(register_kernel<ops::maximum, &detail::pointwise_kernel<PointwiseOp::Maximum>>(cpu));
  set.add(derive_missing_variants<ops::maximum, void, ops::maximum_out>(cpu, detail::pointwise_spec<PointwiseOp::Maximum>{}));
  set.add(register_kernel<ops::minimum, &detail::pointwise_kernel<PointwiseOp::Minimum>>(cpu));
  set.add(derive_missing_variants<ops::minimum, void, ops::minimum_out>(cpu, detail::pointwise_spec<PointwiseOp::Minimum>{}));
  set.add(register_kernel<ops::masked_fill_scalar, &detail::masked_fill_scalar_kernel>(cpu));
  set.add(register_kernel<ops::masked_fill_scalar_, &detail::masked_fill_scalar_inplace>(cpu));
  set.add(register_kernel<ops::masked_fill_tensor, &detail::masked_fill_tensor_kernel>(cpu));
  set.add(register_kernel<ops::masked_fill_tensor_, &detail::masked_fill_tensor_inplace>(cpu));
  // Meta: the same meta functions; out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::maximum, &detail::pointwise_meta_kernel<PointwiseOp::Maximum>>(meta));
  set.add(derive_missing_variants<ops::maximum, void, ops::maximum_out>(meta, detail::pointwise_spec<PointwiseOp::Maximum>{}));
  set.add(register_kernel<ops::minimum, &detail::pointwise_meta_kernel<PointwiseOp::Minimum>>(meta));
  set.add(derive_missing_variants<ops::minimum, void, ops::minimum_out>(meta, detail::pointwise_spec<PointwiseOp::Minimum>{}));
  set.add(register_kernel<ops::masked_fill_scalar, &detail::masked_fill_scalar_kernel>(meta));
  set.add(register_kernel<ops::masked_fill_scalar_, &detail::masked_fill_scalar_inplace>(meta));
  set.add(register_kernel<ops::masked_fill_tensor, &detail::masked_fill_tensor_kernel>(meta));
  set.add(register_kernel<ops::masked_fill_tensor_, &detail::masked_fill_tensor_inplace>(meta));
  return set;
}

}  // namespace opd::kernels::detail
