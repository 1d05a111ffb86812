#pragma once
// The formulas of the pointwise operators (unary math, activations, rounding,
// binary and ternary arithmetic), with PyTorch 1.13's semantics
// (derivatives.yaml), and pointwise_formulas(), which register_autograd()
// merges. Compiled in its own source (src/autograd_formulas_pointwise.cpp).
#include <array>
#include <cmath>
#include <numbers>
#include <optional>
#include <string_view>

#include "autograd/formulas_common-inl.hpp"

namespace opd::autograd {

namespace fx {
inline Tensor zero0(const Tensor& like) { return zeros_like_sizes(IntArrayRef(), like); }
inline Tensor zeros_like(const Tensor& like) { return zeros_like_sizes(like.sizes(), like); }
// grad where `mask`, else 0 (PyTorch's where(mask, grad, 0): differentiable in grad).
inline Tensor where0(const Tensor& mask, const Tensor& g) { return call<k::where::functional>(mask, g, zero0(g)); }
inline Tensor mul_d(const Tensor& a, double v) { return mul(a, Scalar(v)); }
inline Tensor sq(const Tensor& a) { return mul(a, a); }
inline Tensor gt(const Tensor& a, double v) { return call<k::gt_scalar::functional>(a, Scalar(v)); }
inline Tensor ge(const Tensor& a, double v) { return call<k::ge_scalar::functional>(a, Scalar(v)); }
inline Tensor lt(const Tensor& a, double v) { return call<k::lt_scalar::functional>(a, Scalar(v)); }
inline Tensor le(const Tensor& a, double v) { return call<k::le_scalar::functional>(a, Scalar(v)); }
inline Tensor both(const Tensor& a, const Tensor& b) { return call<k::logical_and::functional>(a, b); }
inline Tensor rsqrt(const Tensor& a) { return call<k::rsqrt::functional>(a); }
// e is real and >= 0 (a complex e: its imaginary part 0 and its real part >= 0)
inline Tensor real_nonneg(const Tensor& e) {
  if (!is_complex_type(e.dtype())) return ge(e, 0);
  return both(call<k::eq_scalar::functional>(call<k::imag>(e), Scalar(0)), ge(call<k::real>(e), 0));
}
}  // namespace fx

namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

// ---- unary: a formula of grad and the saved input (or result) -----------------------------
template <class Op>
struct unary_d {
  using S = saved<Op, "self">;
  using R = saved<Op, "result">;
  static Tensor x(const S& s) { return s.template get<"self">(); }
  static Tensor y(const R& s) { return s.template get<"result">(); }

