#pragma once
// Out-of-line part of ops_upsample.hpp (compiled in src/kernels/upsample.cpp).
#include <cmath>
#include <optional>
#include <span>
#include <vector>

#include "kernels/ops_upsample.hpp"
#include "structured/derive.hpp"

namespace opd::kernels {

namespace upsample_ops_detail {

using ints = std::span<const int64_t>;

// ATen 1.13's compute_output_size (upsample.h): the given size, or each
// spatial size of the input's sizes times its scale factor, floored; exactly
// one of them.
inline std::vector<int64_t> vec_output_size(ints input_sizes, const std::optional<std::span<const int64_t>>& output_size,
                                            const std::optional<std::span<const double>>& scale_factors) {
  OPD_CHECK(output_size.has_value() != scale_factors.has_value(),
            "Must specify exactly one of output_size and scale_factors");
  if (output_size) return {output_size->begin(), output_size->end()};
  const int64_t dims = static_cast<int64_t>(input_sizes.size()), spatial = dims - 2;
  OPD_CHECK(spatial >= 0 && static_cast<int64_t>(scale_factors->size()) == spatial, "Expected ", spatial,
            " scale factors for an input of ", dims, " dimensions, got ", scale_factors->size());
  std::vector<int64_t> sizes;
  for (int64_t i = 0; i < spatial; ++i)
    sizes.push_back(static_cast<int64_t>(std::floor(static_cast<double>(input_sizes[static_cast<std::size_t>(i + 2)]) *
                                                    (*scale_factors)[static_cast<std::size_t>(i)])));
  return sizes;
}
inline std::vector<int64_t> vec_output_size(const Tensor& input, const std::optional<std::span<const int64_t>>& output_size,
                                            const std::optional<std::span<const double>>& scale_factors) {
  OPD_CHECK(input.defined(), "upsample: argument 'input' is an undefined tensor");
  return vec_output_size(ints(input.sizes().data(), input.sizes().size()), output_size, scale_factors);
}
inline std::optional<double> scale_at(const std::optional<std::span<const double>>& s, std::size_t i) {
  if (!s || i >= s->size()) return std::nullopt;
  return (*s)[i];
}

inline Tensor nearest(const Tensor& self, ints output_size, std::optional<double> scales_h,
                      std::optional<double> scales_w) {
  return kernels::upsample_nearest2d(self, output_size, scales_h, scales_w);
}
inline Tensor bilinear(const Tensor& self, ints output_size, bool align_corners, std::optional<double> scales_h,
                       std::optional<double> scales_w) {
  return kernels::upsample_bilinear2d(self, output_size, align_corners, scales_h, scales_w);
}
inline Tensor nearest_vec(const Tensor& input, std::optional<std::span<const int64_t>> output_size,
                          std::optional<std::span<const double>> scale_factors) {
  const std::vector<int64_t> size = vec_output_size(input, output_size, scale_factors);
  return call<ops::upsample_nearest2d>(input, std::span<const int64_t>(size), scale_at(scale_factors, 0),
                                       scale_at(scale_factors, 1));
}
inline Tensor bilinear_vec(const Tensor& input, std::optional<std::span<const int64_t>> output_size,
                           bool align_corners, std::optional<std::span<const double>> scale_factors) {
  const std::vector<int64_t> size = vec_output_size(input, output_size, scale_factors);
  return call<ops::upsample_bilinear2d>(input, std::span<const int64_t>(size), align_corners,
                                        scale_at(scale_factors, 0), scale_at(scale_factors, 1));
}

inline Tensor nearest_backward(const Tensor& grad_output, ints output_size, ints input_size,
                               std::optional<double> scales_h, std::optional<double> scales_w) {
  return kernels::upsample_nearest2d_backward(grad_output, output_size, input_size, scales_h, scales_w);
}
inline Tensor bilinear_backward(const Tensor& grad_output, ints output_size, ints input_size, bool align_corners,
                                std::optional<double> scales_h, std::optional<double> scales_w) {
  return kernels::upsample_bilinear2d_backward(grad_output, output_size, input_size, align_corners, scales_h, scales_w);
}
inline Tensor nearest_backward_vec(const Tensor& grad_output, std::optional<std::span<const int64_t>> output_size,
                                   ints input_size, std::optional<std::span<const double>> scale_factors) {
  const std::vector<int64_t> size = vec_output_size(input_size, output_size, scale_factors);
  return call<ops::upsample_nearest2d_backward>(grad_output, std::span<const int64_t>(size), input_size,
                                                scale_at(scale_factors, 0), scale_at(scale_factors, 1));
}
inline Tensor bilinear_backward_vec(const Tensor& grad_output, std::optional<std::span<const int64_t>> output_size,
                                    ints input_size, bool align_corners,
                                    std::optional<std::span<const double>> scale_factors) {
  const std::vector<int64_t> size = vec_output_size(input_size, output_size, scale_factors);
  return call<ops::upsample_bilinear2d_backward>(grad_output, std::span<const int64_t>(size), input_size, align_corners,
                                                 scale_at(scale_factors, 0), scale_at(scale_factors, 1));
}

}  // namespace upsample_ops_detail

OPD_FUNC RegistrationSet register_upsample() {
  namespace u = upsample_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::upsample_nearest2d, &u::nearest>(key));
    set.add(register_kernel<ops::upsample_bilinear2d, &u::bilinear>(key));
    set.add(derive_missing_variants<ops::upsample_nearest2d, void, ops::upsample_nearest2d_out>(key));
    set.add(derive_missing_variants<ops::upsample_bilinear2d, void, ops::upsample_bilinear2d_out>(key));
    set.add(register_kernel<ops::upsample_nearest2d_backward, &u::nearest_backward>(key));
    set.add(register_kernel<ops::upsample_bilinear2d_backward, &u::bilinear_backward>(key));
    set.add(derive_missing_variants<ops::upsample_nearest2d_backward, void, ops::upsample_nearest2d_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::upsample_bilinear2d_backward, void, ops::upsample_bilinear2d_backward_grad_input>(key));
  }
  constexpr DispatchKey any = DispatchKey::CompositeExplicitAutograd;
  set.add(register_kernel<ops::upsample_nearest2d_vec, &u::nearest_vec>(any));
  set.add(register_kernel<ops::upsample_bilinear2d_vec, &u::bilinear_vec>(any));
  set.add(register_kernel<ops::upsample_nearest2d_backward_vec, &u::nearest_backward_vec>(any));
  set.add(register_kernel<ops::upsample_bilinear2d_backward_vec, &u::bilinear_backward_vec>(any));
  return set;
}

}  // namespace opd::kernels
