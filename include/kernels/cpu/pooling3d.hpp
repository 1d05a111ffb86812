// 3-D pooling and col2im on CPU (ATen 1.13's semantics and checks):
//
//   avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False,
//              bool count_include_pad=True, int? divisor_override=None) -> Tensor
//       4-D or 5-D Float/Double/Long input; each window's sum (in the dtype,
//       as ATen's avg_pool3d_out_frame) divided as avg_pool2d divides.
//   max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0,
//                           int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)
//       4-D or 5-D Float/Double input; max_pool2d_with_indices's rules over
//       (depth, height, width): NaN wins, the index is t * H * W + h * W + w.
//   _adaptive_avg_pool3d(Tensor self, int[3] output_size) -> Tensor
//       4-D or 5-D Float/Double input; adaptive_avg_pool2d's windows per
//       dimension, the sum divided by the window's depth, height and width.
//   col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding,
//          int[2] stride) -> Tensor
//       The adjoint of im2col: (N, C*kh*kw, L) or (C*kh*kw, L) columns summed
//       into (N, C, oh, ow) (or (C, oh, ow)) images; floating dtypes.
//   avg_pool3d_backward, max_pool3d_with_indices_backward, _adaptive_avg_pool3d_backward
//       Their gradients (ATen 1.13's backward kernels, dtypes and order of the
//       sums): grad_output of the pool's output sizes added into zeros of
//       self's, as ATen's loops add it.
//   im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor
//       The sliding blocks of (N, C, H, W) (or (C, H, W)) as (N, C*kh*kw, L)
//       columns (col2im's adjoint); floating and complex dtypes.
// Meta inputs get Meta outputs after the checks.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor avg_pool3d(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                          std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                          std::optional<int64_t> divisor_override);
OPD_API void max_pool3d_with_indices_out(const Tensor& self, std::span<const int64_t> kernel_size,
                                         std::span<const int64_t> stride, std::span<const int64_t> padding,
                                         std::span<const int64_t> dilation, bool ceil_mode, const Tensor& out,
                                         const Tensor& indices);
OPD_API std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, std::span<const int64_t> kernel_size,
                                                           std::span<const int64_t> stride,
                                                           std::span<const int64_t> padding,
                                                           std::span<const int64_t> dilation, bool ceil_mode);
OPD_API Tensor adaptive_avg_pool3d(const Tensor& self, std::span<const int64_t> output_size);
OPD_API Tensor avg_pool3d_backward(const Tensor& grad_output, const Tensor& self, std::span<const int64_t> kernel_size,
                                   std::span<const int64_t> stride, std::span<const int64_t> padding, bool ceil_mode,
                                   bool count_include_pad, std::optional<int64_t> divisor_override);
OPD_API Tensor max_pool3d_with_indices_backward(const Tensor& grad_output, const Tensor& self,
                                                std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                                std::span<const int64_t> padding, std::span<const int64_t> dilation,
                                                bool ceil_mode, const Tensor& indices);
OPD_API Tensor adaptive_avg_pool3d_backward(const Tensor& grad_output, const Tensor& self);
OPD_API Tensor col2im(const Tensor& self, std::span<const int64_t> output_size, std::span<const int64_t> kernel_size,
                      std::span<const int64_t> dilation, std::span<const int64_t> padding,
                      std::span<const int64_t> stride);

OPD_API Tensor im2col(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> dilation,
                      std::span<const int64_t> padding, std::span<const int64_t> stride);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/pooling3d-inl.hpp"
#endif
