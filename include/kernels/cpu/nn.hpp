// Neural-network layers on CPU, with ATen 1.13's semantics and messages:
//
//   embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False)
//       rows of a 2-D weight picked by Long/Int indices (any weight dtype);
//       padding_idx, scale_grad_by_freq and sparse only matter to the backward pass.
//   dropout(Tensor input, float p, bool train)
//       train=False or p=0: returns `input` itself (ATen returns the same tensor);
//       train=True with p=1: input * 0; train=True with 0<p<1 needs a random
//       generator, which this library does not have: opd::Error says so.
//   conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0,
//          int[2] dilation=1, int groups=1)
//       im2col + the batched GEMM of linalg (BLAS for float/double; oneDNN for
//       grouped and some other Float shapes when built in, onednn_conv.hpp); 3-D
//       (unbatched) or 4-D input; every dtype the GEMM computes but Bool.
//   max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1,
//              bool ceil_mode=False)                                     float, double; NaN propagates
//   avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False,
//              bool count_include_pad=True, int? divisor_override=None)   float, double, long
//   adaptive_avg_pool2d(Tensor self, SymInt[2] output_size)               float, double
//
// Every function checks its arguments before it allocates or writes; the
// input is never modified.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                         bool scale_grad_by_freq = false, bool sparse = false);

OPD_API Tensor embedding_dense_backward(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                        int64_t padding_idx, bool scale_grad_by_freq);

OPD_API Tensor dropout(const Tensor& input, double p, bool train);

OPD_API Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                      std::span<const int64_t> stride, std::span<const int64_t> padding,
                      std::span<const int64_t> dilation, int64_t groups);

OPD_API Tensor max_pool2d(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                          std::span<const int64_t> padding, std::span<const int64_t> dilation, bool ceil_mode);

OPD_API Tensor avg_pool2d(const Tensor& self, std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                          std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                          std::optional<int64_t> divisor_override);

OPD_API Tensor adaptive_avg_pool2d(const Tensor& self, std::span<const int64_t> output_size);

// The gradients of avg_pool2d and adaptive_avg_pool2d with respect to self
// (ATen's avg_pool2d_backward and _adaptive_avg_pool2d_backward): each output
// element's gradient spread evenly over its window; Float and Double.
OPD_API Tensor avg_pool2d_backward(const Tensor& grad_output, const Tensor& self,
                                   std::span<const int64_t> kernel_size, std::span<const int64_t> stride,
                                   std::span<const int64_t> padding, bool ceil_mode, bool count_include_pad,
                                   std::optional<int64_t> divisor_override);
OPD_API Tensor adaptive_avg_pool2d_backward(const Tensor& grad_output, const Tensor& self);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/nn-inl.hpp"
#endif
