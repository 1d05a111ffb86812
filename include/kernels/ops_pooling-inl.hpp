#pragma once
// Out-of-line part of ops_pooling.hpp (compiled in src/kernels/register_pooling.cpp).
#include <span>
#include <tuple>

#include "kernels/ops_pooling.hpp"

namespace opd::kernels {

namespace pooling_ops_detail {

using ints = std::span<const int64_t>;

inline std::tuple<Tensor, Tensor> forward(const Tensor& self, ints kernel_size, ints stride, ints padding,
                                          ints dilation, bool ceil_mode) {
  return kernels::max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode);
}

inline std::tuple<Tensor&, Tensor&> forward_out(const Tensor& self, ints kernel_size, ints stride, ints padding,
                                                ints dilation, bool ceil_mode, Tensor& out, Tensor& indices) {
  kernels::max_pool2d_with_indices_out(self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);
  return {out, indices};
}

inline Tensor backward(const Tensor& grad_output, const Tensor& self, ints kernel_size, ints stride, ints padding,
                       ints dilation, bool ceil_mode, const Tensor& indices) {
  return kernels::max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation,
                                                   ceil_mode, indices);
}

inline Tensor& backward_out(const Tensor& grad_output, const Tensor& self, ints kernel_size, ints stride, ints padding,
                            ints dilation, bool ceil_mode, const Tensor& indices, Tensor& grad_input) {
  kernels::max_pool2d_with_indices_backward_out(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode,
                                                indices, grad_input);
  return grad_input;
}

}  // namespace pooling_ops_detail

OPD_FUNC RegistrationSet register_pooling() {
  namespace p = pooling_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks and resizes on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::max_pool2d_with_indices, &p::forward>(key));
    set.add(register_kernel<ops::max_pool2d_with_indices_out, &p::forward_out>(key));
    set.add(register_kernel<ops::max_pool2d_with_indices_backward, &p::backward>(key));
    set.add(register_kernel<ops::max_pool2d_with_indices_backward_grad_input, &p::backward_out>(key));
  }
  return set;
}

}  // namespace opd::kernels
