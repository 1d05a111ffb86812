#pragma once
// The formulas of the spatial operators whose gradients are backward kernels
// (the reflection and replication pads, the nearest and bilinear
// upsamplings, the 3-D pools, grid_sampler_2d; col2im and im2col, each the
// other's adjoint)
// and of those backward kernels themselves (double backward: each is linear
// in grad_output, its adjoint is the forward operator), with
// PyTorch 1.13's semantics (derivatives.yaml), and spatial_formulas(), which
// register_autograd() merges. Compiled with the pointwise formulas
// (src/autograd_formulas_pointwise.cpp).
#include <array>
#include <optional>
#include <utility>
#include <span>
#include <vector>

#include "autograd/formulas_common-inl.hpp"
#include "kernels/ops_grid_sampler.hpp"
#include "kernels/ops_padding.hpp"
#include "kernels/ops_pooling3d.hpp"
#include "kernels/ops_upsample.hpp"

namespace opd::autograd {

namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

// A pad F and its backward B: self gets B(grad, self, padding); B's
// grad_output gets F(grad, padding) (self: only its sizes matter, not
// differentiable, as derivatives.yaml's zeros_like(self)).
template <class F, class B>
struct pad_d {
  static Tensor self(const Tensor& g, const saved<F, "self", "padding">& s) {
    return call<B>(g, s.template get<"self">(), fx::ints(s.template get<"padding">()));
  }
  static Tensor grad_output(const Tensor& g, const saved<B, "padding">& s) {
    return call<F>(g, fx::ints(s.template get<"padding">()));
  }
};

inline std::optional<std::span<const int64_t>> opt_ints(const std::optional<std::vector<int64_t>>& v) {
  if (!v) return std::nullopt;
  return fx::ints(*v);
}
inline std::optional<std::span<const double>> opt_doubles(const std::optional<std::vector<double>>& v) {
  if (!v) return std::nullopt;
  return std::span<const double>(v->data(), v->size());
}

struct upsample_nearest_d {
  using F = k::upsample_nearest2d;
  using B = k::upsample_nearest2d_backward;
  static Tensor self(const Tensor& g, const saved<F, "output_size", "self.sizes", "scales_h", "scales_w">& s) {
    return call<B>(g, fx::ints(s.get<"output_size">()), fx::ints(s.get<"self.sizes">()), s.get<"scales_h">(),
                   s.get<"scales_w">());
  }
  static Tensor grad_output(const Tensor& g, const saved<B, "output_size", "scales_h", "scales_w">& s) {
    return call<F>(g, fx::ints(s.get<"output_size">()), s.get<"scales_h">(), s.get<"scales_w">());
  }
  using FV = k::upsample_nearest2d_vec;
  using BV = k::upsample_nearest2d_backward_vec;
  static Tensor input_vec(const Tensor& g, const saved<FV, "output_size", "input.sizes", "scale_factors">& s) {
    return call<BV>(g, opt_ints(s.get<"output_size">()), fx::ints(s.get<"input.sizes">()),
                    opt_doubles(s.get<"scale_factors">()));
  }
  static Tensor grad_output_vec(const Tensor& g, const saved<BV, "output_size", "scale_factors">& s) {
    return call<FV>(g, opt_ints(s.get<"output_size">()), opt_doubles(s.get<"scale_factors">()));
  }
};

struct upsample_bilinear_d {
  using F = k::upsample_bilinear2d;
  using B = k::upsample_bilinear2d_backward;
  static Tensor self(const Tensor& g,
                     const saved<F, "output_size", "self.sizes", "align_corners", "scales_h", "scales_w">& s) {
    return call<B>(g, fx::ints(s.get<"output_size">()), fx::ints(s.get<"self.sizes">()), s.get<"align_corners">(),
                   s.get<"scales_h">(), s.get<"scales_w">());
  }
  static Tensor grad_output(const Tensor& g, const saved<B, "output_size", "align_corners", "scales_h", "scales_w">& s) {
    return call<F>(g, fx::ints(s.get<"output_size">()), s.get<"align_corners">(), s.get<"scales_h">(),
                   s.get<"scales_w">());
  }
  using FV = k::upsample_bilinear2d_vec;
  using BV = k::upsample_bilinear2d_backward_vec;
  static Tensor input_vec(const Tensor& g,
                          const saved<FV, "output_size", "input.sizes", "align_corners", "scale_factors">& s) {
    return call<BV>(g, opt_ints(s.get<"output_size">()), fx::ints(s.get<"input.sizes">()), s.get<"align_corners">(),
                    opt_doubles(s.get<"scale_factors">()));
  }
  static Tensor grad_output_vec(const Tensor& g, const saved<BV, "output_size", "align_corners", "scale_factors">& s) {
    return call<FV>(g, opt_ints(s.get<"output_size">()), s.get<"align_corners">(), opt_doubles(s.get<"scale_factors">()));
  }
};

struct avg_pool3d_d {
  using F = k::avg_pool3d;
  using B = k::avg_pool3d_backward;
  static Tensor self(const Tensor& g, const saved<F, "self", "kernel_size", "stride", "padding", "ceil_mode",
                                                "count_include_pad", "divisor_override">& s) {
    return call<B>(g, s.get<"self">(), fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"stride">()),
                   fx::ints(s.get<"padding">()), s.get<"ceil_mode">(), s.get<"count_include_pad">(),
                   s.get<"divisor_override">());
  }
  static Tensor grad_output(const Tensor& g, const saved<B, "kernel_size", "stride", "padding", "ceil_mode",
                                                        "count_include_pad", "divisor_override">& s) {
    return call<F>(g, fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"stride">()), fx::ints(s.get<"padding">()),
                   s.get<"ceil_mode">(), s.get<"count_include_pad">(), s.get<"divisor_override">());
  }
};
struct max_pool3d_d {
  using F = k::max_pool3d_with_indices;
  using B = k::max_pool3d_with_indices_backward;
  static Tensor self(const Tensor& g, const saved<F, "self", "kernel_size", "stride", "padding", "dilation",
                                                "ceil_mode", "result1">& s) {
    return call<B>(g, s.get<"self">(), fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"stride">()),
                   fx::ints(s.get<"padding">()), fx::ints(s.get<"dilation">()), s.get<"ceil_mode">(),
                   s.get<"result1">());
  }
  // PyTorch's max_pool_double_backward: the gradient gathered at the indices of each volume
  static Tensor grad_output(const Tensor& g, const saved<B, "indices">& s) {
    const Tensor idx = s.get<"indices">();
    std::vector<int64_t> gs(g.sizes().begin(), g.sizes().end() - 3), is(idx.sizes().begin(), idx.sizes().end() - 3);
    gs.push_back(g.size(-3) * g.size(-2) * g.size(-1));
    is.push_back(idx.size(-3) * idx.size(-2) * idx.size(-1));
    const Tensor r = call<k::gather>(fx::reshape(g, IntArrayRef(gs.data(), gs.size())), int64_t{-1},
                                     fx::reshape(idx, IntArrayRef(is.data(), is.size())));
    return fx::reshape(r, idx.sizes());
  }
};
struct adaptive_avg_pool3d_d {
  using F = k::adaptive_avg_pool3d_;
  using B = k::adaptive_avg_pool3d_backward_;
  static Tensor self(const Tensor& g, const saved<F, "self">& s) { return call<B>(g, s.get<"self">()); }
  static Tensor grad_output(const Tensor& g, const saved<B, "grad_output.sizes">& s) {
    const IntArrayRef gs = s.get<"grad_output.sizes">();
    return call<F>(g, fx::ints(gs.slice(gs.size() - 3)));
  }
};
struct col2im_d {  // col2im and im2col: each the other's adjoint
  static Tensor col2im_self(const Tensor& g, const saved<k::col2im, "kernel_size", "dilation", "padding", "stride">& s) {
    return call<k::im2col>(g, fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"dilation">()),
                           fx::ints(s.get<"padding">()), fx::ints(s.get<"stride">()));
  }
  static Tensor im2col_self(const Tensor& g,
                            const saved<k::im2col, "self.sizes", "kernel_size", "dilation", "padding", "stride">& s) {
    const IntArrayRef xs = s.get<"self.sizes">();
    return call<k::col2im>(g, fx::ints(xs.slice(xs.size() - 2)), fx::ints(s.get<"kernel_size">()),
                           fx::ints(s.get<"dilation">()), fx::ints(s.get<"padding">()), fx::ints(s.get<"stride">()));
  }
};
// grid_sampler_2d: both gradients from its backward kernel, which PyTorch
// 1.13 does not differentiate (a create_graph backward through it is the
// fallback's error naming grid_sampler_2d_backward, where PyTorch raises at
// the second backward).
struct grid_sampler_d {
  using F = k::grid_sampler_2d;
  static std::array<Tensor, 2> both(const Tensor& g, const saved<F, "input", "grid", "interpolation_mode",
                                                                 "padding_mode", "align_corners">& s) {
    auto [gi, gg] = call<k::grid_sampler_2d_backward>(g, s.get<"input">(), s.get<"grid">(), s.get<"interpolation_mode">(),
                                                      s.get<"padding_mode">(), s.get<"align_corners">(),
                                                      std::array<bool, 2>{true, true});
    return {std::move(gi), std::move(gg)};
  }
};

}  // namespace formulas_detail

