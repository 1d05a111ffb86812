#pragma once
// The formulas of the complex-valued operators (sgn, angle, conj_physical, the
// views that change the dtype between real and complex, the FFTs), with
// PyTorch 1.13's semantics (derivatives.yaml, FunctionsManual's sgn_backward,
// angle_backward, fft_r2c_backward, fft_c2r_backward), and complex_formulas(),
// which register_autograd() merges. Compiled with formulas-inl.hpp in
// src/autograd_formulas.cpp.
//
// The convention is PyTorch's: for a real loss L of z = x + iy the gradient is
// dL/dx + i dL/dy, so a backward pass multiplies by conjugated derivatives.
// Every formula here calls only operators whose formulas are complex_verified,
// so that second derivatives are computed too.
#include <complex>
#include <vector>

#include "autograd/formulas_common-inl.hpp"
#include "kernels/ops_fft.hpp"

namespace opd::autograd {

namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

struct complex_d {
  // The pairs' gradient read as complex numbers, and the reverse (both need a contiguous gradient).
  static Tensor view_as_real(const Tensor& g) { return call<k::view_as_complex>(call<k::contiguous>(g)); }
  static Tensor view_as_complex(const Tensor& g) { return call<k::view_as_real>(call<k::contiguous>(g)); }
  static Tensor conj_physical(const Tensor& g) { return call<k::conj_physical>(g); }
  // real, imag, conj: composites whose own formulas keep them differentiable (a composite view
  // without one takes the fallback). re(z)'s gradient g is g + 0i, im(z)'s is g i.
  static Tensor real(const Tensor& g) { return fx::mul(g, Scalar(std::complex<double>(1, 0))); }
  static Tensor imag(const Tensor& g) { return fx::mul(g, Scalar(std::complex<double>(0, 1))); }
  static Tensor conj(const Tensor& g) { return fx::conj(g); }
  // sgn: z/|z| for complex z (0 at 0): grad/|z| - re(grad/z) sgn(z); a real sign has derivative 0.
  static Tensor sgn(const Tensor& g, const saved<k::sgn::functional, "self", "result">& s) {
    const Tensor x = s.get<"self">();
    if (!is_complex_type(x.dtype())) return fx::zeros_like_sizes(x.sizes(), g);
    const Tensor a = call<k::abs::functional>(x);
    const Tensor d = fx::sub(fx::div(g, a), fx::mul(call<k::real>(fx::div(g, x)), s.get<"result">()));
    return call<k::where::functional>(call<k::eq_scalar::functional>(a, Scalar(0)), fx::zeros_like_sizes(IntArrayRef(), d), d);
  }
  // angle: atan2(y, x): grad * i z / |z|^2 (0 at 0); of a real input 0.
  static Tensor angle(const Tensor& g, const saved<k::angle, "self">& s) {
    const Tensor x = s.get<"self">();
    if (!is_complex_type(x.dtype())) return fx::zeros_like_sizes(x.sizes(), x);
    const Tensor a = call<k::abs::functional>(x);
    const Tensor d = fx::mul(fx::div(fx::mul(g, x), fx::mul(a, a)), Scalar(std::complex<double>(0, 1)));
    return call<k::where::functional>(call<k::eq_scalar::functional>(a, Scalar(0)), fx::zeros_like_sizes(IntArrayRef(), d), d);
  }
  // _fft_c2c: the transform in the other direction with the same normalization is its adjoint.
  static Tensor fft_c2c(const Tensor& g, const saved<k::fft_c2c, "dim", "normalization", "forward">& s) {
    return call<k::fft_c2c>(g, fx::ints(s.get<"dim">()), s.get<"normalization">(), !s.get<"forward">());
  }
  // _fft_r2c: a one-sided result is padded with zeros to the full length of the
  // last dim, then the inverse transform's real part (PyTorch's fft_r2c_backward).
  static Tensor fft_r2c(const Tensor& g, const saved<k::fft_r2c, "self.sizes", "dim", "normalization", "onesided">& s) {
    const std::vector<int64_t>& dim = s.get<"dim">();
    Tensor full = g;
    if (s.get<"onesided">()) {
      const int64_t last = opd::detail::wrap_dim(dim.back(), g.dim());
      const int64_t missing = s.get<"self.sizes">()[static_cast<std::size_t>(last)] - g.size(last);
      if (missing > 0) {
        std::vector<int64_t> zs(g.sizes().begin(), g.sizes().end());
        zs[static_cast<std::size_t>(last)] = missing;
        const Tensor parts[2] = {g, fx::zeros_like_sizes(IntArrayRef(zs.data(), zs.size()), g)};
        full = call<k::cat>(std::span<const Tensor>(parts), last);
      }
    }
    return call<k::real>(call<k::fft_c2c>(full, fx::ints(dim), s.get<"normalization">(), false));
  }
  // _fft_c2r: the one-sided forward transform of the gradient, the entries whose mirror image the
  // forward filled in by conjugate symmetry counted twice (PyTorch's fft_c2r_backward).
  static Tensor fft_c2r(const Tensor& g, const saved<k::fft_c2r, "dim", "normalization">& s) {
    const std::vector<int64_t>& dim = s.get<"dim">();
    const Tensor r = call<k::fft_r2c>(g, fx::ints(dim), s.get<"normalization">(), true);
    const int64_t last = opd::detail::wrap_dim(dim.back(), g.dim());
    const int64_t n = g.size(last), half = r.size(last);
    if (n - half <= 0) return r;
    std::vector<double> w(static_cast<std::size_t>(half), 1.0);  // 1, 2, ..., 2 (n - half twos), 1 ...
    for (int64_t i = 1; i <= n - half; ++i) w[static_cast<std::size_t>(i)] = 2.0;
    std::vector<int64_t> shape(static_cast<std::size_t>(r.dim()), 1);
    shape[static_cast<std::size_t>(last)] = half;
    const Tensor weights = from_vector<double>(w, IntArrayRef(shape.data(), shape.size()));
    const ScalarType real_type = r.dtype() == ScalarType::ComplexFloat ? ScalarType::Float : ScalarType::Double;
    return fx::mul(r, real_type == ScalarType::Double ? weights : call<k::to_copy>(weights, arg<"dtype"> = real_type));
  }
};

}  // namespace formulas_detail

