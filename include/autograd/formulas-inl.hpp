#pragma once
// Formulas for the library's operators, with PyTorch 1.13's semantics
// (derivatives.yaml): each is an ordinary call of the library's operators, so
// a backward pass is itself differentiable (create_graph).
#include <mutex>
#include <string>
#include <vector>

#include "autograd/formulas_common-inl.hpp"
#include "autograd/formulas.hpp"
#include "kernels/ops_conv_backward.hpp"

namespace opd::autograd {

// ---- declarations: one struct of formulas per family --------------------------------------
namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

// Complex (complex_verified below): a factor of the gradient is conjugated (fx::conj, nothing
// for a real tensor), and a real input that met a complex one gets the real part (fx::r_to_c).
struct add_d {
  using Op = k::add::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(g, s.get<"self.sizes">()));
  }
  static Tensor other(const Tensor& g, const saved<Op, "other.sizes", "other.dtype", "alpha">& s) {
    return fx::r_to_c(s.get<"other.dtype">(), fx::sum_to(fx::mul(g, fx::conj(s.get<"alpha">())), s.get<"other.sizes">()));
  }
};
struct sub_d {
  using Op = k::sub::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(g, s.get<"self.sizes">()));
  }
  static Tensor other(const Tensor& g, const saved<Op, "other.sizes", "other.dtype", "alpha">& s) {
    const Scalar& a = s.get<"alpha">();
    const Scalar minus = a.is_complex() ? Scalar(-std::conj(a.to_complex_double())) : Scalar(-a.to_double());
    return fx::r_to_c(s.get<"other.dtype">(), fx::sum_to(fx::mul(g, minus), s.get<"other.sizes">()));
  }
};
template <class Op>
struct scalar_first_d {  // add.Scalar, sub.Scalar: d/dself = grad (its real part for a real self)
  static Tensor self(const Tensor& g, const saved<Op, "self.dtype">& s) { return fx::r_to_c(s.template get<"self.dtype">(), g); }
};
struct mul_d {
  using Op = k::mul::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(fx::mul(g, fx::conj(s.get<"other">())), s.get<"self.sizes">()));
  }
  static Tensor other(const Tensor& g, const saved<Op, "self", "other.sizes", "other.dtype">& s) {
    return fx::r_to_c(s.get<"other.dtype">(), fx::sum_to(fx::mul(g, fx::conj(s.get<"self">())), s.get<"other.sizes">()));
  }
};
struct mul_scalar_d {
  using Op = k::mul_scalar::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::mul(g, fx::conj(s.get<"other">())));
  }
};
struct div_d {
  using Op = k::div::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(fx::div(g, fx::conj(s.get<"other">())), s.get<"self.sizes">()));
  }
  static Tensor other(const Tensor& g, const saved<Op, "self", "other", "other.sizes", "other.dtype">& s) {
    const Tensor d = fx::div_other(g, s.get<"self">(), s.get<"other">());
    return fx::r_to_c(s.get<"other.dtype">(), fx::sum_to(d, s.get<"other.sizes">()));
  }
};
struct div_scalar_d {
  using Op = k::div_scalar::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), call<k::div_scalar::functional>(g, fx::conj(s.get<"other">())));
  }
};
struct neg_d {
  static Tensor self(const Tensor& g) { return fx::neg(g); }
};
struct exp_d {
  using Op = k::exp::functional;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) { return fx::mul(g, fx::conj(s.get<"result">())); }
};
struct log_d {
  using Op = k::log::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self">& s) { return fx::div(g, fx::conj(s.get<"self">())); }
};
struct tanh_d {  // grad * conj(1 - result^2)
  using Op = k::tanh::functional;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) {
    const Tensor r = fx::conj(s.get<"result">());
    return fx::sub(g, fx::mul(g, fx::mul(r, r)));
  }
};
struct sigmoid_d {  // grad * conj(result * (1 - result))
  using Op = k::sigmoid::functional;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) {
    const Tensor r = fx::conj(s.get<"result">());
    const Tensor gr = fx::mul(g, r);
    return fx::sub(gr, fx::mul(gr, r));
  }
};
struct relu_d {  // grad where result > 0
  using Op = k::relu;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) {
    return fx::mul(g, call<k::gt_scalar::functional>(s.get<"result">(), Scalar(0)));
  }
};
struct pow_scalar_d {  // grad * conj(exponent * self^(exponent - 1)); zero for exponent 0
  using Op = k::pow_scalar;
  static Tensor self(const Tensor& g, const saved<Op, "self", "exponent">& s) {
    const Scalar& e = s.get<"exponent">();
    const Tensor self = s.get<"self">();
    if (e.equal(0)) return fx::mul(g, Scalar(0.0));
    const Scalar e1 = e.is_complex()          ? Scalar(e.to_complex_double() - 1.0)
                      : e.is_floating_point() ? Scalar(e.to_double() - 1)
                                              : Scalar(e.to_long() - 1);
    return fx::mul(fx::mul(g, fx::conj(e)), fx::conj(call<k::pow_scalar>(self, e1)));
  }
};
// (sum and mean with a complex dtype= of a real input: the real part, as PyTorch's engine casts it)
struct sum_d {
  using Op = k::sum;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::expand(g, s.get<"self.sizes">()));
  }
};
struct sum_dim_d {
  using Op = k::sum_dim;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype", "dim", "keepdim">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const auto dims = fx::reduced_dims(s.get<"dim">(), static_cast<int64_t>(sizes.size()));
    return fx::r_to_c(s.get<"self.dtype">(), fx::unreduce(g, sizes, dims, s.get<"keepdim">()));
  }
};
struct mean_d {
  using Op = k::mean;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    int64_t n = 1;
    for (int64_t v : sizes) n *= v;
    return fx::r_to_c(s.get<"self.dtype">(), call<k::div_scalar::functional>(fx::expand(g, sizes), Scalar(n)));
  }
};
struct mean_dim_d {
  using Op = k::mean_dim;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype", "dim", "keepdim">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const auto dims = fx::reduced_dims(s.get<"dim">(), static_cast<int64_t>(sizes.size()));
    const Tensor e = fx::unreduce(g, sizes, dims, s.get<"keepdim">());
    return fx::r_to_c(s.get<"self.dtype">(), call<k::div_scalar::functional>(e, Scalar(fx::count(sizes, dims))));
  }
};
// the products: the other factor's conjugate transpose (PyTorch's mm_mat1_backward, ...)
inline Tensor mH(const Tensor& a) { return fx::conj(fx::mT(a)); }
struct mm_d {
  using Op = k::mm;
  static Tensor self(const Tensor& g, const saved<Op, "mat2">& s) { return call<k::mm>(g, mH(s.get<"mat2">())); }
  static Tensor mat2(const Tensor& g, const saved<Op, "self">& s) { return call<k::mm>(mH(s.get<"self">()), g); }
};
struct bmm_d {
  using Op = k::bmm;
  static Tensor self(const Tensor& g, const saved<Op, "mat2">& s) { return call<k::bmm>(g, mH(s.get<"mat2">())); }
  static Tensor mat2(const Tensor& g, const saved<Op, "self">& s) { return call<k::bmm>(mH(s.get<"self">()), g); }
};
struct addmm_d {
  using Op = k::addmm::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype", "beta">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(fx::mul(g, fx::conj(s.get<"beta">())), s.get<"self.sizes">()));
  }
  static Tensor mat1(const Tensor& g, const saved<Op, "mat2", "alpha">& s) {
    return fx::mul(call<k::mm>(g, mH(s.get<"mat2">())), fx::conj(s.get<"alpha">()));
  }
  static Tensor mat2(const Tensor& g, const saved<Op, "mat1", "alpha">& s) {
    return fx::mul(call<k::mm>(mH(s.get<"mat1">()), g), fx::conj(s.get<"alpha">()));
  }
};
struct baddbmm_d {
  using Op = k::baddbmm::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.dtype", "beta">& s) {
    return fx::r_to_c(s.get<"self.dtype">(), fx::sum_to(fx::mul(g, fx::conj(s.get<"beta">())), s.get<"self.sizes">()));
  }
  static Tensor batch1(const Tensor& g, const saved<Op, "batch2", "alpha">& s) {
    return fx::mul(call<k::bmm>(g, mH(s.get<"batch2">())), fx::conj(s.get<"alpha">()));
  }
  static Tensor batch2(const Tensor& g, const saved<Op, "batch1", "alpha">& s) {
    return fx::mul(call<k::bmm>(mH(s.get<"batch1">()), g), fx::conj(s.get<"alpha">()));
  }
};
struct dot_d {  // grad is 0-dim
  using Op = k::dot;
  static Tensor self(const Tensor& g, const saved<Op, "tensor">& s) { return fx::mul(g, fx::conj(s.get<"tensor">())); }
  static Tensor tensor(const Tensor& g, const saved<Op, "self">& s) { return fx::mul(g, fx::conj(s.get<"self">())); }
};
struct mv_d {
  using Op = k::mv;
  static Tensor self(const Tensor& g, const saved<Op, "vec">& s) {  // the outer product grad vec^H
    return call<k::mm>(call<k::unsqueeze>(g, int64_t{1}), call<k::unsqueeze>(fx::conj(s.get<"vec">()), int64_t{0}));
  }
  static Tensor vec(const Tensor& g, const saved<Op, "self">& s) { return call<k::mv>(fx::conj(call<k::t>(s.get<"self">())), g); }
};
// matmul: 1-D operands are promoted (a row for self, a column for other) and
// the gradient given those dims back, then the batch broadcast is summed away.
struct matmul_d {
  using Op = k::matmul;
  using S = saved<Op, "self", "other">;
  static std::array<Tensor, 2> both(const Tensor& g, const S& s) {
    const Tensor self = s.get<"self">(), other = s.get<"other">();
    const Tensor s2 = self.dim() == 1 ? call<k::unsqueeze>(self, 0) : self;
    const Tensor o2 = other.dim() == 1 ? call<k::unsqueeze>(other, 1) : other;
    std::vector<int64_t> gs(g.sizes().begin(), g.sizes().end());
    if (other.dim() == 1) gs.push_back(1);
    if (self.dim() == 1) gs.insert(gs.end() - 1, 1);
    const Tensor g2 = fx::reshape(g, IntArrayRef(gs.data(), gs.size()));
    Tensor gself = fx::reshape(fx::sum_to(call<k::matmul>(g2, mH(o2)), s2.sizes()), self.sizes());
    Tensor gother = fx::reshape(fx::sum_to(call<k::matmul>(mH(s2), g2), o2.sizes()), other.sizes());
    return {gself, gother};
  }
};
struct t_d {
  static Tensor self(const Tensor& g) { return call<k::t>(g); }
};
struct transpose_d {
  using Op = k::transpose;
  static Tensor self(const Tensor& g, const saved<Op, "dim0", "dim1">& s) {
    return fx::transpose(g, s.get<"dim0">(), s.get<"dim1">());
  }
};
template <class O>
struct restore_shape_d {  // view, expand's sum_to, squeeze, unsqueeze: back to self's sizes
  static Tensor reshape(const Tensor& g, const saved<O, "self.sizes">& s) {
    return fx::reshape(g, s.template get<"self.sizes">());
  }
  static Tensor sum_to(const Tensor& g, const saved<O, "self.sizes">& s) {
    return fx::sum_to(g, s.template get<"self.sizes">());
  }
};
struct copy_d {  // copy_ (PyTorch's CopyBackwards): self was overwritten; src is broadcast and converted
  using Op = k::copy_;
  static Tensor self(const Tensor& g) { return fx::zeros_like_sizes(g.sizes(), g); }
  static Tensor src(const Tensor& g, const saved<Op, "src.sizes", "src.dtype">& s) {
    Tensor r = fx::sum_to(g, s.get<"src.sizes">());
    return r.dtype() == s.get<"src.dtype">() ? r : call<k::to_dtype>(r, s.get<"src.dtype">(), false, false, std::nullopt);
  }
};
struct permute_d {
  using Op = k::permute;
  static Tensor self(const Tensor& g, const saved<Op, "dims">& s) {
    const std::vector<int64_t>& dims = s.get<"dims">();
    std::vector<int64_t> inverse(dims.size());
    for (std::size_t i = 0; i < dims.size(); ++i)
      inverse[static_cast<std::size_t>(opd::detail::wrap_dim(dims[i], static_cast<int64_t>(dims.size())))] = static_cast<int64_t>(i);
    return call<k::permute>(g, std::span<const int64_t>(inverse));
  }
};
struct identity_d {
  static Tensor self(const Tensor& g) { return g; }
};
// _to_copy: the gradient converted back to self's dtype and device (PyTorch's _to_copy_backward)
struct to_copy_d {
  using Op = k::to_copy;
  static Tensor self(const Tensor& g, const saved<Op, "self.dtype", "self.device">& s) {
    const ScalarType dtype = s.get<"self.dtype">();
    const Device device = s.get<"self.device">();
    if (g.dtype() == dtype && g.device() == device) return g;
    return call<k::to_copy>(g, arg<"dtype"> = dtype, arg<"device"> = device);
  }
};
// softmax: result * (grad - sum(grad * result, dim, keepdim))
struct softmax_d {
  static Tensor backward(const Tensor& g, const Tensor& r, int64_t dim) {
    const Tensor gr = fx::mul(g, r);
    return fx::sub(gr, fx::mul(r, fx::sum_dims(gr, {dim}, true)));
  }
  static Tensor self(const Tensor& g, const saved<k::softmax, "result", "dim">& s) {
    return backward(g, s.get<"result">(), s.get<"dim">());
  }
  static Tensor self_(const Tensor& g, const saved<k::internal_softmax, "result", "dim">& s) {
    return backward(g, s.get<"result">(), s.get<"dim">());
  }
};
// log_softmax: grad - exp(result) * sum(grad, dim, keepdim)
struct log_softmax_d {
  static Tensor backward(const Tensor& g, const Tensor& r, int64_t dim) {
    return fx::sub(g, fx::mul(call<k::exp::functional>(r), fx::sum_dims(g, {dim}, true)));
  }
  static Tensor self(const Tensor& g, const saved<k::log_softmax, "result", "dim">& s) {
    return backward(g, s.get<"result">(), s.get<"dim">());
  }
  static Tensor self_(const Tensor& g, const saved<k::internal_log_softmax, "result", "dim">& s) {
    return backward(g, s.get<"result">(), s.get<"dim">());
  }
};


