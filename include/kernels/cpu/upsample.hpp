// Nearest and bilinear upsampling of a 4-D (N, C, H, W) tensor on CPU (ATen
// 1.13's upsample_nearest2d / upsample_bilinear2d: index arithmetic in float
// as ATen's, checks and messages):
//
//   upsample_nearest2d(self, {oh, ow}, scales_h, scales_w)
//       out[.., y, x] = self[.., src(y), src(x)], src(j) = min(floor(j * scale), in - 1),
//       scale = 1 / scales (when given and positive) or in / out. Byte and
//       the floating dtypes, as ATen 1.13's (elements copied).
//   upsample_bilinear2d(self, {oh, ow}, align_corners, scales_h, scales_w)
//       the two nearest rows and columns weighted linearly (align_corners: the
//       corner pixels' centres aligned); Float and Double, computed in the dtype.
//
// Their backward kernels (ATen 1.13's upsample_nearest2d_backward /
// upsample_bilinear2d_backward): grad_output of the output's sizes (N, C, oh, ow)
// added into zeros of input_size, each element into the input elements it was
// interpolated from with the same weights, in ATen's order (Float, Double and
// BFloat16, accumulated in the dtype as ATen's).
//
// Strided inputs are read in place; results are contiguous. A Meta input gets
// a Meta result after the checks.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor upsample_nearest2d(const Tensor& self, std::span<const int64_t> output_size,
                                  std::optional<double> scales_h, std::optional<double> scales_w);
OPD_API Tensor upsample_bilinear2d(const Tensor& self, std::span<const int64_t> output_size, bool align_corners,
                                   std::optional<double> scales_h, std::optional<double> scales_w);

OPD_API Tensor upsample_nearest2d_backward(const Tensor& grad_output, std::span<const int64_t> output_size,
                                           std::span<const int64_t> input_size, std::optional<double> scales_h,
                                           std::optional<double> scales_w);
OPD_API Tensor upsample_bilinear2d_backward(const Tensor& grad_output, std::span<const int64_t> output_size,
                                            std::span<const int64_t> input_size, bool align_corners,
                                            std::optional<double> scales_h, std::optional<double> scales_w);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/upsample-inl.hpp"
#endif