  // grad * sgn(x): sign for a real x, z/|z| for a complex one (PyTorch's)
  static Tensor abs(const Tensor& g, const S& s) { return fx::mul(g, call<k::sgn::functional>(x(s))); }
  static Tensor sqrt(const Tensor& g, const R& s) { return fx::div(g, fx::mul_d(fx::conj(y(s)), 2)); }  // complex too
  // (complex_verified below: the derivative conjugated, fx::conj, nothing for a real tensor)
  static Tensor rsqrt(const Tensor& g, const R& s) {  // -0.5 * grad * conj(result^3)
    const Tensor r = fx::conj(y(s));
    return fx::mul(fx::mul_d(g, -0.5), fx::mul(r, fx::sq(r)));
  }
  static Tensor sin(const Tensor& g, const S& s) { return fx::mul(g, fx::conj(call<k::cos::functional>(x(s)))); }
  static Tensor cos(const Tensor& g, const S& s) { return fx::mul(g, fx::neg(fx::conj(call<k::sin::functional>(x(s))))); }
  static Tensor tan(const Tensor& g, const R& s) { return fx::mul(g, fx::add_scalar(fx::sq(fx::conj(y(s))), 1)); }
  // The inverse functions' derivatives are real rational functions of x (and rsqrt), so their
  // conjugates are the same functions of conj(x): xc below.
  static Tensor xc(const S& s) { return fx::conj(x(s)); }
  static Tensor asin(const Tensor& g, const S& s) {  // grad / sqrt(1 - x^2)
    return fx::mul(g, fx::rsqrt(fx::add_scalar(fx::neg(fx::sq(xc(s))), 1)));
  }
  static Tensor acos(const Tensor& g, const S& s) {
    return fx::mul(g, fx::neg(fx::rsqrt(fx::add_scalar(fx::neg(fx::sq(xc(s))), 1))));
  }
  static Tensor atan(const Tensor& g, const S& s) { return fx::div(g, fx::add_scalar(fx::sq(xc(s)), 1)); }
  static Tensor sinh(const Tensor& g, const S& s) { return fx::mul(g, fx::conj(call<k::cosh::functional>(x(s)))); }
  static Tensor cosh(const Tensor& g, const S& s) { return fx::mul(g, fx::conj(call<k::sinh::functional>(x(s)))); }
  static Tensor asinh(const Tensor& g, const S& s) { return fx::mul(g, fx::rsqrt(fx::add_scalar(fx::sq(xc(s)), 1))); }
  static Tensor acosh(const Tensor& g, const S& s) { return fx::mul(g, fx::rsqrt(fx::add_scalar(fx::sq(xc(s)), -1))); }
  static Tensor atanh(const Tensor& g, const S& s) { return fx::div(g, fx::add_scalar(fx::neg(fx::sq(xc(s))), 1)); }
  static Tensor log2(const Tensor& g, const S& s) { return fx::div(g, fx::mul_d(fx::conj(x(s)), std::numbers::ln2)); }
  static Tensor log10(const Tensor& g, const S& s) { return fx::div(g, fx::mul_d(fx::conj(x(s)), std::numbers::ln10)); }
  static Tensor log1p(const Tensor& g, const S& s) { return fx::div(g, fx::add_scalar(x(s), 1)); }
  static Tensor exp2(const Tensor& g, const R& s) { return fx::mul(g, fx::mul_d(y(s), std::numbers::ln2)); }
  static Tensor expm1(const Tensor& g, const R& s) { return fx::mul(g, fx::add_scalar(y(s), 1)); }
  static Tensor reciprocal(const Tensor& g, const R& s) { return fx::mul(fx::neg(g), fx::sq(fx::conj(y(s)))); }
  // erf: 2/sqrt(pi) * exp(-x^2) * grad; erfc: its negative
  static Tensor erf(const Tensor& g, const S& s) {
    return fx::mul(g, fx::mul_d(call<k::exp::functional>(fx::neg(fx::sq(x(s)))), 2 * std::numbers::inv_sqrtpi));
  }
  static Tensor erfc(const Tensor& g, const S& s) {
    return fx::mul(g, fx::mul_d(call<k::exp::functional>(fx::neg(fx::sq(x(s)))), -2 * std::numbers::inv_sqrtpi));
  }
  // silu: grad * sigmoid(x) * (1 + x * (1 - sigmoid(x)))
  static Tensor silu(const Tensor& g, const S& s) {
    const Tensor xv = x(s), sg = call<k::sigmoid::functional>(xv);
    return fx::mul(fx::mul(g, sg), fx::add_scalar(fx::mul(xv, fx::add_scalar(fx::neg(sg), 1)), 1));
  }
  // hardsigmoid: grad / 6 inside (-3, 3); hardswish: 0 below -3, grad * (x/3 + 1/2) up to 3, grad above
  static Tensor hardsigmoid(const Tensor& g, const S& s) {
    const Tensor xv = x(s);
    // ATen's hardsigmoid_backward multiplies by 1/6 in float precision (for double too)
    return fx::where0(fx::both(fx::gt(xv, -3), fx::lt(xv, 3)), fx::mul_d(g, static_cast<double>(1.0f / 6.0f)));
  }
  static Tensor hardswish(const Tensor& g, const S& s) {
    const Tensor xv = x(s);
    const Tensor mid = fx::mul(g, fx::add_scalar(fx::mul_d(xv, 1.0 / 3), 0.5));
    return fx::where0(fx::ge(xv, -3), call<k::where::functional>(fx::le(xv, 3), mid, g));
  }
  static Tensor frac(const Tensor& g) { return g; }
  // sign, floor, ceil, round, trunc: piecewise constant (derivatives.yaml: zeros_like(grad))
  static Tensor zero(const Tensor& g) { return fx::zeros_like(g); }
};

// ---- unary with parameters -----------------------------------------------------------------
struct gelu_d {  // gelu_backward, written with differentiable operators (double backward)
  using Op = k::gelu::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self", "approximate">& s) {
    const Tensor x = s.get<"self">();
    if (s.get<"approximate">() == "tanh") {
      constexpr double beta = std::numbers::sqrt2 * std::numbers::inv_sqrtpi;  // sqrt(2/pi)
      constexpr double kappa = 0.044715;
      const Tensor x2 = fx::sq(x);
      const Tensor t = call<k::tanh::functional>(fx::mul_d(fx::add(x, fx::mul_d(fx::mul(x2, x), kappa)), beta));
      const Tensor right = fx::add_scalar(t, 1);
      const Tensor dt = fx::mul(fx::add_scalar(fx::neg(fx::sq(t)), 1), fx::mul_d(fx::add_scalar(fx::mul_d(x2, 3 * kappa), 1), beta));
      return fx::mul(g, fx::add(fx::mul_d(right, 0.5), fx::mul(fx::mul_d(x, 0.5), dt)));
    }
    const Tensor cdf = fx::mul_d(fx::add_scalar(call<k::erf::functional>(fx::mul_d(x, 1 / std::numbers::sqrt2)), 1), 0.5);
    const Tensor pdf = fx::mul_d(call<k::exp::functional>(fx::mul_d(fx::sq(x), -0.5)),
                                 std::numbers::inv_sqrtpi / std::numbers::sqrt2);
    return fx::mul(g, fx::add(cdf, fx::mul(x, pdf)));
  }
};
struct elu_d {  // x > 0: grad * scale; else grad * input_scale * alpha * scale * exp(x * input_scale)
  using Op = k::elu::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self", "alpha", "scale", "input_scale">& s) {
    const Tensor x = s.get<"self">();
    const double alpha = s.get<"alpha">().to_double(), scale = s.get<"scale">().to_double();
    const double in = s.get<"input_scale">().to_double();
    const Tensor neg = fx::mul(g, fx::mul_d(call<k::exp::functional>(fx::mul_d(x, in)), in * alpha * scale));
    return call<k::where::functional>(fx::gt(x, 0), fx::mul_d(g, scale), neg);
  }
};
struct leaky_relu_d {
  using Op = k::leaky_relu::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self", "negative_slope">& s) {
    return call<k::where::functional>(fx::gt(s.get<"self">(), 0), g, fx::mul(g, s.get<"negative_slope">()));
  }
};
struct hardtanh_d {  // grad strictly inside (min_val, max_val)
  using Op = k::hardtanh;
  static Tensor self(const Tensor& g, const saved<Op, "self", "min_val", "max_val">& s) {
    const Tensor x = s.get<"self">();
    return fx::where0(fx::both(fx::gt(x, s.get<"min_val">().to_double()), fx::lt(x, s.get<"max_val">().to_double())), g);
  }
};
struct softplus_d {  // x * beta > threshold: grad; else grad * sigmoid(x * beta)
  using Op = k::softplus;
  static Tensor self(const Tensor& g, const saved<Op, "self", "beta", "threshold">& s) {
    const Tensor xb = fx::mul(s.get<"self">(), s.get<"beta">());
    return call<k::where::functional>(fx::gt(xb, s.get<"threshold">().to_double()), g,
                                      fx::mul(g, call<k::sigmoid::functional>(xb)));
  }
};
struct clamp_tensor_d {  // PyTorch's clamp_backward and clamp_backward_min_max, each reduced to its input's shape
  using Op = k::clamp_tensor::functional;
  using S = saved<Op, "self", "min", "max">;
  static Tensor lt(const Tensor& a, const Tensor& b) { return call<k::lt::functional>(a, b); }
  static Tensor self(const Tensor& g, const S& s) {
    const Tensor x = s.get<"self">(), lo = s.get<"min">(), hi = s.get<"max">();
    Tensor r = g;
    if (lo.defined() && hi.defined())
      r = fx::where0(fx::both(call<k::ge::functional>(x, lo), call<k::le::functional>(x, hi)), g);
    else if (lo.defined())
      r = fx::where0(call<k::ge::functional>(x, lo), g);
    else if (hi.defined())
      r = fx::where0(call<k::le::functional>(x, hi), g);
    return fx::sum_to(r, x.sizes());
  }
  // min: where x < min (and min < max); max: where x > max, or max < min (the result is max there)
  static std::array<Tensor, 2> bounds(const Tensor& g, const S& s) {
    const Tensor x = s.get<"self">(), lo = s.get<"min">(), hi = s.get<"max">();
    std::array<Tensor, 2> r;
    if (lo.defined() && hi.defined()) {
      r[0] = fx::where0(fx::both(lt(x, lo), lt(lo, hi)), g);
      r[1] = fx::where0(call<k::logical_or::functional>(lt(hi, x), lt(hi, lo)), g);
    } else if (lo.defined()) {
      r[0] = fx::where0(lt(x, lo), g);
    } else if (hi.defined()) {
      r[1] = fx::where0(lt(hi, x), g);
    }
    if (r[0].defined()) r[0] = fx::sum_to(r[0], lo.sizes());
    if (r[1].defined()) r[1] = fx::sum_to(r[1], hi.sizes());
    return r;
  }
};
struct clamp_d {  // grad where min <= x <= max (the bounds given)
  using Op = k::clamp::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self", "min", "max">& s) {
    const Tensor x = s.get<"self">();
    const std::optional<Scalar>& lo = s.get<"min">();
    const std::optional<Scalar>& hi = s.get<"max">();
    if (lo && hi) return fx::where0(fx::both(fx::ge(x, lo->to_double()), fx::le(x, hi->to_double())), g);
    if (lo) return fx::where0(fx::ge(x, lo->to_double()), g);
    if (hi) return fx::where0(fx::le(x, hi->to_double()), g);
    return g;
  }
};
struct nan_to_num_d {
  using Op = k::nan_to_num::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self">& s) { return fx::where0(call<k::isfinite>(s.get<"self">()), g); }
};

