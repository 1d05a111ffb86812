// The oneDNN adapter for 2-D convolution (Float, any groups): oneDNN 2.6
// (Debian's libdnnl-dev, the library libtorch 1.13 itself runs its CPU
// convolutions through), used by kernels::conv2d for the shape classes where
// its own paths are slower (detail::conv2d_prefers_onednn, nn-inl.hpp:
// grouped convolutions, and the im2col cases with a kernel larger than 1x1;
// docs/kernels.md). Built in when CMake finds oneDNN (OPD_ONEDNN, default ON);
// otherwise onednn_conv2d returns false and conv2d keeps its own path.
// convolution_backward uses the backward primitives for the same shape classes.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "dispatch/config.hpp"
#include "dispatch/core/tensor.hpp"

namespace opd::kernels::detail {

// out (contiguous N x O x oh x ow, allocated) = conv2d(x, w, bias, groups) for
// contiguous Float x (N x C x H x W) and w (O x C/groups x kh x kw); false when
// oneDNN is not built in (nothing written).
OPD_API bool onednn_conv2d(const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias, const Tensor& out,
                           std::span<const int64_t> stride, std::span<const int64_t> padding,
                           std::span<const int64_t> dilation, int64_t groups);

// convolution_backward of that convolution, through oneDNN's backward
// primitives (as ATen's ideep path): grad_input (contiguous N x C x H x W,
// allocated) when defined, grad_weight (contiguous, w's sizes, allocated)
// when defined and with it grad_bias (O) when defined, from contiguous Float
// grad_output, x and w; grad_output reordered once for both. False when
// oneDNN is not built in.
OPD_API bool onednn_conv2d_backward(const Tensor& grad_output, const Tensor& x, const Tensor& w,
                                    const Tensor& grad_input, const Tensor& grad_weight, const Tensor& grad_bias,
                                    std::span<const int64_t> stride, std::span<const int64_t> padding,
                                    std::span<const int64_t> dilation, int64_t groups);

}  // namespace opd::kernels::detail

#ifdef OPD_HEADER_ONLY
#include "kernels/cpu/onednn_conv-inl.hpp"
#endif
