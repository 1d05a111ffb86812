#pragma once
// Out-of-line part of ops_grid_sampler.hpp (compiled in src/kernels/grid_sampler.cpp).
#include "kernels/ops_grid_sampler.hpp"

namespace opd::kernels {

namespace grid_sampler_ops_detail {

inline Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                              int64_t padding_mode, bool align_corners) {
  return kernels::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners);
}

}  // namespace grid_sampler_ops_detail

OPD_FUNC RegistrationSet register_grid_sampler() {
  RegistrationSet set;
  // Meta: the same kernel, which stops after its checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::grid_sampler_2d, &grid_sampler_ops_detail::grid_sampler_2d>(key));
  }
  return set;
}

}  // namespace opd::kernels