// ---- operators with several outputs: the indices are not differentiable ----
template <class O>
struct select_d {  // max.dim, min.dim: one value per reduced row
  static Tensor self(const Tensor& g, const saved<O, "self.sizes", "dim", "keepdim", "indices">& s) {
    return fx::select_backward(g, s.template get<"dim">(), s.template get<"indices">(), s.template get<"self.sizes">(),
                               s.template get<"keepdim">());
  }
};
template <class O>
struct permuted_d {  // sort, topk: values taken along dim at the indices
  static Tensor self(const Tensor& g, const saved<O, "self.sizes", "dim", "indices">& s) {
    return fx::select_backward(g, s.template get<"dim">(), s.template get<"indices">(), s.template get<"self.sizes">(), true);
  }
};
struct gather_d {
  using Op = k::gather;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "dim", "index">& s) {
    return call<k::scatter_add>(fx::zeros_like_sizes(s.get<"self.sizes">(), g), s.get<"dim">(), s.get<"index">(), g);
  }
};
struct scatter_add_d {
  using Op = k::scatter_add;
  static Tensor self(const Tensor& g) { return g; }
  static Tensor src(const Tensor& g, const saved<Op, "dim", "index">& s) {
    return call<k::gather>(g, s.get<"dim">(), s.get<"index">());
  }
};
// native_layer_norm: the library's native_layer_norm_backward kernel; under
// create_graph, the same gradient written with differentiable operators (the
// statistics recomputed from the input, so that they are differentiated too).
struct layer_norm_d {
  using Op = k::native_layer_norm;
  using S = saved<Op, "input", "normalized_shape", "result1", "result2", "weight", "bias", "eps">;
  static std::array<Tensor, 3> all(const Tensor& g, const S& s) {
    const Tensor x = s.get<"input">(), w = s.get<"weight">(), b = s.get<"bias">();
    const std::vector<int64_t>& shape = s.get<"normalized_shape">();
    if (!GradMode::is_enabled()) {
      auto [gx, gw, gb] = call<k::native_layer_norm_backward>(g, x, fx::ints(shape), s.get<"result1">(), s.get<"result2">(),
                                                              fx::opt(w), fx::opt(b),
                                                              std::array<bool, 3>{true, w.defined(), b.defined()});
      return {gx, gw, gb};
    }
    std::vector<int64_t> dims;
    for (int64_t d = x.dim() - static_cast<int64_t>(shape.size()); d < x.dim(); ++d) dims.push_back(d);
    const auto [xhat, invstd] = fx::normalize(x, dims, s.get<"eps">());
    const Tensor gh = w.defined() ? fx::mul(g, w) : g;
    return {fx::normalized_input_grad(gh, xhat, invstd, dims), w.defined() ? fx::sum_to(fx::mul(g, xhat), w.sizes()) : Tensor(),
            b.defined() ? fx::sum_to(g, b.sizes()) : Tensor()};
  }
};
// native_layer_norm_backward (layer norm's double backward, PyTorch 1.13's layer_norm_double_backward):
// the gradients of <ggI, gI> + <ggW, gW> + <ggB, gB> by grad_out, input and weight, per row of N
// normalized elements. The statistics count as functions of the input (d mean / dx = 1/N, d rstd / dx =
// -rstd^3 (x - mean) / N) but are read from the saved mean and rstd, so the input enters only through
// d = x - mean (1.13's form: its own derivatives, the third order, follow from it). With v = grad_out *
// weight: gI = rstd/N (N v - sum v - d rstd^2 sum(v d)).
struct layer_norm_backward_d {
  using Op = k::native_layer_norm_backward;
  using S = saved<Op, "grad_out", "input", "normalized_shape", "mean", "rstd", "weight">;
  static std::array<Tensor, 3> all(const variable_list& grads, const S& s) {
    const Tensor &ggi_in = grads[0], &ggw_in = grads[1], &ggb_in = grads[2];
    const Tensor x = s.get<"input">(), w = s.get<"weight">();
    const std::size_t outer = x.sizes().size() - s.get<"normalized_shape">().size();
    int64_t m = 1, n = 1;
    for (std::size_t i = 0; i < x.sizes().size(); ++i) (i < outer ? m : n) *= x.sizes()[i];
    const int64_t mn[2] = {m, n}, m1[2] = {m, 1}, n1[2] = {1, n};
    auto rows = [&](const Tensor& t, const int64_t (&shape)[2]) { return fx::reshape(t, IntArrayRef(shape, 2)); };
    auto row_sum = [](const Tensor& t) { return fx::sum_dims(t, {1}, true); };
    auto plus = [](const Tensor& a, const Tensor& b) { return a.defined() ? fx::add(a, b) : b; };
    const double inv_n = 1.0 / static_cast<double>(n);
    const Tensor d = fx::sub(rows(x, mn), rows(s.get<"mean">(), m1));
    const Tensor r1 = rows(s.get<"rstd">(), m1), r2 = fx::mul(r1, r1), r3 = fx::mul(r2, r1);
    const Tensor go = rows(s.get<"grad_out">(), mn);
    const Tensor gamma = w.defined() ? rows(w, n1) : Tensor();
    // the first backward's input gradient for v = u * gamma, before the factor gamma
    auto input_grad = [&](const Tensor& u) {
      const Tensor centered = fx::sub(fx::sub(fx::mul(u, Scalar(static_cast<double>(n))), row_sum(u)),
                                      fx::mul(fx::mul(d, r2), row_sum(fx::mul(u, d))));
      return fx::mul(fx::mul(r1, Scalar(inv_n)), centered);
    };
    Tensor gx, ggo, gw;
    if (ggi_in.defined()) {
      const Tensor ggi = rows(ggi_in, mn), v = gamma.defined() ? fx::mul(go, gamma) : go;
      const Tensor sv = row_sum(v), svd = row_sum(fx::mul(v, d)), sg = row_sum(ggi), sgd = row_sum(fx::mul(ggi, d));
      // through rstd (the d rstd^3 terms) and through mean (the sums' 1/N terms)
      const Tensor inner = fx::add(fx::sub(fx::mul(fx::mul(sg, sv), Scalar(inv_n)), row_sum(fx::mul(ggi, v))),
                                   fx::mul(fx::mul(fx::mul(r2, svd), sgd), Scalar(3 * inv_n)));
      const Tensor t0 = fx::mul(fx::mul(fx::mul(d, r3), inner), Scalar(inv_n));
      const Tensor t1 = fx::mul(fx::mul(fx::mul(sgd, r3), Scalar(inv_n)), fx::sub(fx::mul(sv, Scalar(inv_n)), v));
      const Tensor t2 = fx::mul(fx::mul(fx::mul(svd, r3), Scalar(inv_n)), fx::sub(fx::mul(sg, Scalar(inv_n)), ggi));
      gx = fx::add(fx::add(t0, t1), t2);
      const Tensor u = input_grad(ggi);
      ggo = gamma.defined() ? fx::mul(u, gamma) : u;
      if (gamma.defined()) gw = fx::reshape(fx::sum_dims(fx::mul(go, u), {0}, false), w.sizes());
    }
    if (ggw_in.defined() && gamma.defined()) {  // gW = sum over rows of grad_out * d * rstd
      const Tensor q = fx::mul(go, rows(ggw_in, n1));
      const Tensor through_x = fx::sub(fx::sub(fx::mul(q, r1), fx::mul(row_sum(fx::mul(q, r1)), Scalar(inv_n))),
                                       fx::mul(fx::mul(fx::mul(d, r3), row_sum(fx::mul(q, d))), Scalar(inv_n)));
      gx = plus(gx, through_x);
      ggo = plus(ggo, fx::mul(fx::mul(rows(ggw_in, n1), d), r1));
    }
    if (ggb_in.defined()) ggo = plus(ggo, fx::expand(rows(ggb_in, n1), IntArrayRef(mn, 2)));  // gB = sum of grad_out
    return {ggo.defined() ? fx::reshape(ggo, x.sizes()) : ggo, gx.defined() ? fx::reshape(gx, x.sizes()) : gx, gw};
  }
  // 1.13: not_implemented
  static Tensor mean(const Tensor&) {
    throw NotImplementedError("the derivative for 'native_layer_norm_backward mean' is not implemented.");
  }
  static Tensor rstd(const Tensor&) {
    throw NotImplementedError("the derivative for 'native_layer_norm_backward rstd' is not implemented.");
  }
  static Tensor bias(const Tensor&) { return Tensor(); }  // 1.13: bias does not enter the gradients
};
// native_group_norm: the channels in `group` groups, each normalized over its channels and positions;
// as layer_norm: the library's backward kernel, under create_graph the differentiable form.
struct group_norm_d {
  using Op = k::native_group_norm;
  using S = saved<Op, "input", "weight", "N", "C", "HxW", "group", "eps", "result1", "result2">;
  static std::array<Tensor, 3> all(const Tensor& g, const S& s) {
    const Tensor x = s.get<"input">(), w = s.get<"weight">();
    const int64_t n = s.get<"N">(), c = s.get<"C">(), groups = s.get<"group">();
    if (!GradMode::is_enabled()) {
      auto [gx, gw, gb] = call<k::native_group_norm_backward>(g, x, s.get<"result1">(), s.get<"result2">(), fx::opt(w), n, c,
                                                              s.get<"HxW">(), groups, std::array<bool, 3>{true, w.defined(), true});
      return {gx, gw, gb};
    }
    const int64_t grouped[3] = {n, groups, -1};
    const auto [xhat, invstd] = fx::normalize(fx::reshape(x, IntArrayRef(grouped, 3)), {2}, s.get<"eps">());
    std::vector<int64_t> channel(static_cast<std::size_t>(x.dim()), 1), dims{0};
    channel[1] = c;
    for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
    const Tensor gh = w.defined() ? fx::mul(g, fx::reshape(w, IntArrayRef(channel.data(), channel.size()))) : g;
    const Tensor gx = fx::normalized_input_grad(fx::reshape(gh, IntArrayRef(grouped, 3)), xhat, invstd, {2});
    return {fx::reshape(gx, x.sizes()), fx::sum_dims(fx::mul(g, fx::reshape(xhat, x.sizes())), dims, false),
            fx::sum_dims(g, dims, false)};
  }
};
// native_batch_norm: per channel (dim 1); training statistics from the input,
// evaluation ones from running_mean/running_var (not differentiable).
struct batch_norm_d {
  using Op = k::native_batch_norm;
  using S = saved<Op, "input", "weight", "running_mean", "running_var", "training", "eps">;
  static std::array<Tensor, 3> all(const Tensor& g, const S& s) {
    const Tensor x = s.get<"input">(), w = s.get<"weight">();
    std::vector<int64_t> dims{0}, channel(static_cast<std::size_t>(x.dim()), 1);
    for (int64_t d = 2; d < x.dim(); ++d) dims.push_back(d);
    channel[1] = x.size(1);
    const IntArrayRef cs(channel.data(), channel.size());
    Tensor xhat, invstd;
    const bool training = s.get<"training">();
    if (training) {
      const auto r = fx::normalize(x, dims, s.get<"eps">());
      xhat = r[0];
      invstd = r[1];
    } else {
      invstd = fx::reshape(call<k::pow_scalar>(fx::add_scalar(s.get<"running_var">(), s.get<"eps">()), Scalar(-0.5)), cs);
      xhat = fx::mul(fx::sub(x, fx::reshape(s.get<"running_mean">(), cs)), invstd);
    }
    const Tensor gh = w.defined() ? fx::mul(g, fx::reshape(w, cs)) : g;
    const Tensor gx = training ? fx::normalized_input_grad(gh, xhat, invstd, dims) : fx::mul(gh, invstd);
    return {gx, w.defined() ? fx::sum_dims(fx::mul(g, xhat), dims, false) : Tensor(), fx::sum_dims(g, dims, false)};
  }
};
// convolution (any dimension, transposed or not, grouped): the input's
// gradient is the convolution transposed to the forward one; the weight's a
// convolution of the input with the output gradient (batch and channels
// swapped; stride and dilation trade places), cut to the kernel's size.
struct convolution_d {
  using Op = k::convolution;
  static Tensor conv(const Tensor& x, const Tensor& w, IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                     bool transposed, const std::vector<int64_t>& output_padding, int64_t groups) {
    return call<k::convolution>(x, w, std::nullopt, fx::ints(stride), fx::ints(padding), fx::ints(dilation), transposed,
                                fx::ints(output_padding), groups);
  }
  // The stride, padding and dilation of an n-d convolution, one entry per spatial dimension.
  struct geometry {
    std::vector<int64_t> stride, padding, dilation;
    geometry(std::size_t n, const std::vector<int64_t>& st, const std::vector<int64_t>& pad, const std::vector<int64_t>& dil)
        : stride(n), padding(n), dilation(n) {
      auto at = [](const std::vector<int64_t>& v, std::size_t i) { return v.size() == 1 ? v[0] : v[i]; };
      for (std::size_t i = 0; i < n; ++i) {
        stride[i] = at(st, i);
        padding[i] = at(pad, i);
        dilation[i] = at(dil, i);
      }
    }
  };
  // The gradient of convolution(x, w) with respect to x (of sizes `in`) for the output gradient g.
  static Tensor input_grad(const Tensor& g, IntArrayRef in, const Tensor& w, const geometry& c, bool transposed, int64_t groups) {
    const std::size_t n = in.size() - 2;
    std::vector<int64_t> out_pad(n, 0);
    if (transposed) return conv(g, w, c.stride, c.padding, c.dilation, false, out_pad, groups);
    for (std::size_t i = 0; i < n; ++i) {  // the rows the forward stride skipped at the end
      const int64_t k = w.size(static_cast<int64_t>(i) + 2), o = g.size(static_cast<int64_t>(i) + 2);
      out_pad[i] = in[i + 2] - ((o - 1) * c.stride[i] - 2 * c.padding[i] + c.dilation[i] * (k - 1) + 1);
    }
    return conv(g, w, c.stride, c.padding, c.dilation, true, out_pad, groups);
  }
  static Tensor input(const Tensor& g, const saved<Op, "input.sizes", "weight", "stride", "padding", "dilation",
                                                  "transposed", "groups">& s) {
    const IntArrayRef in = s.get<"input.sizes">();
    return input_grad(g, in, s.get<"weight">(), geometry(in.size() - 2, s.get<"stride">(), s.get<"padding">(), s.get<"dilation">()),
                      s.get<"transposed">(), s.get<"groups">());
  }
  // The gradient of convolution(x, w) with respect to w (of sizes `ws`) for the output gradient g.
  static Tensor weight_grad(const Tensor& g, const Tensor& x, IntArrayRef ws, const geometry& c, bool transposed, int64_t groups) {
    const std::size_t n = ws.size() - 2;
    const std::vector<int64_t> zero(n, 0);
    // (not transposed) gw[o, c, k] = sum_{n, p} g[n, o, p] x[n, c, p * stride + k * dilation - padding]
    // (transposed)     gw[c, o, k] = sum_{n, p} x[n, c, p] g[n, o, p * stride + k * dilation - padding]
    // One convolution, grouped: batch = a's channels of a group, channels = (group, sample).
    const Tensor& a = transposed ? g : x;  // the operand read at the strided positions
    const Tensor& b = transposed ? x : g;
    Tensor ag, bg;
    if (groups == 1) {
      ag = fx::transpose(a, 0, 1);
      bg = fx::transpose(b, 0, 1);
    } else {
      auto split = [&](const Tensor& t, bool groups_first) {  // (N, G*C, *s) -> (C, G*N, *s) or (G*C, N, *s)
        std::vector<int64_t> sz{t.size(0), groups, t.size(1) / groups}, perm{2, 1, 0};
        if (groups_first) perm = {1, 2, 0};
        for (int64_t d = 2; d < t.dim(); ++d) {
          sz.push_back(t.size(d));
          perm.push_back(d + 1);
        }
        const Tensor p = call<k::permute>(fx::reshape(t, IntArrayRef(sz.data(), sz.size())), fx::ints(perm));
        std::vector<int64_t> out(sz.begin() + 3, sz.end());
        const int64_t lead[2] = {groups_first ? groups * sz[2] : sz[2], groups_first ? sz[0] : groups * sz[0]};
        out.insert(out.begin(), lead, lead + 2);
        return fx::reshape(p, IntArrayRef(out.data(), out.size()));
      };
      ag = split(a, false);
      bg = split(b, true);
    }
    Tensor r = fx::transpose(conv(ag, bg, c.dilation, c.padding, c.stride, false, zero, groups), 0, 1);
    for (std::size_t i = 0; i < n; ++i) {  // the kernel's extent (the last rows the stride skipped)
      const int64_t d = static_cast<int64_t>(i) + 2;
      if (r.size(d) != ws[i + 2]) r = call<k::narrow>(r, d, int64_t{0}, ws[i + 2]);
    }
    return r;
  }
  static Tensor weight(const Tensor& g, const saved<Op, "input", "weight.sizes", "stride", "padding", "dilation",
                                                   "transposed", "groups">& s) {
    const IntArrayRef ws = s.get<"weight.sizes">();
    return weight_grad(g, s.get<"input">(), ws, geometry(ws.size() - 2, s.get<"stride">(), s.get<"padding">(), s.get<"dilation">()),
                       s.get<"transposed">(), s.get<"groups">());
  }
  static Tensor bias(const Tensor& g) {
    std::vector<int64_t> dims{0};
    for (int64_t d = 2; d < g.dim(); ++d) dims.push_back(d);
    return fx::sum_dims(g, dims, false);
  }
};
// convolution_backward (convolution's double backward; PyTorch's _convolution_double_backward):
// its outputs (gI, gW, gB) are linear in grad_output and bilinear in (grad_output, weight) and
// (input, grad_output), so each input's gradient is a convolution or one of convolution's own gradients
// of the outputs' gradients (ggI, ggW, ggB; an undefined one contributes nothing).
struct convolution_backward_d {
  using Op = k::convolution_backward;
  using S = saved<Op, "grad_output", "input", "weight", "stride", "padding", "dilation", "transposed", "output_padding", "groups">;
  static std::array<Tensor, 3> all(const variable_list& grads, const S& s) {
    const Tensor &ggi = grads[0], &ggw = grads[1], &ggb = grads[2];
    const Tensor go = s.get<"grad_output">(), x = s.get<"input">(), w = s.get<"weight">();
    const bool transposed = s.get<"transposed">();
    const int64_t groups = s.get<"groups">();
    const convolution_d::geometry c(static_cast<std::size_t>(x.dim()) - 2, s.get<"stride">(), s.get<"padding">(), s.get<"dilation">());
    auto conv = [&](const Tensor& a, const Tensor& b) {
      return convolution_d::conv(a, b, c.stride, c.padding, c.dilation, transposed, s.get<"output_padding">(), groups);
    };
    auto plus = [](const Tensor& a, const Tensor& b) { return a.defined() ? fx::add(a, b) : b; };
    // grad_output: d<ggI, gI>/dgo = conv(ggI, w); d<ggW, gW>/dgo = conv(x, ggW); d<ggB, gB>/dgo = ggB per channel
    Tensor ggo;
    if (ggi.defined()) ggo = conv(ggi, w);
    if (ggw.defined()) ggo = plus(ggo, conv(x, ggw));
    if (ggb.defined()) {
      std::vector<int64_t> shape(static_cast<std::size_t>(go.dim()), 1);
      shape[1] = go.size(1);
      const Tensor b = fx::reshape(ggb, IntArrayRef(shape.data(), shape.size()));
      ggo = ggo.defined() ? fx::add(ggo, b) : fx::add(fx::zeros_like_sizes(go.sizes(), go), b);
    }
    // input: gW's adjoint in x; weight: gI's adjoint in w
    return {ggo, ggw.defined() ? convolution_d::input_grad(go, x.sizes(), ggw, c, transposed, groups) : Tensor(),
            ggi.defined() ? convolution_d::weight_grad(go, ggi, w.sizes(), c, transposed, groups) : Tensor()};
  }
};
// narrow / slice: the gradient placed back into zeros of self's shape
struct slice_d {
  static Tensor narrow(const Tensor& g, const saved<k::narrow, "self.sizes", "dim", "start", "length">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const int64_t dim = opd::detail::wrap_dim(s.get<"dim">(), static_cast<int64_t>(sizes.size()));
    int64_t start = s.get<"start">();
    if (start < 0) start += sizes[static_cast<std::size_t>(dim)];
    return call<k::slice_scatter>(fx::zeros_like_sizes(sizes, g), g, dim, std::optional<int64_t>(start),
                                  std::optional<int64_t>(start + s.get<"length">()), int64_t{1});
  }
  static Tensor slice(const Tensor& g, const saved<k::slice, "self.sizes", "dim", "start", "end", "step">& s) {
    return call<k::slice_scatter>(fx::zeros_like_sizes(s.get<"self.sizes">(), g), g, s.get<"dim">(), s.get<"start">(),
                                  s.get<"end">(), s.get<"step">());
  }
};
struct slice_scatter_d {
  using Op = k::slice_scatter;
  static Tensor self(const Tensor& g, const saved<Op, "src.sizes", "dim", "start", "end", "step">& s) {
    return call<k::slice_scatter>(g, fx::zeros_like_sizes(s.get<"src.sizes">(), g), s.get<"dim">(), s.get<"start">(),
                                  s.get<"end">(), s.get<"step">());
  }
  static Tensor src(const Tensor& g, const saved<Op, "dim", "start", "end", "step", "src.dtype">& s) {
    return fx::r_to_c(s.get<"src.dtype">(), call<k::slice>(g, s.get<"dim">(), s.get<"start">(), s.get<"end">(), s.get<"step">()));
  }
};
struct max_pool_d {
  using Op = k::max_pool2d_with_indices;
  static Tensor self(const Tensor& g, const saved<Op, "self", "kernel_size", "stride", "padding", "dilation",
                                                 "ceil_mode", "result1">& s) {
    return call<k::max_pool2d_with_indices_backward>(g, s.get<"self">(), fx::ints(s.get<"kernel_size">()),
                                                     fx::ints(s.get<"stride">()), fx::ints(s.get<"padding">()),
                                                     fx::ints(s.get<"dilation">()), s.get<"ceil_mode">(), s.get<"result1">());
  }
  // max_pool2d (a kernel of its own): the indices recomputed
  using P = k::max_pool2d;
  static Tensor plain(const Tensor& g, const saved<P, "self", "kernel_size", "stride", "padding", "dilation",
                                                  "ceil_mode">& s) {
    const Tensor self = s.get<"self">();
    auto args = std::make_tuple(fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"stride">()), fx::ints(s.get<"padding">()),
                                fx::ints(s.get<"dilation">()), s.get<"ceil_mode">());
    const Tensor indices = std::get<1>(std::apply(
        [&](auto... a) { return call<k::max_pool2d_with_indices>(detach(self), a...); }, args));
    return std::apply([&](auto... a) { return call<k::max_pool2d_with_indices_backward>(g, self, a..., indices); }, args);
  }
  // its backward: linear in grad_output, which it gathers at the indices
  using B = k::max_pool2d_with_indices_backward;
  static Tensor grad_output(const Tensor& g, const saved<B, "indices">& s) {
    const Tensor idx = s.get<"indices">();
    std::vector<int64_t> gs(g.sizes().begin(), g.sizes().end() - 2), is(idx.sizes().begin(), idx.sizes().end() - 2);
    gs.push_back(g.size(-2) * g.size(-1));
    is.push_back(idx.size(-2) * idx.size(-1));
    const Tensor r = call<k::gather>(fx::reshape(g, IntArrayRef(gs.data(), gs.size())), int64_t{-1},
                                     fx::reshape(idx, IntArrayRef(is.data(), is.size())));
    return fx::reshape(r, idx.sizes());
  }
};
struct avg_pool_d {
  using Op = k::avg_pool2d;
  static Tensor self(const Tensor& g, const saved<Op, "self", "kernel_size", "stride", "padding", "ceil_mode",
                                                 "count_include_pad", "divisor_override">& s) {
    return call<k::avg_pool2d_backward>(g, s.get<"self">(), fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"stride">()),
                                        fx::ints(s.get<"padding">()), s.get<"ceil_mode">(), s.get<"count_include_pad">(),
                                        s.get<"divisor_override">());
  }
  using B = k::avg_pool2d_backward;  // linear in grad_output: its adjoint is the pool itself
  static Tensor grad_output(const Tensor& g, const saved<B, "kernel_size", "stride", "padding", "ceil_mode",
                                                        "count_include_pad", "divisor_override">& s) {
    return call<k::avg_pool2d>(g, fx::ints(s.get<"kernel_size">()), fx::ints(s.get<"stride">()), fx::ints(s.get<"padding">()),
                               s.get<"ceil_mode">(), s.get<"count_include_pad">(), s.get<"divisor_override">());
  }
};
template <class O>
struct adaptive_pool_d {
  static Tensor self(const Tensor& g, const saved<O, "self">& s) {
    return call<k::_adaptive_avg_pool2d_backward>(g, s.template get<"self">());
  }
};
struct adaptive_pool_backward_d {
  using B = k::_adaptive_avg_pool2d_backward;
  static Tensor grad_output(const Tensor& g, const saved<B, "grad_output.sizes">& s) {
    const IntArrayRef gs = s.get<"grad_output.sizes">();
    return call<k::_adaptive_avg_pool2d>(g, fx::ints(gs.slice(gs.size() - 2)));
  }
};
// linear: y = x w^T + b over any leading dims of x (complex: the other factor conjugated)
struct linear_d {
  using Op = k::linear;
  static Tensor input(const Tensor& g, const saved<Op, "weight">& s) { return call<k::matmul>(g, fx::conj(s.get<"weight">())); }
  static Tensor weight(const Tensor& g, const saved<Op, "input">& s) {
    const Tensor x = fx::conj(s.get<"input">());
    if (x.dim() == 1) return call<k::matmul>(call<k::unsqueeze>(g, int64_t{1}), call<k::unsqueeze>(x, int64_t{0}));
    const int64_t gshape[2] = {-1, g.size(-1)}, xshape[2] = {-1, x.size(-1)};
    return call<k::mm>(call<k::t>(fx::reshape(g, IntArrayRef(gshape, 2))), fx::reshape(x, IntArrayRef(xshape, 2)));
  }
  static Tensor bias(const Tensor& g) {
    if (g.dim() <= 1) return g;
    std::vector<int64_t> dims(static_cast<std::size_t>(g.dim() - 1));
    std::iota(dims.begin(), dims.end(), 0);
    return fx::sum_dims(g, dims, false);
  }
};

}  // namespace formulas_detail


