#pragma once
// Out-of-line part of ops_distance.hpp (compiled in src/kernels/distance.cpp).
#include <optional>

#include "kernels/ops_distance.hpp"

namespace opd::kernels {

namespace distance_ops_detail {

inline Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  return kernels::cdist_forward(x1, x2, p, compute_mode);
}
inline Tensor pdist(const Tensor& self, double p) { return kernels::pdist_forward(self, p); }
inline Tensor pdist_grad(const Tensor& grad, const Tensor& self, double p, const Tensor& pdist) {
  return kernels::pdist_backward(grad, self, p, pdist);
}

}  // namespace distance_ops_detail

OPD_FUNC RegistrationSet register_distance() {
  namespace d = distance_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::cdist_forward, &d::cdist>(key));
    set.add(register_kernel<ops::pdist_forward, &d::pdist>(key));
    set.add(register_kernel<ops::pdist_backward, &d::pdist_grad>(key));
  }
  return set;
}

}  // namespace opd::kernels
