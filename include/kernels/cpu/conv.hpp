// ATen's convolution on CPU (ATen 1.13's semantics and checks):
//
//   convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation,
//               bool transposed, int[] output_padding, int groups)
//       1-, 2- and 3-D over a batched input (3-, 4-, 5-D); each list a single
//       value or one per spatial dimension; groups, dilation, padding;
//       transposed (weight (in, out / groups, k...)) with output_padding.
//       2-D (and 1-D, as 2-D with a unit height) without transposition runs
//       conv2d's paths (kernels/cpu/nn.hpp: Winograd, shifted GEMMs, im2col);
//       3-D and transposed run im2col / col2im with the GEMM of linalg.hpp,
//       for Float and Double. Meta tensors get the output's shape after the
//       same checks.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor convolution(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                           std::span<const int64_t> stride, std::span<const int64_t> padding,
                           std::span<const int64_t> dilation, bool transposed, std::span<const int64_t> output_padding,
                           int64_t groups);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/conv-inl.hpp"
#endif