namespace fd = formulas_detail;
namespace kops = kernels::ops;
OPD_AUTOGRAD_DERIVATIVES(kops::add::functional, "AddBackward0", formula<"self", &fd::add_d::self>, formula<"other", &fd::add_d::other>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sub::functional, "SubBackward0", formula<"self", &fd::sub_d::self>, formula<"other", &fd::sub_d::other>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::add_scalar::functional, "AddBackward1", formula<"self", &fd::scalar_first_d<kops::add_scalar::functional>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sub_scalar::functional, "SubBackward1", formula<"self", &fd::scalar_first_d<kops::sub_scalar::functional>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::mul::functional, "MulBackward0", formula<"self", &fd::mul_d::self>, formula<"other", &fd::mul_d::other>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::mul_scalar::functional, "MulBackward1", formula<"self", &fd::mul_scalar_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::div::functional, "DivBackward0", formula<"self", &fd::div_d::self>, formula<"other", &fd::div_d::other>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::div_scalar::functional, "DivBackward1", formula<"self", &fd::div_scalar_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::neg::functional, "NegBackward0", formula<"self", &fd::neg_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::exp::functional, "ExpBackward0", formula<"self", &fd::exp_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::log::functional, "LogBackward0", formula<"self", &fd::log_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::tanh::functional, "TanhBackward0", formula<"self", &fd::tanh_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sigmoid::functional, "SigmoidBackward0", formula<"self", &fd::sigmoid_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::relu, "ReluBackward0", formula<"self", &fd::relu_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::pow_scalar, "PowBackward0", formula<"self", &fd::pow_scalar_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sum, "SumBackward0", formula<"self", &fd::sum_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::sum_dim, "SumBackward1", formula<"self", &fd::sum_dim_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::mean, "MeanBackward0", formula<"self", &fd::mean_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::mean_dim, "MeanBackward1", formula<"self", &fd::mean_dim_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::mm, "MmBackward0", formula<"self", &fd::mm_d::self>, formula<"mat2", &fd::mm_d::mat2>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::bmm, "BmmBackward0", formula<"self", &fd::bmm_d::self>, formula<"mat2", &fd::bmm_d::mat2>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::addmm::functional, "AddmmBackward0", formula<"self", &fd::addmm_d::self>,
                         formula<"mat1", &fd::addmm_d::mat1>, formula<"mat2", &fd::addmm_d::mat2>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::baddbmm::functional, "BaddbmmBackward0", formula<"self", &fd::baddbmm_d::self>,
                         formula<"batch1", &fd::baddbmm_d::batch1>, formula<"batch2", &fd::baddbmm_d::batch2>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::dot, "DotBackward0", formula<"self", &fd::dot_d::self>, formula<"tensor", &fd::dot_d::tensor>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::mv, "MvBackward0", formula<"self", &fd::mv_d::self>, formula<"vec", &fd::mv_d::vec>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::matmul, "MatmulBackward0", formula<"self, other", &fd::matmul_d::both>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::t, "TBackward0", formula<"self", &fd::t_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::transpose, "TransposeBackward0", formula<"self", &fd::transpose_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::view, "ViewBackward0", formula<"self", &fd::restore_shape_d<kops::view>::reshape>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::expand, "ExpandBackward0", formula<"self", &fd::restore_shape_d<kops::expand>::sum_to>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::unsqueeze, "UnsqueezeBackward0", formula<"self", &fd::restore_shape_d<kops::unsqueeze>::reshape>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::squeeze, "SqueezeBackward0", formula<"self", &fd::restore_shape_d<kops::squeeze>::reshape>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::squeeze_dim, "SqueezeBackward1", formula<"self", &fd::restore_shape_d<kops::squeeze_dim>::reshape>, complex_verified);
