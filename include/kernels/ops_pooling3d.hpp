#pragma once
// The 3-D pools and col2im of the Core ATen opset (kernels/cpu/pooling3d.hpp)
// with ATen 1.13's schemas, CPU and Meta kernels: avg_pool3d (its out=
// derived), max_pool3d_with_indices and its out=, _adaptive_avg_pool3d,
// col2im (its out= derived); the pools' backward kernels and im2col (their
// out= variants derived).
//
//   auto kernels = opd::kernels::register_pooling3d();   // also part of register_cpu()
//   auto [values, indices] = opd::call<opd::kernels::ops::max_pool3d_with_indices>(x, k, s, p, d, false);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/pooling3d.hpp"

namespace opd::kernels {

namespace ops {

struct avg_pool3d : op<"aten::avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"> {};
struct avg_pool3d_out : op<"aten::avg_pool3d.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct max_pool3d_with_indices : op<"aten::max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"> {};
struct max_pool3d_with_indices_out : op<"aten::max_pool3d_with_indices.out(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))"> {};
struct adaptive_avg_pool3d_ : op<"aten::_adaptive_avg_pool3d(Tensor self, int[3] output_size) -> Tensor"> {};
struct col2im : op<"aten::col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor"> {};
struct col2im_out : op<"aten::col2im.out(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride, *, Tensor(a!) out) -> Tensor(a!)"> {};
// the backward kernels (their out= variants derived) and col2im's adjoint im2col
struct avg_pool3d_backward : op<"aten::avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor"> {};
struct avg_pool3d_backward_grad_input : op<"aten::avg_pool3d_backward.grad_input(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, bool ceil_mode, bool count_include_pad, int? divisor_override, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct max_pool3d_with_indices_backward : op<"aten::max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor"> {};
struct max_pool3d_with_indices_backward_grad_input : op<"aten::max_pool3d_with_indices_backward.grad_input(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct adaptive_avg_pool3d_backward_ : op<"aten::_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor"> {};
struct adaptive_avg_pool3d_backward_out_ : op<"aten::_adaptive_avg_pool3d_backward.out(Tensor grad_output, Tensor self, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct im2col : op<"aten::im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor"> {};
struct im2col_out : op<"aten::im2col.out(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride, *, Tensor(a!) out) -> Tensor(a!)"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/pooling3d.cpp, with the kernels).
OPD_API RegistrationSet register_pooling3d();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_pooling3d-inl.hpp"
#endif
