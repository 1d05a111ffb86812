#pragma once
// Out-of-line part of ops_pooling3d.hpp (compiled in src/kernels/pooling3d.cpp).
#include <span>
#include <tuple>

#include "kernels/ops_pooling3d.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace pooling3d_ops_detail {

using ints = std::span<const int64_t>;

inline Tensor avg_pool3d(const Tensor& self, ints kernel_size, ints stride, ints padding, bool ceil_mode,
                         bool count_include_pad, std::optional<int64_t> divisor_override) {
  return kernels::avg_pool3d(self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
}

inline std::tuple<Tensor, Tensor> max_pool3d(const Tensor& self, ints kernel_size, ints stride, ints padding,
                                             ints dilation, bool ceil_mode) {
  return kernels::max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode);
}

inline std::tuple<Tensor&, Tensor&> max_pool3d_out(const Tensor& self, ints kernel_size, ints stride, ints padding,
                                                   ints dilation, bool ceil_mode, Tensor& out, Tensor& indices) {
  kernels::max_pool3d_with_indices_out(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  return {out, indices};
}

inline Tensor adaptive_avg_pool3d(const Tensor& self, ints output_size) {
  return kernels::adaptive_avg_pool3d(self, output_size);
}

inline Tensor col2im(const Tensor& self, ints output_size, ints kernel_size, ints dilation, ints padding, ints stride) {
  return kernels::col2im(self, output_size, kernel_size, dilation, padding, stride);
}

inline Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self, ints kernel_size, ints stride,
                                  ints padding, bool ceil_mode, bool count_include_pad,
                                  std::optional<int64_t> divisor_override) {
  return kernels::avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                                      divisor_override);
}
inline Tensor max_pool3d_backward(const Tensor& grad_output, const Tensor& self, ints kernel_size, ints stride,
                                  ints padding, ints dilation, bool ceil_mode, const Tensor& indices) {
  return kernels::max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                                                   indices);
}
inline Tensor adaptive_avg_pool3d_backward(const Tensor& grad_output, const Tensor& self) {
  return kernels::adaptive_avg_pool3d_backward(grad_output, self);
}
inline Tensor im2col(const Tensor& self, ints kernel_size, ints dilation, ints padding, ints stride) {
  return kernels::im2col(self, kernel_size, dilation, padding, stride);
}

}  // namespace pooling3d_ops_detail

OPD_FUNC RegistrationSet register_pooling3d() {
  namespace p = pooling3d_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::avg_pool3d, &p::avg_pool3d>(key));
    set.add(derive_missing_variants<ops::avg_pool3d, void, ops::avg_pool3d_out>(key));
    set.add(register_kernel<ops::max_pool3d_with_indices, &p::max_pool3d>(key));
    set.add(register_kernel<ops::max_pool3d_with_indices_out, &p::max_pool3d_out>(key));
    set.add(register_kernel<ops::adaptive_avg_pool3d_, &p::adaptive_avg_pool3d>(key));
    set.add(register_kernel<ops::col2im, &p::col2im>(key));
    set.add(derive_missing_variants<ops::col2im, void, ops::col2im_out>(key));
    set.add(register_kernel<ops::avg_pool3d_backward, &p::avg_pool3d_backward>(key));
    set.add(derive_missing_variants<ops::avg_pool3d_backward, void, ops::avg_pool3d_backward_grad_input>(key));
    set.add(register_kernel<ops::max_pool3d_with_indices_backward, &p::max_pool3d_backward>(key));
    set.add(derive_missing_variants<ops::max_pool3d_with_indices_backward, void,
                                    ops::max_pool3d_with_indices_backward_grad_input>(key));
    set.add(register_kernel<ops::adaptive_avg_pool3d_backward_, &p::adaptive_avg_pool3d_backward>(key));
    set.add(derive_missing_variants<ops::adaptive_avg_pool3d_backward_, void, ops::adaptive_avg_pool3d_backward_out_>(key));
    set.add(register_kernel<ops::im2col, &p::im2col>(key));
    set.add(derive_missing_variants<ops::im2col, void, ops::im2col_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