// Composite views that make their result directly (not through view operators): their own formulas.
OPD_AUTOGRAD_DERIVATIVES(kops::reshape, "ViewBackward0", formula<"self", &fd::restore_shape_d<kops::reshape>::reshape>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::flatten, "ViewBackward0", formula<"self", &fd::restore_shape_d<kops::flatten>::reshape>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::expand_as, "ExpandBackward0", formula<"self", &fd::restore_shape_d<kops::expand_as>::sum_to>,
                         non_differentiable<"other">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::contiguous, "CloneBackward0", formula<"self", &fd::identity_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::unsafe_view, "UnsafeViewBackward0", formula<"self", &fd::restore_shape_d<kops::unsafe_view>::reshape>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::to_copy, "ToCopyBackward0", formula<"self", &fd::to_copy_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::permute, "PermuteBackward0", formula<"self", &fd::permute_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::clone, "CloneBackward0", formula<"self", &fd::identity_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::copy_, "CopyBackwards", formula<"self", &fd::copy_d::self>, formula<"src", &fd::copy_d::src>);
OPD_AUTOGRAD_DERIVATIVES(kops::alias, "AliasBackward0", formula<"self", &fd::identity_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::softmax, "SoftmaxBackward0", formula<"self", &fd::softmax_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::internal_softmax, "SoftmaxBackward0", formula<"self", &fd::softmax_d::self_>);
OPD_AUTOGRAD_DERIVATIVES(kops::log_softmax, "LogSoftmaxBackward0", formula<"self", &fd::log_softmax_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::internal_log_softmax, "LogSoftmaxBackward0", formula<"self", &fd::log_softmax_d::self_>);
// Several outputs; indices, masks and running statistics are not differentiable.
OPD_AUTOGRAD_DERIVATIVES(kops::max_dim, "MaxBackward0", formula<"self", &fd::select_d<kops::max_dim>::self>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::min_dim, "MinBackward0", formula<"self", &fd::select_d<kops::min_dim>::self>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::sort, "SortBackward0", formula<"self", &fd::permuted_d<kops::sort>::self>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::sort_stable, "SortBackward1", formula<"self", &fd::permuted_d<kops::sort_stable>::self>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::topk, "TopkBackward0", formula<"self", &fd::permuted_d<kops::topk>::self>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::gather, "GatherBackward0", formula<"self", &fd::gather_d::self>, non_differentiable<"index">,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::scatter_add, "ScatterAddBackward0", formula<"self", &fd::scatter_add_d::self>,
                         formula<"src", &fd::scatter_add_d::src>, non_differentiable<"index">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::native_layer_norm, "NativeLayerNormBackward0", formula<"input, weight, bias", &fd::layer_norm_d::all>);
