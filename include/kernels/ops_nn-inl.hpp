#pragma once
// Out-of-line part of ops_nn.hpp (compiled in src/kernels/register_nn.cpp).
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_nn.hpp"
#include "kernels/ops_random.hpp"
#include "kernels/ops_views.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace detail {
inline Tensor embedding_kernel(const Tensor& weight, const Tensor& indices, int64_t padding_idx,
                               bool scale_grad_by_freq, bool sparse) {
  return kernels::embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse);
}
inline Tensor embedding_dense_backward_kernel(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                             int64_t padding_idx, bool scale_grad_by_freq) {
  return kernels::embedding_dense_backward(grad_output, indices, num_weights, padding_idx, scale_grad_by_freq);
}
// aten::dropout: CompositeImplicitAutograd, as ATen's, so that autograd differentiates its parts: not
// training (or p = 0, or no elements), the input itself; p = 1, input * 0 (NaN stays NaN); otherwise
// native_dropout's output (its mask drawn from the library's generator).
inline Tensor dropout_kernel(const Tensor& input, double p, bool train) {
  OPD_CHECK(input.defined(), "dropout: argument 'input' is an undefined tensor");
  OPD_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
  if (p == 0 || !train || input.numel() == 0) return input;
  if (p == 1) return call<ops::mul_scalar::functional>(input, Scalar(0));
  return std::get<0>(call<ops::native_dropout>(input, p, std::optional<bool>(true)));
}
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
inline Tensor adaptive_avg_pool2d_backward_kernel(const Tensor& grad_output, const Tensor& self) {
  return kernels::adaptive_avg_pool2d_backward(grad_output, self);
}
inline Tensor avg_pool2d_backward_kernel(const Tensor& grad_output, const Tensor& self,
                                         std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                         std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                                         std::optional<int64_t> divisor_override) {
  return kernels::avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                      divisor_override);
}

// ATen's check1d and checkDimRange(2, 4) of the 1-D pools.
inline void check_pool1d(const char* op, const Tensor& self, const char* arg, std::span<const int64_t> v) {
  OPD_CHECK(self.defined(), op, ": argument 'self' is an undefined tensor");
  OPD_CHECK(self.dim() >= 2 && self.dim() < 4, "Expected 2 to 3 dimensions, but got ", self.dim(),
            "-dimensional tensor for argument #1 'self' (while checking arguments for ", op, ")");
  OPD_CHECK(v.size() == 1, op, "() argument '", arg, "' should contain one int (got ", v.size(), ")");
}
inline Tensor avg_pool1d_kernel(const Tensor& self, std::span<const int64_t> kernel_size,
                                std::span<const int64_t> stride, std::span<const int64_t> padding, bool ceil_mode,
                                bool count_include_pad) {
  if (stride.empty()) stride = kernel_size;
  check_pool1d("avg_pool1d", self, "kernel_size", kernel_size);
  check_pool1d("avg_pool1d", self, "stride", stride);
  check_pool1d("avg_pool1d", self, "padding", padding);
  const int64_t k[2] = {1, kernel_size[0]}, s[2] = {1, stride[0]}, p[2] = {0, padding[0]};
  const Tensor out = call<ops::avg_pool2d>(call<ops::unsqueeze>(self, int64_t{-2}), std::span<const int64_t>(k),
                                           std::span<const int64_t>(s), std::span<const int64_t>(p), ceil_mode,
                                           count_include_pad, std::nullopt);
  return call<ops::squeeze_dim>(out, int64_t{-2});
}
inline Tensor adaptive_avg_pool1d_kernel(const Tensor& self, std::span<const int64_t> output_size) {
  check_pool1d("adaptive_avg_pool1d", self, "output_size", output_size);
  const int64_t size[2] = {1, output_size[0]};
  const Tensor out =
      call<ops::adaptive_avg_pool2d>(call<ops::unsqueeze>(self, int64_t{-2}), std::span<const int64_t>(size));
  return call<ops::squeeze_dim>(out, int64_t{-2});
}
}  // namespace detail

// ops::conv2d is registered by register_conv() (ops_conv.hpp), as a composite over aten::convolution.
OPD_FUNC RegistrationSet register_nn() {
  RegistrationSet set;
  set.add(register_kernel<ops::embedding, &detail::embedding_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::dropout, &detail::dropout_kernel>(DispatchKey::CompositeImplicitAutograd));
  set.add(register_kernel<ops::max_pool2d, &detail::max_pool2d_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::avg_pool2d, &detail::avg_pool2d_kernel>(DispatchKey::CPU));
  set.add(register_kernel<ops::adaptive_avg_pool2d, &detail::adaptive_avg_pool2d_kernel>(DispatchKey::CPU));
  // Meta: the same kernels, which stop before reading data on Meta tensors (nn-inl.hpp).
  set.add(register_kernel<ops::embedding, &detail::embedding_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::max_pool2d, &detail::max_pool2d_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::avg_pool2d, &detail::avg_pool2d_kernel>(DispatchKey::Meta));
  set.add(register_kernel<ops::adaptive_avg_pool2d, &detail::adaptive_avg_pool2d_kernel>(DispatchKey::Meta));
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(derive_missing_variants<ops::avg_pool2d, void, ops::avg_pool2d_out>(key));
    set.add(derive_missing_variants<ops::adaptive_avg_pool2d, void, ops::adaptive_avg_pool2d_out>(key));
    set.add(register_kernel<ops::_adaptive_avg_pool2d, &detail::adaptive_avg_pool2d_kernel>(key));
    set.add(register_kernel<ops::_adaptive_avg_pool2d_backward, &detail::adaptive_avg_pool2d_backward_kernel>(key));
    set.add(register_kernel<ops::avg_pool2d_backward, &detail::avg_pool2d_backward_kernel>(key));
    set.add(register_kernel<ops::embedding_dense_backward, &detail::embedding_dense_backward_kernel>(key));
    set.add(derive_missing_variants<ops::avg_pool2d_backward, void, ops::avg_pool2d_backward_grad_input>(key));
  }
  constexpr DispatchKey implicit = DispatchKey::CompositeImplicitAutograd;
  set.add(register_kernel<ops::avg_pool1d, &detail::avg_pool1d_kernel>(implicit));
  set.add(register_kernel<ops::adaptive_avg_pool1d, &detail::adaptive_avg_pool1d_kernel>(implicit));
  return set;
}

}  // namespace opd::kernels
