#pragma once
// The formulas of the spatial operators whose gradients are backward kernels
// (the reflection and replication pads, the nearest and bilinear
// upsamplings) and of those backward kernels themselves (double backward:
// each is linear in grad_output, its adjoint is the forward operator), with
// PyTorch 1.13's semantics (derivatives.yaml), and spatial_formulas(), which
// register_autograd() merges. Compiled with the pointwise formulas
// (src/autograd_formulas_pointwise.cpp).
#include <optional>
#include <span>
#include <vector>

#include "autograd/formulas_common-inl.hpp"
#include "kernels/ops_padding.hpp"
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

}  // namespace formulas_detail

namespace fd = formulas_detail;
namespace kops = kernels::ops;
#define OPD_PAD_DERIVATIVES(F, NODE)                                                                                \
  OPD_AUTOGRAD_DERIVATIVES(kops::F, NODE "Backward0", formula<"self", &fd::pad_d<kops::F, kops::F##_backward>::self>); \
  OPD_AUTOGRAD_DERIVATIVES(kops::F##_backward, NODE "BackwardBackward0",                                            \
                           formula<"grad_output", &fd::pad_d<kops::F, kops::F##_backward>::grad_output>,            \
                           non_differentiable<"self">)
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
  return r;
}

}  // namespace opd::autograd