// ---- binary and ternary: broadcast gradients summed back to each input's sizes ------------
// Complex: the derivatives conjugated (fx::conj), a real input's gradient its real part (fx::r_to_c).
struct pow_tensor_d {
  using Op = k::pow_tensor;
  // grad * conj(e * x^(e - 1)), 0 where e == 0
  static Tensor self(const Tensor& g, const saved<Op, "self", "exponent">& s) {
    const Tensor x = s.get<"self">(), e = s.get<"exponent">();
    const Tensor d = fx::mul(fx::mul(g, fx::conj(e)), fx::conj(call<k::pow_tensor>(x, fx::add_scalar(e, -1))));
    return fx::r_to_c(x.dtype(), fx::sum_to(fx::where0(call<k::ne_scalar::functional>(e, Scalar(0)), d), x.sizes()));
  }
  // grad * conj(result * log(x)), 0 where x == 0 and e is real and >= 0 (x taken in the result's dtype)
  static Tensor exponent(const Tensor& g, const saved<Op, "self", "exponent", "result">& s) {
    const Tensor x = s.get<"self">(), e = s.get<"exponent">(), result = s.get<"result">();
    const Tensor xr = x.dtype() == result.dtype() ? x : call<k::to_copy>(x, arg<"dtype"> = result.dtype());
    const Tensor d = fx::mul(g, fx::conj(fx::mul(result, call<k::log::functional>(xr))));
    const Tensor at_zero = call<k::eq_scalar::functional>(x, Scalar(0));
    const Tensor keep = call<k::logical_not::functional>(fx::both(at_zero, fx::real_nonneg(e)));
    return fx::r_to_c(e.dtype(), fx::sum_to(fx::where0(keep, d), e.sizes()));
  }
};
struct pow_scalar_self_d {  // pow(Scalar self, Tensor exponent): grad * conj(result * log(self))
  using Op = k::pow_scalar_self::functional;
  static Tensor exponent(const Tensor& g, const saved<Op, "self", "exponent", "result">& s) {
    const Scalar& self = s.get<"self">();
    const Tensor e = s.get<"exponent">(), result = s.get<"result">();
    const bool complex = is_complex_type(result.dtype());
    const Scalar log = complex ? Scalar(std::log(self.to_complex_double())) : Scalar(std::log(self.to_double()));
    const Tensor d = fx::r_to_c(e.dtype(), fx::mul(g, fx::conj(fx::mul(result, log))));
    if (!(complex ? self.to_complex_double() == 0.0 : self.to_double() == 0)) return d;
    return fx::where0(call<k::logical_not::functional>(fx::real_nonneg(e)), d);
  }
};
template <bool Max>
struct extremum_d {  // maximum / minimum: the selected side's gradient; half to each on a tie
  using Op = std::conditional_t<Max, k::maximum, k::minimum>;
  using S = saved<Op, "self", "other">;
  static Tensor side(const Tensor& g, const Tensor& mine, const Tensor& theirs) {
    const Tensor wins = Max ? call<k::gt::functional>(mine, theirs) : call<k::lt::functional>(mine, theirs);
    const Tensor ties = call<k::eq::functional>(mine, theirs);
    return call<k::where::functional>(ties, fx::mul_d(g, 0.5), fx::where0(wins, g));
  }
  static Tensor self(const Tensor& g, const S& s) {
    const Tensor a = s.template get<"self">(), b = s.template get<"other">();
    return fx::sum_to(side(g, a, b), a.sizes());
  }
  static Tensor other(const Tensor& g, const S& s) {
    const Tensor a = s.template get<"self">(), b = s.template get<"other">();
    return fx::sum_to(side(g, b, a), b.sizes());
  }
};
struct atan2_d {  // grad * other / (self^2 + other^2), grad * -self / (...)
  using Op = k::atan2::functional;
  using S = saved<Op, "self", "other">;
  static std::array<Tensor, 2> both(const Tensor& g, const S& s) {
    const Tensor a = s.get<"self">(), b = s.get<"other">();
    const Tensor gr = fx::div(g, fx::add(fx::sq(a), fx::sq(b)));
    return {fx::sum_to(fx::mul(gr, b), a.sizes()), fx::sum_to(fx::neg(fx::mul(gr, a)), b.sizes())};
  }
};
struct where_d {
  using Op = k::where::functional;
  static Tensor self(const Tensor& g, const saved<Op, "condition", "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(fx::where0(s.get<"condition">(), g), s.get<"self.sizes">()));
  }
  static Tensor other(const Tensor& g, const saved<Op, "condition", "other.sizes", "other.dtype">& s) {
    return fx::r_to_c(s.get<"other.dtype">(),
                      fx::sum_to(call<k::where::functional>(s.get<"condition">(), fx::zero0(g), g), s.get<"other.sizes">()));
  }
};
struct lerp_d {  // self + weight * (end - self); complex: the factors conjugated (self, end and weight share a dtype)
  using OpS = k::lerp_scalar::functional;
  static Tensor self_s(const Tensor& g, const saved<OpS, "weight", "self.sizes">& s) {
    const Scalar& w = s.get<"weight">();
    const Scalar f = w.is_complex() ? Scalar(1.0 - std::conj(w.to_complex_double())) : Scalar(1 - w.to_double());
    return fx::sum_to(fx::mul(g, f), s.get<"self.sizes">());
  }
  static Tensor end_s(const Tensor& g, const saved<OpS, "weight", "end.sizes">& s) {
    return fx::sum_to(fx::mul(g, fx::conj(s.get<"weight">())), s.get<"end.sizes">());
  }
  using OpT = k::lerp_tensor::functional;
  static Tensor self_t(const Tensor& g, const saved<OpT, "weight", "self.sizes">& s) {
    return fx::sum_to(fx::mul(g, fx::add_scalar(fx::neg(fx::conj(s.get<"weight">())), 1)), s.get<"self.sizes">());
  }
  static Tensor end_t(const Tensor& g, const saved<OpT, "weight", "end.sizes">& s) {
    return fx::sum_to(fx::mul(g, fx::conj(s.get<"weight">())), s.get<"end.sizes">());
  }
  static Tensor weight_t(const Tensor& g, const saved<OpT, "self", "end", "weight.sizes">& s) {
    return fx::sum_to(fx::mul(g, fx::conj(fx::sub(s.get<"end">(), s.get<"self">()))), s.get<"weight.sizes">());
  }
};
// addcmul / addcdiv, complex: the factors conjugated, a real input's gradient its real part
struct addcmul_d {  // self + value * t1 * t2
  using Op = k::addcmul::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(g, s.get<"self.sizes">()));
  }
  static Tensor tensor1(const Tensor& g, const saved<Op, "tensor1", "tensor2", "value">& s) {
    const Tensor t1 = s.get<"tensor1">();
    const Tensor d = fx::mul(fx::mul(g, fx::conj(s.get<"tensor2">())), fx::conj(s.get<"value">()));
    return fx::r_to_c(t1.dtype(), fx::sum_to(d, t1.sizes()));
  }
  static Tensor tensor2(const Tensor& g, const saved<Op, "tensor1", "tensor2", "value">& s) {
    const Tensor t2 = s.get<"tensor2">();
    const Tensor d = fx::mul(fx::mul(g, fx::conj(s.get<"tensor1">())), fx::conj(s.get<"value">()));
    return fx::r_to_c(t2.dtype(), fx::sum_to(d, t2.sizes()));
  }
};
struct addcdiv_d {  // self + value * t1 / t2
  using Op = k::addcdiv::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(g, s.get<"self.sizes">()));
  }
  static Tensor tensor1(const Tensor& g, const saved<Op, "tensor1", "tensor2", "value">& s) {
    const Tensor t1 = s.get<"tensor1">();
    const Tensor d = fx::div(fx::mul(g, fx::conj(s.get<"value">())), fx::conj(s.get<"tensor2">()));
    return fx::r_to_c(t1.dtype(), fx::sum_to(d, t1.sizes()));
  }
  static Tensor tensor2(const Tensor& g, const saved<Op, "tensor1", "tensor2", "value">& s) {
    const Tensor t2 = s.get<"tensor2">();
    const Tensor d = fx::div(fx::mul(fx::mul(g, fx::conj(s.get<"value">())), fx::conj(s.get<"tensor1">())), fx::sq(fx::conj(t2)));
    return fx::r_to_c(t2.dtype(), fx::sum_to(fx::neg(d), t2.sizes()));
  }
};
// div with a rounding mode: piecewise constant (zeros) unless the mode is None
// (complex: a rounding mode is real-only; without one, div's complex formulas)
struct div_mode_d {
  using Op = k::div_mode::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "rounding_mode", "self.sizes", "self.dtype">& s) {
    if (s.get<"rounding_mode">()) return fx::zeros_like_sizes(s.get<"self.sizes">(), g);
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(fx::div(g, fx::conj(s.get<"other">())), s.get<"self.sizes">()));
  }
  static Tensor other(const Tensor& g, const saved<Op, "self", "other", "rounding_mode">& s) {
    const Tensor o = s.get<"other">();
    if (s.get<"rounding_mode">()) return fx::zeros_like_sizes(o.sizes(), g);
    return fx::r_to_c(o.dtype(), fx::sum_to(fx::div_other(g, s.get<"self">(), o), o.sizes()));
  }
  using OpS = k::div_scalar_mode;
  static Tensor self_s(const Tensor& g, const saved<OpS, "other", "rounding_mode">& s) {
    if (s.get<"rounding_mode">()) return fx::zeros_like(g);
    return call<k::div_scalar::functional>(g, fx::conj(s.get<"other">()));
  }
};
// remainder / fmod: self - q * other with q = floor / trunc of self / other
template <class Op, fixed_string Mode>
struct modulo_d {
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes">& s) { return fx::sum_to(g, s.template get<"self.sizes">()); }
  static Tensor other(const Tensor& g, const saved<Op, "self", "other">& s) {
    const Tensor o = s.template get<"other">();
    const Tensor q = call<k::div_mode::functional>(s.template get<"self">(), o, std::optional<std::string_view>(Mode.view()));
    return fx::sum_to(fx::neg(fx::mul(g, q)), o.sizes());
  }
};

}  // namespace formulas_detail