namespace fd = formulas_detail;
namespace kops = kernels::ops;
#define OPD_PAD_DERIVATIVES(F, NODE)                                                                                \
  OPD_AUTOGRAD_DERIVATIVES(kops::F, NODE "Backward0", formula<"self", &fd::pad_d<kops::F, kops::F##_backward>::self>,  \
                           complex_verified);                                                                       \
  OPD_AUTOGRAD_DERIVATIVES(kops::F##_backward, NODE "BackwardBackward0",                                            \
                           formula<"grad_output", &fd::pad_d<kops::F, kops::F##_backward>::grad_output>,            \
                           non_differentiable<"self">, complex_verified)
OPD_PAD_DERIVATIVES(reflection_pad1d, "ReflectionPad1D");
OPD_PAD_DERIVATIVES(reflection_pad2d, "ReflectionPad2D");
OPD_PAD_DERIVATIVES(reflection_pad3d, "ReflectionPad3D");
OPD_PAD_DERIVATIVES(replication_pad1d, "ReplicationPad1D");
OPD_PAD_DERIVATIVES(replication_pad2d, "ReplicationPad2D");
OPD_PAD_DERIVATIVES(replication_pad3d, "ReplicationPad3D");
#undef OPD_PAD_DERIVATIVES
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_nearest2d, "UpsampleNearest2DBackward0", formula<"self", &fd::upsample_nearest_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_nearest2d_vec, "UpsampleNearest2DBackward1",
                         formula<"input", &fd::upsample_nearest_d::input_vec>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_nearest2d_backward, "UpsampleNearest2DBackwardBackward0",
                         formula<"grad_output", &fd::upsample_nearest_d::grad_output>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_nearest2d_backward_vec, "UpsampleNearest2DBackwardBackward1",
                         formula<"grad_output", &fd::upsample_nearest_d::grad_output_vec>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_bilinear2d, "UpsampleBilinear2DBackward0", formula<"self", &fd::upsample_bilinear_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_bilinear2d_vec, "UpsampleBilinear2DBackward1",
                         formula<"input", &fd::upsample_bilinear_d::input_vec>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_bilinear2d_backward, "UpsampleBilinear2DBackwardBackward0",
                         formula<"grad_output", &fd::upsample_bilinear_d::grad_output>);
