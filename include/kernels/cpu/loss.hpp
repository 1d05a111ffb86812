// The negative log-likelihood loss on CPU (ATen 1.13's semantics, checks and
// messages):
//
//   nll_loss_forward(self, target, weight, reduction, ignore_index) -> (output, total_weight)
//       self (C) or (N, C) log-probabilities, target () or (N) class indices
//       (Long or Byte), weight (C) or None. reduction 0 (none): -self[i, t_i] *
//       w[t_i] per sample, 0 where t_i == ignore_index; otherwise the sum,
//       divided by total_weight (the sum of w[t_i] over the samples not
//       ignored) for 1 (mean), summed in ATen's cascade order so that float
//       results are ATen's bit for bit. total_weight is 0 for none.
//   nll_loss2d_forward: the same over (N, C, H, W) and (N, H, W) (Long targets).
//   nll_loss_backward / nll_loss2d_backward(grad_output, self, target, weight,
//       reduction, ignore_index, total_weight): zeros of self's shape with
//       -w[t] * grad_output (divided by total_weight for mean) at each target.
//
// Float, Double and BFloat16 (each step rounded to the dtype, as ATen's
// BFloat16 arithmetic). A target outside [0, C) that is not ignore_index is
// an IndexError ("Target 7 is out of bounds."), checked before anything is
// written -- also where ATen 1.13 does not check (the backward's reduction
// none), since ATen reads and writes out of bounds there. Meta inputs get
// Meta outputs after the shape checks.
#pragma once

#include <cstdint>
#include <optional>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                                    const std::optional<Tensor>& weight, int64_t reduction,
                                                    int64_t ignore_index);
OPD_API Tensor nll_loss_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                 const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                 const Tensor& total_weight);
OPD_API std::tuple<Tensor, Tensor> nll_loss2d_forward(const Tensor& self, const Tensor& target,
                                                      const std::optional<Tensor>& weight, int64_t reduction,
                                                      int64_t ignore_index);
OPD_API Tensor nll_loss2d_backward(const Tensor& grad_output, const Tensor& self, const Tensor& target,
                                   const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index,
                                   const Tensor& total_weight);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/loss-inl.hpp"
#endif
