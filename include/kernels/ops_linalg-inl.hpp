#pragma once
// Out-of-line part of ops_linalg.hpp (compiled in src/kernels/register_linalg.cpp).
#include "kernels/ops_linalg.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace detail {
// A functional kernel from a meta / impl pair: on the CPU, meta + allocate +
// impl; on Meta, meta + a Meta tensor.
template <TensorMeta (*Meta)(const Tensor&, const Tensor&), void (*Impl)(const Tensor&, const Tensor&, Tensor&)>
Tensor product_cpu(const Tensor& a, const Tensor& b) {
  Tensor out = empty_from_meta(Meta(a, b));
  Impl(a, b, out);
  return out;
}
template <TensorMeta (*Meta)(const Tensor&, const Tensor&)>
Tensor product_meta(const Tensor& a, const Tensor& b) {
  return empty_from_meta(Meta(a, b), Device::meta());
}
inline Tensor dot_kernel(const Tensor& a, const Tensor& b) { return kernels::dot(a, b); }
inline Tensor mv_kernel(const Tensor& a, const Tensor& b) { return kernels::mv(a, b); }
inline Tensor outer_kernel(const Tensor& a, const Tensor& b) { return kernels::outer(a, b); }
inline Tensor matmul_kernel(const Tensor& a, const Tensor& b) { return kernels::matmul(a, b); }
inline Tensor linear_kernel(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias) {
  return kernels::linear(input, weight, bias);
}
// Meta: the functional forms' metas (which the CPU forms call first).
template <TensorMeta (*Meta)(const Tensor&, const Tensor&, const std::optional<Tensor>&)>
Tensor product_bias_meta(const Tensor& a, const Tensor& b, const std::optional<Tensor>& bias) {
  return empty_from_meta(Meta(a, b, bias), Device::meta());
}
}  // namespace detail

OPD_FUNC RegistrationSet register_linalg() {
  RegistrationSet set;
  set.add(register_kernel<ops::mm, &detail::product_cpu<&mm_meta, &mm_impl>>(DispatchKey::CPU));
  set.add(register_kernel<ops::mm, &detail::product_meta<&mm_meta>>(DispatchKey::Meta));
  set.add(register_kernel<ops::bmm, &detail::product_cpu<&bmm_meta, &bmm_impl>>(DispatchKey::CPU));
  set.add(register_kernel<ops::bmm, &detail::product_meta<&bmm_meta>>(DispatchKey::Meta));
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(derive_missing_variants<ops::mm, void, ops::mm_out>(key));
    set.add(derive_missing_variants<ops::bmm, void, ops::bmm_out>(key));
  }
  set.add(register_structured<ops::addmm>());
  set.add(register_structured<ops::baddbmm>());
  set.add(register_kernel<ops::dot, &detail::dot_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::mv, &detail::mv_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::outer, &detail::outer_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::matmul, &detail::matmul_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::linear, &detail::linear_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::dot, &detail::product_meta<&dot_meta>>(DispatchKey::Meta));
  set.add(register_kernel<ops::mv, &detail::product_meta<&mv_meta>>(DispatchKey::Meta));
  set.add(register_kernel<ops::outer, &detail::product_meta<&outer_meta>>(DispatchKey::Meta));
  set.add(register_kernel<ops::matmul, &detail::product_meta<&matmul_meta>>(DispatchKey::Meta));
  set.add(register_kernel<ops::linear, &detail::product_bias_meta<&linear_meta>>(DispatchKey::Meta));
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(derive_missing_variants<ops::dot, void, ops::dot_out>(key));
    set.add(derive_missing_variants<ops::mv, void, ops::mv_out>(key));
    set.add(derive_missing_variants<ops::outer, void, ops::outer_out>(key));
    set.add(derive_missing_variants<ops::matmul, void, ops::matmul_out>(key));
    set.add(derive_missing_variants<ops::linear, void, ops::linear_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