#define OPD_AUTOGRAD_UNARY(OP, NODE, FN) \
  OPD_AUTOGRAD_DERIVATIVES(kops::OP::functional, NODE, formula<"self", &fd::unary_d<kops::OP::functional>::FN>)
// (a formula checked for complex tensors too)
#define OPD_AUTOGRAD_UNARY_COMPLEX(OP, NODE, FN) \
  OPD_AUTOGRAD_DERIVATIVES(kops::OP::functional, NODE, formula<"self", &fd::unary_d<kops::OP::functional>::FN>, complex_verified)

namespace fd = formulas_detail;
namespace kops = kernels::ops;
OPD_AUTOGRAD_DERIVATIVES(kops::abs::functional, "AbsBackward0", formula<"self", &fd::unary_d<kops::abs::functional>::abs>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sqrt::functional, "SqrtBackward0", formula<"self", &fd::unary_d<kops::sqrt::functional>::sqrt>,
                         complex_verified);
OPD_AUTOGRAD_UNARY_COMPLEX(rsqrt, "RsqrtBackward0", rsqrt);
OPD_AUTOGRAD_UNARY_COMPLEX(sin, "SinBackward0", sin);
OPD_AUTOGRAD_UNARY_COMPLEX(cos, "CosBackward0", cos);
OPD_AUTOGRAD_UNARY_COMPLEX(tan, "TanBackward0", tan);
OPD_AUTOGRAD_UNARY_COMPLEX(asin, "AsinBackward0", asin);
OPD_AUTOGRAD_UNARY_COMPLEX(acos, "AcosBackward0", acos);
OPD_AUTOGRAD_UNARY_COMPLEX(atan, "AtanBackward0", atan);
OPD_AUTOGRAD_UNARY_COMPLEX(sinh, "SinhBackward0", sinh);
OPD_AUTOGRAD_UNARY_COMPLEX(cosh, "CoshBackward0", cosh);
OPD_AUTOGRAD_UNARY_COMPLEX(asinh, "AsinhBackward0", asinh);
OPD_AUTOGRAD_UNARY_COMPLEX(acosh, "AcoshBackward0", acosh);
OPD_AUTOGRAD_UNARY_COMPLEX(atanh, "AtanhBackward0", atanh);
OPD_AUTOGRAD_UNARY_COMPLEX(log2, "Log2Backward0", log2);
OPD_AUTOGRAD_UNARY_COMPLEX(log10, "Log10Backward0", log10);
OPD_AUTOGRAD_UNARY(log1p, "Log1PBackward0", log1p);
OPD_AUTOGRAD_UNARY(exp2, "Exp2Backward0", exp2);
OPD_AUTOGRAD_UNARY(expm1, "Expm1Backward0", expm1);
OPD_AUTOGRAD_UNARY_COMPLEX(reciprocal, "ReciprocalBackward0", reciprocal);
OPD_AUTOGRAD_UNARY(erf, "ErfBackward0", erf);
OPD_AUTOGRAD_UNARY(erfc, "ErfcBackward0", erfc);
OPD_AUTOGRAD_UNARY(silu, "SiluBackward0", silu);
OPD_AUTOGRAD_UNARY(hardsigmoid, "HardsigmoidBackward0", hardsigmoid);
OPD_AUTOGRAD_UNARY(hardswish, "HardswishBackward0", hardswish);
OPD_AUTOGRAD_UNARY(frac, "FracBackward0", frac);
OPD_AUTOGRAD_UNARY(sign, "SignBackward0", zero);
OPD_AUTOGRAD_UNARY(floor, "FloorBackward0", zero);
OPD_AUTOGRAD_UNARY(ceil, "CeilBackward0", zero);
OPD_AUTOGRAD_UNARY(round, "RoundBackward0", zero);
OPD_AUTOGRAD_UNARY(trunc, "TruncBackward0", zero);
OPD_AUTOGRAD_DERIVATIVES(kops::gelu::functional, "GeluBackward0", formula<"self", &fd::gelu_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::elu::functional, "EluBackward0", formula<"self", &fd::elu_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::leaky_relu::functional, "LeakyReluBackward0", formula<"self", &fd::leaky_relu_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::hardtanh, "HardtanhBackward0", formula<"self", &fd::hardtanh_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::softplus, "SoftplusBackward0", formula<"self", &fd::softplus_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::clamp::functional, "ClampBackward1", formula<"self", &fd::clamp_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::clamp_tensor::functional, "ClampBackward0", formula<"self", &fd::clamp_tensor_d::self>,
                         formula<"min, max", &fd::clamp_tensor_d::bounds>);
