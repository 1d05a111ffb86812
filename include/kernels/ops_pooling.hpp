#pragma once
// max_pool2d_with_indices and its backward (kernels/cpu/pooling.hpp) with
// ATen 1.13's schemas (functional and out=), CPU and Meta kernels. ATen's
// max_pool2d passes its calls down as max_pool2d_with_indices when the
// input needs a gradient, and a recorded model (torchvision's resnet18,
// squeezenet) reaches it below autograd.
//
//   auto kernels = opd::kernels::register_pooling();   // also part of register_cpu()
//   auto [values, indices] = opd::call<opd::kernels::ops::max_pool2d_with_indices>(x, k, s, p, d, false);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/pooling.hpp"

namespace opd::kernels {

namespace ops {

struct max_pool2d_with_indices : op<"aten::max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"> {};
struct max_pool2d_with_indices_out : op<"aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))"> {};
struct max_pool2d_with_indices_backward : op<"aten::max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor"> {};
struct max_pool2d_with_indices_backward_grad_input : op<"aten::max_pool2d_with_indices_backward.grad_input(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices, *, Tensor(a!) grad_input) -> Tensor(a!)"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/register_pooling.cpp).
OPD_API RegistrationSet register_pooling();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_pooling-inl.hpp"
#endif
