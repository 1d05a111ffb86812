#pragma once
// aten::convolution (kernels/cpu/conv.hpp) with ATen 1.13's schema, and the
// convolution front ends ATen composes over it (CompositeImplicitAutograd,
// as in ATen: they reach every backend through its convolution kernel):
// conv1d, conv2d (declared in ops_nn.hpp), conv3d, conv_transpose1d,
// conv_transpose2d.input, conv_transpose3d.input. Each front end takes a
// batched input or an unbatched one (one dimension less), as ATen's do.
// convolution has CPU and Meta kernels; ATen 1.13 has no out= overload of it.
//
//   auto kernels = opd::kernels::register_conv();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::convolution>(x, w, b, stride, padding, dilation,
//                                                            false, output_padding, groups);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/conv.hpp"
#include "kernels/ops_nn.hpp"

namespace opd::kernels {

namespace ops {

struct convolution : op<"aten::convolution(Tensor input, Tensor weight, Tensor? bias, int[] stride, int[] padding, int[] dilation, bool transposed, int[] output_padding, int groups) -> Tensor"> {};
struct conv1d : op<"aten::conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor"> {};
struct conv3d : op<"aten::conv3d(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] dilation=1, int groups=1) -> Tensor"> {};
struct conv_transpose1d : op<"aten::conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, int[1] padding=0, int[1] output_padding=0, int groups=1, int[1] dilation=1) -> Tensor"> {};
struct conv_transpose2d : op<"aten::conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, int[2] dilation=1) -> Tensor"> {};
struct conv_transpose3d : op<"aten::conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, int[3] stride=1, int[3] padding=0, int[3] output_padding=0, int groups=1, int[3] dilation=1) -> Tensor"> {};

}  // namespace ops

// Registers the operators above (and ops::conv2d as a composite). Compiled
// once, in libopdispatch (src/kernels/register_conv.cpp).
OPD_API RegistrationSet register_conv();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_conv-inl.hpp"
#endif
