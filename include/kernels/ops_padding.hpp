#pragma once
// Padding with ATen 1.13's schemas: reflection_pad1d/2d/3d and
// replication_pad1d/2d/3d and their *_backward (kernels/cpu/padding.hpp; CPU
// and Meta kernels, their out= variants derived: computed, then copied into
// out, resized) and
// constant_pad_nd (a composite, as ATen's: narrow self by the negative pads,
// fill a new tensor with the value, copy self into its interior; registered at
// CompositeExplicitAutograd, so it serves every backend with empty, fill_,
// narrow and copy_, Meta included).
//
//   auto kernels = opd::kernels::register_padding();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::reflection_pad2d>(x, std::vector<int64_t>{1, 1, 2, 2});
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/padding.hpp"

namespace opd::kernels {

namespace ops {

struct reflection_pad1d : op<"aten::reflection_pad1d(Tensor self, int[2] padding) -> Tensor"> {};
struct reflection_pad1d_out : op<"aten::reflection_pad1d.out(Tensor self, int[2] padding, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct reflection_pad2d : op<"aten::reflection_pad2d(Tensor self, int[4] padding) -> Tensor"> {};
struct reflection_pad2d_out : op<"aten::reflection_pad2d.out(Tensor self, int[4] padding, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct reflection_pad3d : op<"aten::reflection_pad3d(Tensor self, int[6] padding) -> Tensor"> {};
struct reflection_pad3d_out : op<"aten::reflection_pad3d.out(Tensor self, int[6] padding, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct replication_pad1d : op<"aten::replication_pad1d(Tensor self, int[2] padding) -> Tensor"> {};
struct replication_pad1d_out : op<"aten::replication_pad1d.out(Tensor self, int[2] padding, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct replication_pad2d : op<"aten::replication_pad2d(Tensor self, int[4] padding) -> Tensor"> {};
struct replication_pad2d_out : op<"aten::replication_pad2d.out(Tensor self, int[4] padding, *, Tensor(a!) out) -> Tensor(a!)"> {};
struct replication_pad3d : op<"aten::replication_pad3d(Tensor self, int[6] padding) -> Tensor"> {};
struct replication_pad3d_out : op<"aten::replication_pad3d.out(Tensor self, int[6] padding, *, Tensor(a!) out) -> Tensor(a!)"> {};
// their backward kernels (out= variants: grad_input)
struct reflection_pad1d_backward : op<"aten::reflection_pad1d_backward(Tensor grad_output, Tensor self, int[2] padding) -> Tensor"> {};
struct reflection_pad1d_backward_grad_input : op<"aten::reflection_pad1d_backward.grad_input(Tensor grad_output, Tensor self, int[2] padding, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct reflection_pad2d_backward : op<"aten::reflection_pad2d_backward(Tensor grad_output, Tensor self, int[4] padding) -> Tensor"> {};
struct reflection_pad2d_backward_grad_input : op<"aten::reflection_pad2d_backward.grad_input(Tensor grad_output, Tensor self, int[4] padding, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct reflection_pad3d_backward : op<"aten::reflection_pad3d_backward(Tensor grad_output, Tensor self, int[6] padding) -> Tensor"> {};
struct reflection_pad3d_backward_grad_input : op<"aten::reflection_pad3d_backward.grad_input(Tensor grad_output, Tensor self, int[6] padding, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct replication_pad1d_backward : op<"aten::replication_pad1d_backward(Tensor grad_output, Tensor self, int[2] padding) -> Tensor"> {};
struct replication_pad1d_backward_grad_input : op<"aten::replication_pad1d_backward.grad_input(Tensor grad_output, Tensor self, int[2] padding, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct replication_pad2d_backward : op<"aten::replication_pad2d_backward(Tensor grad_output, Tensor self, int[4] padding) -> Tensor"> {};
struct replication_pad2d_backward_grad_input : op<"aten::replication_pad2d_backward.grad_input(Tensor grad_output, Tensor self, int[4] padding, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct replication_pad3d_backward : op<"aten::replication_pad3d_backward(Tensor grad_output, Tensor self, int[6] padding) -> Tensor"> {};
struct replication_pad3d_backward_grad_input : op<"aten::replication_pad3d_backward.grad_input(Tensor grad_output, Tensor self, int[6] padding, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct constant_pad_nd : op<"aten::constant_pad_nd(Tensor self, int[] pad, Scalar value=0) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/padding.cpp, with the kernels).
OPD_API RegistrationSet register_padding();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_padding-inl.hpp"
#endif