OPD_AUTOGRAD_DERIVATIVES(kops::native_layer_norm_backward, "NativeLayerNormBackwardBackward0",
                         formula<"grad_out, input, weight", &fd::layer_norm_backward_d::all>,
                         formula<"mean", &fd::layer_norm_backward_d::mean>, formula<"rstd", &fd::layer_norm_backward_d::rstd>,
                         formula<"bias", &fd::layer_norm_backward_d::bias>);
OPD_AUTOGRAD_DERIVATIVES(kops::native_group_norm, "NativeGroupNormBackward0", formula<"input, weight, bias", &fd::group_norm_d::all>);
OPD_AUTOGRAD_DERIVATIVES(kops::native_batch_norm, "NativeBatchNormBackward0", formula<"input, weight, bias", &fd::batch_norm_d::all>,
                         non_differentiable<"running_mean", "running_var">);
OPD_AUTOGRAD_DERIVATIVES(kops::convolution, "ConvolutionBackward0", formula<"input", &fd::convolution_d::input>,
                         formula<"weight", &fd::convolution_d::weight>, formula<"bias", &fd::convolution_d::bias>);
OPD_AUTOGRAD_DERIVATIVES(kops::convolution_backward, "ConvolutionBackwardBackward0",
                         formula<"grad_output, input, weight", &fd::convolution_backward_d::all>);
