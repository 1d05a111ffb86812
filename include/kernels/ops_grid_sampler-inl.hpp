#pragma once
// Out-of-line part of ops_grid_sampler.hpp (compiled in src/kernels/grid_sampler.cpp).
#include <array>
#include <tuple>
#include <utility>

#include "kernels/ops_grid_sampler.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace grid_sampler_ops_detail {

inline Tensor grid_sampler_2d(const Tensor& input, const Tensor& grid, int64_t interpolation_mode,
                              int64_t padding_mode, bool align_corners) {
  return kernels::grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners);
}

inline std::tuple<Tensor, Tensor> grid_sampler_2d_backward(const Tensor& grad_output, const Tensor& input,
                                                           const Tensor& grid, int64_t interpolation_mode,
                                                           int64_t padding_mode, bool align_corners,
                                                           std::array<bool, 2> output_mask) {
  return kernels::grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners,
                                           output_mask);
}
// .out: computed, then each defined result copied into its out (resized), as
// the derived out= variants do for one result
template <DispatchKey Key>
std::tuple<Tensor&, Tensor&> grid_sampler_2d_backward_out(const Tensor& grad_output, const Tensor& input,
                                                          const Tensor& grid, int64_t interpolation_mode,
                                                          int64_t padding_mode, bool align_corners,
                                                          std::array<bool, 2> output_mask, Tensor& out0, Tensor& out1) {
  constexpr std::string_view op = "aten::grid_sampler_2d_backward.out";
  const auto [grad_input, grad_grid] = kernels::grid_sampler_2d_backward(grad_output, input, grid, interpolation_mode,
                                                                         padding_mode, align_corners, output_mask);
  for (auto [out, result] : {std::pair<Tensor*, const Tensor*>{&out0, &grad_input}, {&out1, &grad_grid}}) {
    if (!result->defined()) continue;
    structured_detail::check_out_device(op, result->device(), *out);
    structured_detail::check_castable(op, result->dtype(), out->dtype());
    structured_detail::resize_out(op, *out, result->sizes(), MemoryFormat::Contiguous);
    structured_detail::copy_into(*out, *result, Key);
  }
  return {out0, out1};
}

}  // namespace grid_sampler_ops_detail

OPD_FUNC RegistrationSet register_grid_sampler() {
  RegistrationSet set;
  // Meta: the same kernel, which stops after its checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::grid_sampler_2d, &grid_sampler_ops_detail::grid_sampler_2d>(key));
    set.add(register_kernel<ops::grid_sampler_2d_backward, &grid_sampler_ops_detail::grid_sampler_2d_backward>(key));
  }
  set.add(register_kernel<ops::grid_sampler_2d_backward_out,
                          &grid_sampler_ops_detail::grid_sampler_2d_backward_out<DispatchKey::CPU>>(DispatchKey::CPU));
  set.add(register_kernel<ops::grid_sampler_2d_backward_out,
                          &grid_sampler_ops_detail::grid_sampler_2d_backward_out<DispatchKey::Meta>>(DispatchKey::Meta));
  return set;
}

}  // namespace opd::kernels
