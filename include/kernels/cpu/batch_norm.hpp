// Batch normalization on CPU (ATen 1.13's batch_norm_cpu):
//
//   native_batch_norm(input, weight?, bias?, running_mean?, running_var?, training, momentum, eps)
//       -> (out, save_mean, save_invstd)
//     input (N, C, ...) Float, Double or BFloat16 (with ATen's BFloat16
//     rounding steps), normalized per channel (dim 1).
//     training: the batch's statistics, mean and biased variance per channel
//       (summed in double, as ATen's acc_type), save_mean = mean,
//       save_invstd = 1 / sqrt(var + eps); running_mean and running_var, when
//       given, are updated in place: r = momentum * batch + (1 - momentum) * r,
//       with the unbiased variance for running_var.
//     inference: running_mean and running_var are required and read;
//       save_mean and save_invstd are empty (size [0]), as ATen's CPU kernel.
//     out = x * alpha + beta per channel, alpha = invstd * weight,
//       beta = bias - mean * alpha (weight 1 and bias 0 when absent).
//   native_batch_norm_out: the same into out, save_mean, save_invstd (resized).
// Meta inputs get Meta outputs after the same checks (running statistics untouched).
#pragma once

#include <optional>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API std::tuple<Tensor, Tensor, Tensor> native_batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                             const std::optional<Tensor>& bias,
                                                             const std::optional<Tensor>& running_mean,
                                                             const std::optional<Tensor>& running_var, bool training,
                                                             double momentum, double eps);

OPD_API void native_batch_norm_out(const Tensor& input, const std::optional<Tensor>& weight,
                                   const std::optional<Tensor>& bias, const std::optional<Tensor>& running_mean,
                                   const std::optional<Tensor>& running_var, bool training, double momentum,
                                   double eps, const Tensor& out, const Tensor& save_mean, const Tensor& save_invstd);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/batch_norm-inl.hpp"
#endif