OPD_AUTOGRAD_DERIVATIVES(kops::nan_to_num::functional, "NanToNumBackward0", formula<"self", &fd::nan_to_num_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::pow_tensor, "PowBackward1", formula<"self", &fd::pow_tensor_d::self>,
                         formula<"exponent", &fd::pow_tensor_d::exponent>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::pow_scalar_self::functional, "PowBackward2", formula<"exponent", &fd::pow_scalar_self_d::exponent>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::maximum, "MaximumBackward0", formula<"self", &fd::extremum_d<true>::self>,
                         formula<"other", &fd::extremum_d<true>::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::minimum, "MinimumBackward0", formula<"self", &fd::extremum_d<false>::self>,
                         formula<"other", &fd::extremum_d<false>::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::atan2::functional, "Atan2Backward0", formula<"self, other", &fd::atan2_d::both>);
OPD_AUTOGRAD_DERIVATIVES(kops::where::functional, "WhereBackward0", formula<"self", &fd::where_d::self>,
                         formula<"other", &fd::where_d::other>, non_differentiable<"condition">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::lerp_scalar::functional, "LerpBackward0", formula<"self", &fd::lerp_d::self_s>,
                         formula<"end", &fd::lerp_d::end_s>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::lerp_tensor::functional, "LerpBackward1", formula<"self", &fd::lerp_d::self_t>,
                         formula<"end", &fd::lerp_d::end_t>, formula<"weight", &fd::lerp_d::weight_t>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::addcmul::functional, "AddcmulBackward0", formula<"self", &fd::addcmul_d::self>,
                         formula<"tensor1", &fd::addcmul_d::tensor1>, formula<"tensor2", &fd::addcmul_d::tensor2>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::addcdiv::functional, "AddcdivBackward0", formula<"self", &fd::addcdiv_d::self>,
                         formula<"tensor1", &fd::addcdiv_d::tensor1>, formula<"tensor2", &fd::addcdiv_d::tensor2>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::div_mode::functional, "DivBackward2", formula<"self", &fd::div_mode_d::self>,
                         formula<"other", &fd::div_mode_d::other>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::div_scalar_mode, "DivBackward3", formula<"self", &fd::div_mode_d::self_s>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::remainder::functional, "RemainderBackward1",
                         formula<"self", &fd::modulo_d<kops::remainder::functional, "floor">::self>,
                         formula<"other", &fd::modulo_d<kops::remainder::functional, "floor">::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::remainder_scalar::functional, "RemainderBackward0", formula<"self", &fd::unary_d<kops::frac::functional>::frac>);
