#pragma once
// convolution_backward with ATen 1.13's schema, CPU and Meta kernels
// (ATen 1.13 has no out= for it), for every convolution the library's
// `convolution` computes (1-D to 3-D, transposed, groups, stride, padding,
// dilation):
//
//   grad_input   the adjoint convolution through `convolution` itself: a
//                transposed convolution of grad_output for a convolution (its
//                output_padding restoring input's size), a convolution for a
//                transposed one
//   grad_weight  per weight element, the sum over the batch and the
//                positions of grad_output times the input it met (in double)
//   grad_bias    grad_output summed over every dimension but the channels
//
// output_mask leaves a result undefined where it is false. Float and Double.
//
//   auto kernels = opd::kernels::register_conv_backward();   // also part of register_cpu()
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"

namespace opd::kernels {

namespace ops {

struct convolution_backward : op<"aten::convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)"> {};

}  // namespace ops

// Registers the operator above. Compiled once, in libopdispatch
// (src/kernels/conv_backward.cpp).
OPD_API RegistrationSet register_conv_backward();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_conv_backward-inl.hpp"
#endif
