#pragma once
// Batch normalization (kernels/cpu/batch_norm.hpp) as ATen operators, CPU and
// Meta kernels: native_batch_norm and native_batch_norm.out with ATen 1.13's
// schemas; _native_batch_norm_legit (and .out, .no_stats, .no_stats_out) and
// _native_batch_norm_legit_no_training with PyTorch 2.x's schemas (1.13 does
// not have them; they are the Core ATen opset's batch norm): the same
// computation, with the running statistics as mutable arguments (legit),
// absent (no_stats: the batch's statistics), or read only (no_training).
//
//   auto kernels = opd::kernels::register_batch_norm();   // also part of register_cpu()
//   auto [y, mean, invstd] = opd::call<opd::kernels::ops::native_batch_norm>(x, w, b, rm, rv, true, 0.1, 1e-5);
#include "dispatch/config.hpp"
#include "dispatch/dispatcher.hpp"
#include "kernels/cpu/batch_norm.hpp"

namespace opd::kernels {

namespace ops {

struct native_batch_norm : op<"aten::native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"> {};
struct native_batch_norm_out : op<"aten::native_batch_norm.out(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd) -> (Tensor(a!), Tensor(b!), Tensor(c!))"> {};
// PyTorch 2.x (not in ATen 1.13).
struct native_batch_norm_legit : op<"aten::_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"> {};
struct native_batch_norm_legit_out : op<"aten::_native_batch_norm_legit.out(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps, *, Tensor(d!) out, Tensor(e!) save_mean, Tensor(f!) save_invstd) -> (Tensor(d!), Tensor(e!), Tensor(f!))"> {};
struct native_batch_norm_legit_no_stats : op<"aten::_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)"> {};
struct native_batch_norm_legit_no_stats_out : op<"aten::_native_batch_norm_legit.no_stats_out(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps, *, Tensor(a!) out, Tensor(b!) save_mean, Tensor(c!) save_invstd) -> (Tensor(a!), Tensor(b!), Tensor(c!))"> {};
struct native_batch_norm_legit_no_training : op<"aten::_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)"> {};

}  // namespace ops

// Registers the operators above. Compiled once, in libopdispatch
// (src/kernels/register_batch_norm.cpp).
OPD_API RegistrationSet register_batch_norm();

}  // namespace opd::kernels

#ifdef OPD_HEADER_ONLY
#include "kernels/ops_batch_norm-inl.hpp"
#endif