OPD_AUTOGRAD_DERIVATIVES(kops::fmod::functional, "FmodBackward1",
                         formula<"self", &fd::modulo_d<kops::fmod::functional, "trunc">::self>,
                         formula<"other", &fd::modulo_d<kops::fmod::functional, "trunc">::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::fmod_scalar::functional, "FmodBackward0", formula<"self", &fd::unary_d<kops::frac::functional>::frac>);
#undef OPD_AUTOGRAD_UNARY

OPD_FUNC formulas_detail::registrar formulas_detail::pointwise_formulas() {
  formulas_detail::registrar r;
  r.family<kops::abs>();
  r.family<kops::sqrt>();
  r.family<kops::rsqrt>();
  r.family<kops::sin>();
  r.family<kops::cos>();
  r.family<kops::tan>();
  r.family<kops::asin>();
  r.family<kops::acos>();
  r.family<kops::atan>();
  r.family<kops::sinh>();
  r.family<kops::cosh>();
  r.family<kops::asinh>();
  r.family<kops::acosh>();
  r.family<kops::atanh>();
  r.family<kops::log2>();
  r.family<kops::log10>();
  r.family<kops::log1p>();
  r.family<kops::exp2>();
  r.family<kops::expm1>();
  r.family<kops::reciprocal>();
  r.family<kops::erf>();
  r.family<kops::erfc>();
  r.family<kops::silu>();
  r.family<kops::hardsigmoid>();
  r.family<kops::hardswish>();
  r.family<kops::frac>();
  r.family<kops::sign>();
  r.family<kops::floor>();
  r.family<kops::ceil>();
  r.family<kops::round>();
  r.family<kops::trunc>();
  r.family<kops::gelu>();
  r.family<kops::elu>();
  r.family<kops::leaky_relu>();
  r.functional<kops::hardtanh>();
  r.inplace_of<kops::hardtanh, kops::hardtanh_>();
  r.functional<kops::softplus>();
  r.family<kops::clamp>();
  r.family<kops::clamp_tensor>();
  r.family<kops::nan_to_num>();
  r.functional<kops::pow_tensor>();
  r.inplace_of<kops::pow_tensor, kops::pow_tensor_>();
  r.family<kops::pow_scalar_self>();
  r.functional<kops::maximum>();
  r.functional<kops::minimum>();
  r.family<kops::atan2>();
  r.family<kops::where>();
  r.family<kops::lerp_scalar>();
  r.family<kops::lerp_tensor>();
  r.family<kops::addcmul>();
  r.family<kops::addcdiv>();
  r.family<kops::div_mode>();
  r.functional<kops::div_scalar_mode>();
  r.inplace_of<kops::div_scalar_mode, kops::div_scalar_mode_>();
  r.family<kops::remainder>();
  r.family<kops::remainder_scalar>();
  r.family<kops::fmod>();
  r.family<kops::fmod_scalar>();
  return r;
}

}  // namespace opd::autograd
