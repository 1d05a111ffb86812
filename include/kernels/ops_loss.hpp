#pragma once
// The negative log-likelihood losses (kernels/cpu/loss.hpp) with ATen 1.13's
// schemas: nll_loss_forward, nll_loss2d_forward and their backward operators
// (CPU and Meta kernels, and their out= variants: .output with two outs,
// .grad_input), and ATen's composites over them (CompositeImplicitAutograd,
// so autograd differentiates them through their parts): nll_loss,
// nll_loss2d, nll_loss_nd (1-D / 2-D inputs to nll_loss, 4-D to nll_loss2d,
// 3-D and 5-D and more viewed as (N, C, 1, -1) for nll_loss2d) and
// cross_entropy_loss (log_softmax over the class dim, then nll_loss_nd; class
// probabilities as targets and label smoothing as ATen writes them).
//
//   auto kernels = opd::kernels::register_loss();   // also part of register_cpu()
//   opd::Tensor l = opd::call<opd::kernels::ops::nll_loss>(log_probs, target);   // mean, ignore_index -100
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/loss.hpp"

namespace opd::kernels {

namespace ops {

struct nll_loss_forward : op<"aten::nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index) -> (Tensor output, Tensor total_weight)"> {};
struct nll_loss_forward_output : op<"aten::nll_loss_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> (Tensor(a!), Tensor(b!))"> {};
struct nll_loss_backward : op<"aten::nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, Tensor total_weight) -> Tensor"> {};
struct nll_loss_backward_grad_input : op<"aten::nll_loss_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, Tensor total_weight, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct nll_loss2d_forward : op<"aten::nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index) -> (Tensor output, Tensor total_weight)"> {};
struct nll_loss2d_forward_output : op<"aten::nll_loss2d_forward.output(Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, *, Tensor(a!) output, Tensor(b!) total_weight) -> (Tensor(a!), Tensor(b!))"> {};
struct nll_loss2d_backward : op<"aten::nll_loss2d_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, Tensor total_weight) -> Tensor"> {};
struct nll_loss2d_backward_grad_input : op<"aten::nll_loss2d_backward.grad_input(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, int reduction, int ignore_index, Tensor total_weight, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};
struct nll_loss : op<"aten::nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, int ignore_index=-100) -> Tensor"> {};
struct nll_loss_nd : op<"aten::nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, int ignore_index=-100) -> Tensor"> {};
struct nll_loss2d : op<"aten::nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, int ignore_index=-100) -> Tensor"> {};
struct cross_entropy_loss : op<"aten::cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, int ignore_index=-100, float label_smoothing=0.0) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/loss.cpp, with the kernels).
OPD_API RegistrationSet register_loss();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_loss-inl.hpp"
#endif
