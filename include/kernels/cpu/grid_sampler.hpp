// grid_sampler_2d on CPU (ATen 1.13's semantics and checks):
//
//   grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode,
//                   bool align_corners) -> Tensor
//       input (N, C, H, W), grid (N, Ho, Wo, 2) of (x, y) in [-1, 1]:
//       (N, C, Ho, Wo) samples. interpolation_mode 0 bilinear, 1 nearest
//       (nearbyint: ties to even), 2 bicubic (A = -0.75); padding_mode 0
//       zeros, 1 border, 2 reflection; align_corners as in ATen's
//       grid_sampler_unnormalize. Float and Double; input and grid of one dtype.
//   grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode, padding_mode,
//                            align_corners, bool[2] output_mask) -> (Tensor, Tensor)
//       The gradients of input (when output_mask[0]; else undefined) and of
//       grid (always, as ATen 1.13's CPU kernel; zeros for nearest).
// A Meta input gets a Meta output after the checks.
#pragma once

#include <cstdint>
#include <span>
#include <tuple>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels {

OPD_API Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                               int64_t padding_mode, bool align_corners);

OPD_API std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                            const Tensor& grid, int64_t interpolation_mode,
                                                            int64_t padding_mode, bool align_corners,
                                                            std::span<const bool> output_mask);

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/grid_sampler-inl.hpp"
#endif
