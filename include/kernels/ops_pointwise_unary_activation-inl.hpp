#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_unary_activation.cpp): the registration of silu, hardswish, frac, gelu, nan_to_num, relu and softplus;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_unary_other-inl.hpp: one source took 8-10 s to compile.)
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

OPD_FUNC RegistrationSet register_pointwise_unary_activation() {
  RegistrationSet set;
  set.add(register_structured<ops::silu>());
  set.add(register_structured<ops::hardswish>());
  set.add(register_structured<ops::frac>());
  set.add(register_structured<ops::gelu>());
  set.add(register_structured<ops::nan_to_num>());
  constexpr DispatchKey cpu = DispatchKey::CPU;
  set.add(register_kernel<ops::relu, &detail::relu_kernel>(cpu));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_kernel>(cpu));
  set.add(register_kernel<ops::softplus, &detail::softplus_kernel>(cpu));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(cpu, detail::softplus_spec{}));
  // Meta: the same meta functions; out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::relu, &detail::unary_meta_kernel<UnaryOp::Relu>>(meta));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_meta>(meta));
  set.add(register_kernel<ops::softplus, &detail::softplus_meta_kernel>(meta));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(meta, detail::softplus_spec{}));
  return set;
}

}  // namespace opd::kernels::detail
