#pragma once
// The 3-D pools and col2im of the Core ATen opset (kernels/cpu/pooling3d.hpp)
// with ATen 1.13's schemas, CPU and Meta kernels: avg_pool3d (its out=
// derived), max_pool3d_with_indices and its out=, _adaptive_avg_pool3d,
// col2im (its out= derived).
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

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/pooling3d.cpp, with the kernels).
OPD_API RegistrationSet register_pooling3d();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_pooling3d-inl.hpp"
#endif
