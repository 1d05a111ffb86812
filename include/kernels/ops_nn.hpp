#pragma once
// The neural-network operators (kernels/cpu/nn.hpp) with ATen 1.13's
// schemas, as functional CPU and Meta kernels; avg_pool2d and
// adaptive_avg_pool2d also get their out= variants derived
// (opd::derive_missing_variants: computed functionally, then copied into
// out). conv2d is declared here and registered by register_conv()
// (ops_conv.hpp) as a composite over aten::convolution, whose 2-D kernel is
// kernels::conv2d.
//
//   auto kernels = opd::kernels::register_nn();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::conv2d>(x, w, b, stride, padding, dilation, groups);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/nn.hpp"

namespace opd::kernels {

namespace ops {

struct embedding : op<"aten::embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor"> {};
struct embedding_dense_backward : op<"aten::embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, int padding_idx, bool scale_grad_by_freq) -> Tensor"> {};
struct dropout : op<"aten::dropout(Tensor input, float p, bool train) -> Tensor"> {};
struct conv2d : op<"aten::conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor"> {};
struct max_pool2d : op<"aten::max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor"> {};
struct avg_pool2d : op<"aten::avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"> {};
struct avg_pool2d_out : op<"aten::avg_pool2d.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct adaptive_avg_pool2d : op<"aten::adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor"> {};
struct adaptive_avg_pool2d_out : op<"aten::adaptive_avg_pool2d.out(Tensor self, SymInt[2] output_size, *, Tensor(a!) out) -> Tensor(a!)"> {};
// What ATen's composites pass down: _adaptive_avg_pool2d (adaptive_avg_pool2d
// calls it for outputs other than 1x1), the two backward operators.
struct _adaptive_avg_pool2d : op<"aten::_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor"> {};
struct _adaptive_avg_pool2d_backward : op<"aten::_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor"> {};
struct avg_pool2d_backward : op<"aten::avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor"> {};
struct avg_pool2d_backward_grad_input : op<"aten::avg_pool2d_backward.grad_input(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
// The 1-D pools: ATen's composites (CompositeImplicitAutograd) over the 2-D
// ones, with the input unsqueezed at -2 and the result squeezed back.
struct avg_pool1d : op<"aten::avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor"> {};
struct adaptive_avg_pool1d : op<"aten::adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor"> {};

}  // namespace ops

// Registers the operators above for CPU. Compiled once, in libopdispatch
// (src/kernels/register_nn.cpp).
OPD_API RegistrationSet register_nn();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_nn-inl.hpp"
#endif
