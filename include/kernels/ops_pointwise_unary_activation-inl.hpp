#pragma once
// Out-of-line part of ops_pointwise.hpp (compiled in
// src/kernels/register_pointwise_unary_activation.cpp): the registration of silu, hardswish, frac, gelu, nan_to_num, relu, softplus and hardtanh;
// register_pointwise() gathers the groups. (Split from
// ops_pointwise_unary_other-inl.hpp: one source took 8-10 s to compile.)
#include "kernels/ops_pointwise_kernels-inl.hpp"

namespace opd::kernels::detail {

// ATen's hardtanh_out: the bounds as integers for integral inputs (no
// promotion), then clamp.
inline std::pair<Scalar, Scalar> hardtanh_bounds(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  OPD_CHECK(self.dtype() != ScalarType::Bool, "Bool inputs not supported for hardtanh");
  if (!is_integral_type(self.dtype(), /*include_bool=*/false)) return {min_val, max_val};
  const int64_t lo = min_val.to<int64_t>(), hi = max_val.to<int64_t>();
  OPD_CHECK(self.dtype() != ScalarType::Byte || (lo >= 0 && hi >= 0),
            "cannot do hardtanh on an unsigned type with negative limits");
  return {Scalar(lo), Scalar(hi)};
}
inline Tensor hardtanh_kernel(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  const auto [lo, hi] = hardtanh_bounds(self, min_val, max_val);
  return call<ops::clamp::functional>(self, std::optional<Scalar>(lo), std::optional<Scalar>(hi));
}
inline Tensor& hardtanh_inplace_kernel(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  const auto [lo, hi] = hardtanh_bounds(self, min_val, max_val);
  return call<ops::clamp::inplace>(self, std::optional<Scalar>(lo), std::optional<Scalar>(hi));
}
inline Tensor& hardtanh_out_kernel(const Tensor& self, const Scalar& min_val, const Scalar& max_val, Tensor& out) {
  const auto [lo, hi] = hardtanh_bounds(self, min_val, max_val);
  return call<ops::clamp::out>(self, std::optional<Scalar>(lo), std::optional<Scalar>(hi), out);
}

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
  // hardtanh: over clamp's variants, which every backend with clamp serves.
  constexpr DispatchKey explicit_ = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::hardtanh, &detail::hardtanh_kernel>(explicit_));
  set.add(register_kernel<ops::hardtanh_, &detail::hardtanh_inplace_kernel>(explicit_));
  set.add(register_kernel<ops::hardtanh_out, &detail::hardtanh_out_kernel>(explicit_));
  // Meta: the same meta functions; out= derived at Meta too.
  constexpr DispatchKey meta = DispatchKey::Meta;
  set.add(register_kernel<ops::relu, &detail::unary_meta_kernel<UnaryOp::Relu>>(meta));
  set.add(register_kernel<ops::relu_, &detail::relu_inplace_meta>(meta));
  set.add(register_kernel<ops::softplus, &detail::softplus_meta_kernel>(meta));
  set.add(derive_missing_variants<ops::softplus, void, ops::softplus_out>(meta, detail::softplus_spec{}));
  return set;
}

}  // namespace opd::kernels::detail
