#pragma once
// Out-of-line part of ops_batch_norm.hpp (compiled in src/kernels/register_batch_norm.cpp).
#include <optional>
#include <tuple>

#include "kernels/ops_batch_norm.hpp"

namespace opd::kernels {

namespace batch_norm_ops_detail {

using opt = std::optional<Tensor>;
using triple = std::tuple<Tensor, Tensor, Tensor>;
using triple_ref = std::tuple<Tensor&, Tensor&, Tensor&>;

inline triple native(const Tensor& input, const opt& weight, const opt& bias, const opt& running_mean,
                     const opt& running_var, bool training, double momentum, double eps) {
  return kernels::native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps);
}

inline triple_ref native_out(const Tensor& input, const opt& weight, const opt& bias, const opt& running_mean,
                             const opt& running_var, bool training, double momentum, double eps, Tensor& out,
                             Tensor& save_mean, Tensor& save_invstd) {
  kernels::native_batch_norm_out(input, weight, bias, running_mean, running_var, training, momentum, eps, out,
                                 save_mean, save_invstd);
  return {out, save_mean, save_invstd};
}

inline triple legit(const Tensor& input, const opt& weight, const opt& bias, Tensor& running_mean, Tensor& running_var,
                    bool training, double momentum, double eps) {
  return kernels::native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps);
}

inline triple_ref legit_out(const Tensor& input, const opt& weight, const opt& bias, Tensor& running_mean,
                            Tensor& running_var, bool training, double momentum, double eps, Tensor& out,
                            Tensor& save_mean, Tensor& save_invstd) {
  kernels::native_batch_norm_out(input, weight, bias, running_mean, running_var, training, momentum, eps, out,
                                 save_mean, save_invstd);
  return {out, save_mean, save_invstd};
}

inline triple no_stats(const Tensor& input, const opt& weight, const opt& bias, bool training, double momentum,
                       double eps) {
  return kernels::native_batch_norm(input, weight, bias, std::nullopt, std::nullopt, training, momentum, eps);
}

inline triple_ref no_stats_out(const Tensor& input, const opt& weight, const opt& bias, bool training, double momentum,
                               double eps, Tensor& out, Tensor& save_mean, Tensor& save_invstd) {
  kernels::native_batch_norm_out(input, weight, bias, std::nullopt, std::nullopt, training, momentum, eps, out,
                                 save_mean, save_invstd);
  return {out, save_mean, save_invstd};
}

inline triple no_training(const Tensor& input, const opt& weight, const opt& bias, const Tensor& running_mean,
                          const Tensor& running_var, double momentum, double eps) {
  return kernels::native_batch_norm(input, weight, bias, running_mean, running_var, false, momentum, eps);
}

}  // namespace batch_norm_ops_detail

OPD_FUNC RegistrationSet register_batch_norm() {
  namespace b = batch_norm_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks and resizes on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::native_batch_norm, &b::native>(key));
    set.add(register_kernel<ops::native_batch_norm_out, &b::native_out>(key));
    set.add(register_kernel<ops::native_batch_norm_legit, &b::legit>(key));
    set.add(register_kernel<ops::native_batch_norm_legit_out, &b::legit_out>(key));
    set.add(register_kernel<ops::native_batch_norm_legit_no_stats, &b::no_stats>(key));
    set.add(register_kernel<ops::native_batch_norm_legit_no_stats_out, &b::no_stats_out>(key));
    set.add(register_kernel<ops::native_batch_norm_legit_no_training, &b::no_training>(key));
  }
  return set;
}

}  // namespace opd::kernels