OPD_AUTOGRAD_DERIVATIVES(kops::max_pool2d_with_indices, "MaxPool2DWithIndicesBackward0", formula<"self", &fd::max_pool_d::self>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::narrow, "SliceBackward0", formula<"self", &fd::slice_d::narrow>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::slice, "SliceBackward0", formula<"self", &fd::slice_d::slice>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::slice_scatter, "SliceScatterBackward0", formula<"self", &fd::slice_scatter_d::self>,
                         formula<"src", &fd::slice_scatter_d::src>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::max_pool2d, "MaxPool2DBackward0", formula<"self", &fd::max_pool_d::plain>);
OPD_AUTOGRAD_DERIVATIVES(kops::max_pool2d_with_indices_backward, "MaxPool2DWithIndicesBackwardBackward0",
                         formula<"grad_output", &fd::max_pool_d::grad_output>, non_differentiable<"self", "indices">);
OPD_AUTOGRAD_DERIVATIVES(kops::avg_pool2d, "AvgPool2DBackward0", formula<"self", &fd::avg_pool_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::avg_pool2d_backward, "AvgPool2DBackwardBackward0", formula<"grad_output", &fd::avg_pool_d::grad_output>,
                         non_differentiable<"self">);
OPD_AUTOGRAD_DERIVATIVES(kops::_adaptive_avg_pool2d, "AdaptiveAvgPool2DBackward0",
                         formula<"self", &fd::adaptive_pool_d<kops::_adaptive_avg_pool2d>::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::adaptive_avg_pool2d, "AdaptiveAvgPool2DBackward0",
                         formula<"self", &fd::adaptive_pool_d<kops::adaptive_avg_pool2d>::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::_adaptive_avg_pool2d_backward, "AdaptiveAvgPool2DBackwardBackward0",
                         formula<"grad_output", &fd::adaptive_pool_backward_d::grad_output>, non_differentiable<"self">);