namespace fd = formulas_detail;
namespace kops = kernels::ops;
OPD_AUTOGRAD_DERIVATIVES(kops::view_as_real, "ViewAsRealBackward0", formula<"self", &fd::complex_d::view_as_real>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::view_as_complex, "ViewAsComplexBackward0", formula<"self", &fd::complex_d::view_as_complex>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::conj_physical, "ConjPhysicalBackward0", formula<"self", &fd::complex_d::conj_physical>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::real, "SelectBackward0", formula<"self", &fd::complex_d::real>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::imag, "SelectBackward0", formula<"self", &fd::complex_d::imag>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::conj, "ConjBackward0", formula<"self", &fd::complex_d::conj>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sgn::functional, "SgnBackward0", formula<"self", &fd::complex_d::sgn>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::angle, "AngleBackward0", formula<"self", &fd::complex_d::angle>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::fft_c2c, "FftC2CBackward0", formula<"self", &fd::complex_d::fft_c2c>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::fft_r2c, "FftR2CBackward0", formula<"self", &fd::complex_d::fft_r2c>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::fft_c2r, "FftC2RBackward0", formula<"self", &fd::complex_d::fft_c2r>, complex_verified);

OPD_FUNC formulas_detail::registrar formulas_detail::complex_formulas() {
  formulas_detail::registrar r;
  r.functional<kops::view_as_real>();
  r.functional<kops::view_as_complex>();
  r.view_copy<kops::view_as_real>();
  r.view_copy<kops::view_as_complex>();
  r.functional<kops::real>();
  r.functional<kops::imag>();
  r.functional<kops::conj>();
  r.functional<kops::conj_physical>();
  r.inplace_of<kops::conj_physical, kops::conj_physical_>();
  r.family<kops::sgn>();
  r.functional<kops::angle>();
  r.functional<kops::fft_c2c>();
  r.functional<kops::fft_r2c>();
  r.functional<kops::fft_c2r>();
  return r;
}

}  // namespace opd::autograd
