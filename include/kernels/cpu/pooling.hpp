// Max pooling with the argmax on CPU (ATen 1.13's semantics and checks):
//
//   max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0,
//                           int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
//       3-D or 4-D Float/Double input; the values as max_pool2d's (NaN
//       propagates) and, as Long, the index of each one within its plane
//       (h * width + w; the first maximum in scan order).
//   max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, ..., Tensor indices) -> Tensor
//       grad_input shaped as self, zero but for grad_output added at the indices.
// The *_out forms write into given tensors (resized); Meta inputs get Meta outputs.
#pragma once

#include <cstdint>
#include <span>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API void max_pool2d_with_indices_out(const Tensor& self, std::span<const int64_t> kernel_size,
                                         std::span<const int64_t> stride, std::span<const int64_t> padding,
                                         std::span<const int64_t> dilation, bool ceil_mode, const Tensor& out,
                                         const Tensor& indices);
OPD_API std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, std::span<const int64_t> kernel_size,
                                                           std::span<const int64_t> stride,
                                                           std::span<const int64_t> padding,
                                                           std::span<const int64_t> dilation, bool ceil_mode);
OPD_API void max_pool2d_with_indices_backward_out(const Tensor& grad_output, const Tensor& self,
                                                  std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                                  std::span<const int64_t> padding, std::span<const int64_t> dilation,
                                                  bool ceil_mode, const Tensor& indices, const Tensor& grad_input);
OPD_API Tensor max_pool2d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                                std::span<const int64_t> padding, std::span<const int64_t> dilation,
                                                bool ceil_mode, const Tensor& indices);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/pooling-inl.hpp"
#endif