OPD_AUTOGRAD_DERIVATIVES(kops::linear, "LinearBackward0", formula<"input", &fd::linear_d::input>,
                         formula<"weight", &fd::linear_d::weight>, formula<"bias", &fd::linear_d::bias>, complex_verified);

namespace formulas_detail {

// The names registered by register_autograd (for gradcheck over the registry).
inline std::vector<std::string>& registered_names() {
  static std::vector<std::string> names;
  return names;
}
inline std::vector<std::string>& registered_complex_names() {
  static std::vector<std::string> names;
  return names;
}
inline std::mutex& registered_names_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace formulas_detail

OPD_FUNC RegistrationSet register_autograd() {
  formulas_detail::registrar r;
  r.family<kops::add>();
  r.family<kops::sub>();
  r.family<kops::add_scalar>();
  r.family<kops::sub_scalar>();
  r.family<kops::mul>();
  r.family<kops::mul_scalar>();
  r.family<kops::div>();
  r.family<kops::div_scalar>();
  r.family<kops::neg>();
  r.family<kops::exp>();
  r.family<kops::log>();
  r.family<kops::tanh>();
  r.family<kops::sigmoid>();
  r.family<kops::addmm>();
  r.family<kops::baddbmm>();
  r.functional<kops::dot>();
  r.functional<kops::mv>();
  r.functional<kops::relu>();
  r.inplace_of<kops::relu, kops::relu_>();
  r.functional<kops::pow_scalar>();
  r.inplace_of<kops::pow_scalar, kops::pow_scalar_>();
  r.functional<kops::sum>();
  r.functional<kops::sum_dim>();
  r.functional<kops::mean>();
  r.functional<kops::mean_dim>();
  r.functional<kops::mm>();
  r.functional<kops::bmm>();
  r.functional<kops::matmul>();
  r.functional<kops::t>();
  r.functional<kops::transpose>();
  r.functional<kops::view>();
  r.functional<kops::expand>();
  r.functional<kops::unsqueeze>();
  r.functional<kops::squeeze>();
  r.functional<kops::squeeze_dim>();
  r.functional<kops::permute>();
  r.functional<kops::reshape>();
  r.functional<kops::flatten>();
  r.functional<kops::expand_as>();
  r.functional<kops::contiguous>();
  r.functional<kops::clone>();
  r.functional<kops::alias>();
  r.functional<kops::unsafe_view>();
  r.functional<kops::to_copy>();
  // the views' *_copy operators (select_copy, split_copy, ... with their views' groups)
  r.view_copy<kops::view>();
  r.view_copy<kops::transpose>();
  r.view_copy<kops::t>();
  r.view_copy<kops::permute>();
  r.view_copy<kops::slice>();
  r.view_copy<kops::unsqueeze>();
  r.view_copy<kops::squeeze>();
  r.view_copy<kops::squeeze_dim>();
  r.view_copy<kops::expand>();
  r.view_copy<kops::alias>();
  r.functional<kops::softmax>();
  r.functional<kops::internal_softmax>();
  r.functional<kops::log_softmax>();
  r.functional<kops::internal_log_softmax>();
  r.functional<kops::max_dim>();
  r.functional<kops::min_dim>();
  r.functional<kops::sort>();
  r.functional<kops::sort_stable>();
  r.functional<kops::topk>();
  r.functional<kops::gather>();
  r.functional<kops::scatter_add>();
  r.functional<kops::native_layer_norm>();
  r.functional<kops::native_batch_norm>();
  r.functional<kops::native_group_norm>();
  r.functional<kops::convolution>();
  r.functional<kops::convolution_backward>();
  r.functional<kops::native_layer_norm_backward>();
  r.functional<kops::max_pool2d_with_indices>();
  r.functional<kops::max_pool2d>();
  r.functional<kops::narrow>();
  r.functional<kops::slice>();
  r.functional<kops::slice_scatter>();
  r.functional<kops::max_pool2d_with_indices_backward>();
  r.functional<kops::avg_pool2d>();
  r.functional<kops::avg_pool2d_backward>();
  r.functional<kops::_adaptive_avg_pool2d>();
  r.functional<kops::adaptive_avg_pool2d>();
  r.functional<kops::_adaptive_avg_pool2d_backward>();
  r.functional<kops::linear>();
  r.merge(formulas_detail::pointwise_formulas());
  r.merge(formulas_detail::reduction_formulas());
  r.merge(formulas_detail::list_formulas());
  r.merge(formulas_detail::spatial_formulas());
  r.merge(formulas_detail::complex_formulas());
  r.set.add(register_derivatives<kops::copy_>());  // in place (no functional variant to gradcheck)
  r.set.add(register_non_differentiable<kops::detach>());
  r.set.add(register_autograd_layers());
  {
    std::lock_guard<std::mutex> lock(formulas_detail::registered_names_mutex());
    formulas_detail::registered_names() = r.names;
    formulas_detail::registered_complex_names() = r.complex;
  }
  return std::move(r.set);
}

OPD_FUNC std::vector<std::string> operators_with_formulas() {
  std::lock_guard<std::mutex> lock(formulas_detail::registered_names_mutex());
  return formulas_detail::registered_names();
}

OPD_FUNC std::vector<std::string> operators_with_complex_formulas() {
  std::lock_guard<std::mutex> lock(formulas_detail::registered_names_mutex());
  return formulas_detail::registered_complex_names();
}

}  // namespace opd::autograd
