#pragma once
// grid_sampler_2d (kernels/cpu/grid_sampler.hpp) with ATen 1.13's schema,
// CPU and Meta kernels (ATen 1.13 has no out= for it); its backward kernel
// grid_sampler_2d_backward (the out= variant derived).
//
//   auto kernels = opd::kernels::register_grid_sampler();   // also part of register_cpu()
//   opd::Tensor y = opd::call<opd::kernels::ops::grid_sampler_2d>(input, grid, int64_t{0}, int64_t{0}, false);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/grid_sampler.hpp"

namespace opd::kernels {

namespace ops {

struct grid_sampler_2d : op<"aten::grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor"> {};
struct grid_sampler_2d_backward : op<"aten::grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)"> {};
struct grid_sampler_2d_backward_out : op<"aten::grid_sampler_2d_backward.out(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask, *, Tensor(a!) out0, Tensor(b!) out1) -> (Tensor(a!), Tensor(b!))"> {};

}  // namespace ops

// Registers the operator above. Compiled once, in libopdispatch
// (src/kernels/grid_sampler.cpp, with the kernel).
OPD_API RegistrationSet register_grid_sampler();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_grid_sampler-inl.hpp"
#endif
