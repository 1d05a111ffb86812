// softmax, log_softmax and layer normalization on CPU (ATen 1.13 semantics).
//
//   softmax / log_softmax (_softmax, _log_softmax): over one dim of a Float,
//     Double or BFloat16 tensor (BFloat16 computed in float); Half and
//     integral inputs are refused with ATen 1.13's CPU errors, and
//     half_to_float=true as ATen does on CPU.
//     softmax_int / log_softmax_int (softmax.int): cast to `dtype` first.
//   native_layer_norm (Float, Double, BFloat16; Half refused): normalizes
//     over the trailing `normalized_shape` dims;
//     returns (out, mean, rstd), mean and rstd of shape input.shape[:axis] +
//     [1] * len(normalized_shape), in the input's dtype; statistics in float
//     for Float (pairwise, vectorized), in double otherwise,
//     y = (x * rstd + (-rstd * mean)) * weight + bias in the input's opmath.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/scalar_type.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor softmax(const Tensor& self, int64_t dim, bool half_to_float);
OPD_API Tensor log_softmax(const Tensor& self, int64_t dim, bool half_to_float);
OPD_API Tensor softmax_int(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
OPD_API Tensor log_softmax_int(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

OPD_API std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape,
                                                             const std::optional<Tensor>& weight,
                                                             const std::optional<Tensor>& bias, double eps);
// native_group_norm (Float, Double): input (N, C, *) of N * C * HxW elements,
// normalized over each (sample, group of C / group channels); returns (out,
// mean, rstd), mean and rstd of shape (N, group). y = x * (rstd * weight[c]) +
// (bias[c] - rstd * weight[c] * mean), as ATen's.
OPD_API std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                             const std::optional<Tensor>& bias, int64_t N, int64_t C,
                                                             int64_t HxW, int64_t group, double eps);
// The gradients of native_group_norm / native_layer_norm with respect to
// input, weight and bias (Float, Double; sums in double), from the forward's
// mean and rstd; output_mask[i] false: that result is an undefined tensor.
OPD_API std::tuple<Tensor, Tensor, Tensor> native_group_norm_backward(
    const Tensor& grad_out, const Tensor& input, const Tensor& mean, const Tensor& rstd,
    const std::optional<Tensor>& weight, int64_t N, int64_t C, int64_t HxW, int64_t group,
    std::span<const bool> output_mask);
OPD_API std::tuple<Tensor, Tensor, Tensor> native_layer_norm_backward(
    const Tensor& grad_out, const Tensor& input, std::span<const int64_t> normalized_shape, const Tensor& mean,
    const Tensor& rstd, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
    std::span<const bool> output_mask);
OPD_API Tensor layer_norm(const Tensor& input, std::span<const int64_t> normalized_shape,
                          const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, double eps,
                          bool cudnn_enable);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/normalization-inl.hpp"
#endif
