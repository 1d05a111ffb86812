#pragma once
// Upsampling with ATen 1.13's schemas: upsample_nearest2d and
// upsample_bilinear2d (kernels/cpu/upsample.hpp; CPU and Meta kernels, their
// out= variants derived: computed, then copied into out, resized), and their
// `.vec` overloads, which take an output size or scale factors (ATen's
// CompositeExplicitAutograd kernels: the output size computed, then the
// operator above called through the dispatcher); and their backward kernels
// with the same structure (ATen 1.13's `*_backward`, `.grad_input`, `.vec`).
//
//   auto kernels = opd::kernels::register_upsample();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::upsample_nearest2d>(x, std::vector<int64_t>{8, 8}, 2.0, 2.0);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/upsample.hpp"

namespace opd::kernels {

namespace ops {

struct upsample_nearest2d : op<"aten::upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor"> {};
struct upsample_nearest2d_out : op<"aten::upsample_nearest2d.out(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct upsample_nearest2d_vec : op<"aten::upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor"> {};
struct upsample_bilinear2d : op<"aten::upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor"> {};
struct upsample_bilinear2d_out : op<"aten::upsample_bilinear2d.out(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct upsample_bilinear2d_vec : op<"aten::upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor"> {};
// their backward kernels (CPU and Meta; out= variants derived; .vec composite)
struct upsample_nearest2d_backward : op<"aten::upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor"> {};
struct upsample_nearest2d_backward_grad_input : op<"aten::upsample_nearest2d_backward.grad_input(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct upsample_nearest2d_backward_vec : op<"aten::upsample_nearest2d_backward.vec(Tensor grad_output, SymInt[]? output_size, SymInt[] input_size, float[]? scale_factors) -> Tensor"> {};
struct upsample_bilinear2d_backward : op<"aten::upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor"> {};
struct upsample_bilinear2d_backward_grad_input : op<"aten::upsample_bilinear2d_backward.grad_input(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct upsample_bilinear2d_backward_vec : op<"aten::upsample_bilinear2d_backward.vec(Tensor grad_output, SymInt[]? output_size, SymInt[] input_size, bool align_corners, float[]? scale_factors) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/upsample.cpp, with the kernels).
OPD_API RegistrationSet register_upsample();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_upsample-inl.hpp"
#endif
