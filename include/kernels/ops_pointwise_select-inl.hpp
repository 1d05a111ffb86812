#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_select.cpp): the registration of the logical ops, where, clamp, maximum/minimum and masked_fill;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_compare-inl.hpp: one source took 8-10 s to compile.)
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

// ATen 1.13's where overloads with Scalars: the result dtype from type
// promotion (a Scalar counts as a number), each Scalar as a 0-dim tensor of
// it (checked: a value that does not fit is refused), then where.self.
inline Tensor where_scalar_self(const Tensor& condition, const Scalar& self, const Tensor& other) {
  const Tensor s = kernels::full({}, self, result_type(other, self), other.device());
  return call<ops::where::functional>(condition, s, other);
}
inline Tensor where_scalar_other(const Tensor& condition, const Tensor& self, const Scalar& other) {
  const Tensor o = kernels::full({}, other, result_type(self, other), self.device());
  return call<ops::where::functional>(condition, self, o);
}
inline Tensor where_scalar(const Tensor& condition, const Scalar& self, const Scalar& other) {
  const ScalarType t = result_type(self, other);
  return call<ops::where::functional>(condition, kernels::full({}, self, t, condition.device()),
                                      kernels::full({}, other, t, condition.device()));
}

OPD_FUNC RegistrationSet register_pointwise_select() {
  RegistrationSet set;
  set.add(register_structured<ops::logical_and>());
  set.add(register_structured<ops::logical_or>());
  set.add(register_structured<ops::logical_xor>());
  set.add(register_structured<ops::where>());
  constexpr DispatchKey implicit = DispatchKey::CompositeImplicitAutograd;
  set.add(register_kernel<ops::where_scalar_self, &detail::where_scalar_self>(implicit));
  set.add(register_kernel<ops::where_scalar_other, &detail::where_scalar_other>(implicit));
  set.add(register_kernel<ops::where_scalar, &detail::where_scalar>(implicit));
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
