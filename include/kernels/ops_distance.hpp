#pragma once
// _cdist_forward, _pdist_forward and _pdist_backward (kernels/cpu/distance.hpp)
// with ATen 1.13's schemas, CPU and Meta kernels (no out= variants).
//
//   auto kernels = opd::kernels::register_distance();   // also part of register_cpu()
//   opd::Tensor d = opd::call<opd::kernels::ops::cdist_forward>(x1, x2, 2.0, std::nullopt);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/distance.hpp"

namespace opd::kernels {

namespace ops {

struct cdist_forward : op<"aten::_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor"> {};
struct pdist_forward : op<"aten::_pdist_forward(Tensor self, float p=2) -> Tensor"> {};
struct pdist_backward : op<"aten::_pdist_backward(Tensor grad, Tensor self, float p, Tensor pdist) -> Tensor"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/distance.cpp, with the kernels).
OPD_API RegistrationSet register_distance();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_distance-inl.hpp"
#endif