OPD_AUTOGRAD_DERIVATIVES(kops::upsample_bilinear2d_backward_vec, "UpsampleBilinear2DBackwardBackward1",
                         formula<"grad_output", &fd::upsample_bilinear_d::grad_output_vec>);
OPD_AUTOGRAD_DERIVATIVES(kops::avg_pool3d, "AvgPool3DBackward0", formula<"self", &fd::avg_pool3d_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::avg_pool3d_backward, "AvgPool3DBackwardBackward0",
                         formula<"grad_output", &fd::avg_pool3d_d::grad_output>, non_differentiable<"self">);
OPD_AUTOGRAD_DERIVATIVES(kops::max_pool3d_with_indices, "MaxPool3DWithIndicesBackward0",
                         formula<"self", &fd::max_pool3d_d::self>, output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::max_pool3d_with_indices_backward, "MaxPool3DWithIndicesBackwardBackward0",
                         formula<"grad_output", &fd::max_pool3d_d::grad_output>, non_differentiable<"self", "indices">);
OPD_AUTOGRAD_DERIVATIVES(kops::adaptive_avg_pool3d_, "AdaptiveAvgPool3DBackward0", formula<"self", &fd::adaptive_avg_pool3d_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::adaptive_avg_pool3d_backward_, "AdaptiveAvgPool3DBackwardBackward0",
                         formula<"grad_output", &fd::adaptive_avg_pool3d_d::grad_output>, non_differentiable<"self">);
OPD_AUTOGRAD_DERIVATIVES(kops::grid_sampler_2d, "GridSampler2DBackward0", formula<"input, grid", &fd::grid_sampler_d::both>);
OPD_AUTOGRAD_DERIVATIVES(kops::col2im, "Col2ImBackward0", formula<"self", &fd::col2im_d::col2im_self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::im2col, "Im2ColBackward0", formula<"self", &fd::col2im_d::im2col_self>, complex_verified);

OPD_FUNC formulas_detail::registrar formulas_detail::spatial_formulas() {
  formulas_detail::registrar r;
  r.functional<kops::reflection_pad1d>();
  r.functional<kops::reflection_pad2d>();
  r.functional<kops::reflection_pad3d>();
  r.functional<kops::replication_pad1d>();
  r.functional<kops::replication_pad2d>();
  r.functional<kops::replication_pad3d>();
  r.functional<kops::reflection_pad1d_backward>();
  r.functional<kops::reflection_pad2d_backward>();
  r.functional<kops::reflection_pad3d_backward>();
  r.functional<kops::replication_pad1d_backward>();
  r.functional<kops::replication_pad2d_backward>();
  r.functional<kops::replication_pad3d_backward>();
  r.functional<kops::upsample_nearest2d>();
  r.functional<kops::upsample_nearest2d_vec>();
  r.functional<kops::upsample_nearest2d_backward>();
  r.functional<kops::upsample_nearest2d_backward_vec>();
  r.functional<kops::upsample_bilinear2d>();
  r.functional<kops::upsample_bilinear2d_vec>();
  r.functional<kops::upsample_bilinear2d_backward>();
  r.functional<kops::upsample_bilinear2d_backward_vec>();
  r.functional<kops::avg_pool3d>();
  r.functional<kops::avg_pool3d_backward>();
  r.functional<kops::max_pool3d_with_indices>();
  r.functional<kops::max_pool3d_with_indices_backward>();
  r.functional<kops::adaptive_avg_pool3d_>();
  r.functional<kops::adaptive_avg_pool3d_backward_>();
  r.functional<kops::grid_sampler_2d>();
  r.functional<kops::col2im>();
  r.functional<kops::im2col>();
  return r;
}

}  // namespace opd::autograd
