#pragma once
// Out-of-line part of ops_nn.hpp (compiled in src/kernels/register_nn.cpp).
#include "kernels/ops_nn.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace detail {
inline Tensor embedding_kernel(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                               bool scale_grad_by_freq, bool sparse) {
  return kernels::embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse);
}
inline Tensor dropout_kernel(const Tensor& input, double p, bool train) { return kernels::dropout(input, p, train); }
inline Tensor max_pool2d_kernel(const Tensor& self, std::span<const int64_t> kernel_size,
                                std::span<const int64_t> stride, std::span<const int64_t> padding,
                                std::span<const int64_t> dilation, bool ceil_mode) {
  return kernels::max_pool2d(self, kernel_size, stride, padding, dilation, ceil_mode);
}
inline Tensor avg_pool2d_kernel(const Tensor& self, std::span<const int64_t> kernel_size,
                                std::span<const int64_t> stride, std::span<const int64_t> padding, bool ceil_mode,
                                bool count_include_pad, std::optional<int64_t> divisor_override) {
  return kernels::avg_pool2d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
}
inline Tensor adaptive_avg_pool2d_kernel(const Tensor& self, std::span<const int64_t> output_size) {
  return kernels::adaptive_avg_pool2d(self, output_size);
}
}  // namespace detail

// ops::conv2d is registered by register_conv() (ops_conv.hpp), as a composite over aten::convolution.
OPD_FUNC RegistrationSet register_nn() {
  RegistrationSet set;
  set.add(register_kernel<ops::embedding, &detail::embedding_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::dropout, &detail::dropout_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::max_pool2d, &detail::max_pool2d_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::avg_pool2d, &detail::avg_pool2d_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::adaptive_avg_pool2d, &detail::adaptive_avg_pool2d_kernel>(DispatchKey::CPU));
  // Meta: the same kernels, which stop before reading data on Meta tensors (nn-inl.hpp).
  set.add(register_kernel<ops::embedding, &detail::embedding_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::dropout, &detail::dropout_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::max_pool2d, &detail::max_pool2d_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::avg_pool2d, &detail::avg_pool2d_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::adaptive_avg_pool2d, &detail::adaptive_avg_pool2d_kernel>(DispatchKey::Meta));
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(derive_missing_variants<ops::avg_pool2d, void, ops::avg_pool2d_out>(key));
    set.add(derive_missing_variants<ops::adaptive_avg_pool2d, void, ops::adaptive_avg_pool2d_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
