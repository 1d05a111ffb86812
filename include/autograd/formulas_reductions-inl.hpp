#pragma once
// The formulas of reductions (amax/amin, max/min, prod, prod.dim_int, logsumexp, var/std,
// norm, cumsum, cumprod), of the distances (_cdist_forward, _pdist_forward) and of shape operators
// (flip, roll, repeat, select, index_select, scatter_reduce.two, masked_fill, embedding, _embedding_bag, native_dropout, as_strided and
// its scatter) and of the nll losses, with PyTorch 1.13's semantics
// (derivatives.yaml), and reduction_formulas(), which register_autograd()
// merges. Compiled in its own source (src/autograd_formulas_reductions.cpp).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "autograd/formulas_common-inl.hpp"
#include "kernels/ops_composites.hpp"
#include "kernels/ops_core_aten.hpp"
#include "kernels/ops_distance.hpp"
#include "kernels/ops_embedding_bag.hpp"
#include "kernels/ops_loss.hpp"
#include "kernels/ops_padding.hpp"
#include "kernels/ops_random.hpp"

namespace opd::autograd {

namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

namespace rx {  // helpers of this group
inline Tensor zero0(const Tensor& like) { return fx::zeros_like_sizes(IntArrayRef(), like); }
inline Tensor where0(const Tensor& mask, const Tensor& g) { return call<k::where::functional>(mask, g, zero0(g)); }
inline Tensor eq(const Tensor& a, const Tensor& b) { return call<k::eq::functional>(a, b); }
inline std::vector<int64_t> all_dims(int64_t n) {
  std::vector<int64_t> d(static_cast<std::size_t>(n));
  std::iota(d.begin(), d.end(), 0);
  return d;
}
inline std::vector<int64_t> dims_of(const std::vector<int64_t>& dim, int64_t ndim) {
  return fx::reduced_dims(std::optional<std::vector<int64_t>>(dim), ndim);
}
// PyTorch's scale_grad_by_count: the gradient shared evenly by the selected
// elements (`mask`) of each reduced slice.
inline Tensor evenly(const Tensor& g_unreduced, const Tensor& mask, const std::vector<int64_t>& dims) {
  const Tensor count = dims.empty() ? call<k::sum>(mask, std::nullopt) : fx::sum_dims(mask, dims, true);
  return fx::div(fx::mul(g_unreduced, mask), count);
}
// var's gradient: 2 (x - mean) / (N - correction) * grad, over `dims`
inline Tensor var_backward(const Tensor& g, const Tensor& x, const std::vector<int64_t>& dims, double correction, bool keepdim) {
  const Tensor gu = fx::unreduce(g, x.sizes(), dims, keepdim);
  const double n = static_cast<double>(fx::count(x.sizes(), dims));
  const Tensor xc = fx::sub(x, dims.empty() ? x : fx::mean_dims(x, dims));
  return fx::mul(fx::mul(gu, xc), Scalar(2.0 / (n - correction)));
}
}  // namespace rx

template <class Op>
struct extremum_all_d {  // amax/amin (dims) and max/min (everything): evenly among the extremes
  static Tensor reduced(const Tensor& g, const saved<Op, "self", "result", "dim", "keepdim">& s) {
    const Tensor x = s.template get<"self">();
    const auto dims = rx::dims_of(s.template get<"dim">(), x.dim());
    const bool keep = s.template get<"keepdim">();
    const Tensor mask = rx::eq(x, fx::unreduce(s.template get<"result">(), x.sizes(), dims, keep));
    return rx::evenly(fx::unreduce(g, x.sizes(), dims, keep), mask, dims);
  }
  static Tensor whole(const Tensor& g, const saved<Op, "self", "result">& s) {
    const Tensor x = s.template get<"self">();
    const Tensor mask = rx::eq(x, s.template get<"result">());
    return fx::div(fx::mul(g, mask), call<k::sum>(mask, std::nullopt));
  }
};
struct logsumexp_d {  // grad * exp(self - result)
  using Op = k::logsumexp;
  static Tensor self(const Tensor& g, const saved<Op, "self", "result", "dim", "keepdim">& s) {
    const Tensor x = s.get<"self">();
    const auto dims = rx::dims_of(s.get<"dim">(), x.dim());
    const Tensor r = fx::unreduce(s.get<"result">(), x.sizes(), dims, s.get<"keepdim">());
    return fx::mul(fx::unreduce(g, x.sizes(), dims, s.get<"keepdim">()), call<k::exp::functional>(fx::sub(x, r)));
  }
};
// prod (everything), PyTorch's prod_backward: grad * result / x without zeros;
// with one zero, the product of the others at the zero (x taken as 1 there,
// so that the other positions' result / x stays differentiable in it); with
// several, zeros.
// Complex (prod, prod.dim_int, cumprod): the gradient is grad times the conjugate of a product of
// x's elements (and the result), so the real formula taken at conj(x) and conj(result).
struct prod_d {
  using Op = k::prod;
  static Tensor self(const Tensor& g, const saved<Op, "self", "result">& s) {
    const Tensor x = fx::conj(s.get<"self">());
    if (x.numel() == 0) return fx::zeros_like_sizes(x.sizes(), g);
    const Tensor zeros = call<k::eq_scalar::functional>(x, Scalar(0));
    const int64_t nzero = opd::to_vector<int64_t>(call<k::sum>(zeros, ScalarType::Long)).at(0);
    const Tensor result = fx::conj(s.get<"result">());
    if (nzero == 0) return fx::div(fx::mul(g, result), x);
    if (nzero > 1) return fx::zeros_like_sizes(x.sizes(), g);
    const Tensor safe = call<k::where::functional>(zeros, fx::add_scalar(rx::zero0(x), 1), x);
    const Tensor others = call<k::prod>(safe, std::nullopt);
    return call<k::where::functional>(zeros, fx::mul(g, others), fx::div(fx::mul(g, result), safe));
  }
};
// PyTorch's prod_safe_zeros_backward along d: each element's gradient is grad times the product
// of the others in its slice, the exclusive cumulative products from both ends (no division).
inline Tensor prod_safe_zeros(const Tensor& g, const Tensor& x, int64_t d) {
  const int64_t n = x.size(d);
  if (x.numel() == 0) return fx::expand(g, x.sizes());
  SizesVector one_sizes(x.sizes());
  one_sizes[static_cast<std::size_t>(d)] = 1;
  const Tensor ones = fx::add_scalar(fx::zeros_like_sizes(IntArrayRef(one_sizes), g), 1);
  const std::vector<int64_t> dims{d};
  auto cat2 = [&](const Tensor& a, const Tensor& b) {
    const std::vector<Tensor> ab{a, b};
    return call<k::cat>(std::span<const Tensor>(ab), d);
  };
  const Tensor before = call<k::cumprod>(cat2(ones, call<k::narrow>(x, d, 0, n - 1)), d, std::nullopt);
  const Tensor after_reversed = cat2(ones, call<k::flip>(call<k::narrow>(x, d, 1, n - 1), fx::ints(dims)));
  const Tensor after = call<k::flip>(call<k::cumprod>(after_reversed, d, std::nullopt), fx::ints(dims));
  return fx::mul(g, fx::mul(before, after));
}
inline Tensor reversed_cumsum(const Tensor& w, int64_t d) {
  const std::vector<int64_t> dims{d};
  return call<k::flip>(call<k::cumsum>(call<k::flip>(w, fx::ints(dims)), d, std::nullopt), fx::ints(dims));
}
inline int64_t count_zeros(const Tensor& x) {
  return opd::to_vector<int64_t>(call<k::sum>(call<k::eq_scalar::functional>(x, Scalar(0)), ScalarType::Long)).at(0);
}
struct prod_dim_d {  // PyTorch's prod_backward(grad, self, result, dim, keepdim): grad * result / self without zeros
  using Op = k::prod_dim;
  static Tensor self(const Tensor& grad, const saved<Op, "self", "result", "dim", "keepdim">& s) {
    const Tensor x = fx::conj(s.get<"self">());
    if (x.dim() == 0) return grad;
    const int64_t d = opd::detail::wrap_dim(s.get<"dim">(), x.dim());
    Tensor g = grad, result = fx::conj(s.get<"result">());
    if (!s.get<"keepdim">()) {
      g = call<k::unsqueeze>(g, d);
      result = call<k::unsqueeze>(result, d);
    }
    if (count_zeros(x) == 0) return fx::mul(g, fx::div(result, x));
    return prod_safe_zeros(g, x, d);
  }
};
// cumprod's gradient with zeros under create_graph, as PyTorch computes it then: for each k,
// sum_{j >= k} grad_j * prod_{i <= j, i != k} x_i, the products before k times the cumulative
// products after it; O(n^2) in the length of dim, and differentiable everywhere (the elements
// after a zero have 0 gradient but not 0 second derivative).
inline Tensor cumprod_omitted_products(const Tensor& g, const Tensor& x, int64_t d) {
  const int64_t n = x.size(d);
  SizesVector one_sizes(x.sizes());
  one_sizes[static_cast<std::size_t>(d)] = 1;
  const Tensor ones = fx::add_scalar(fx::zeros_like_sizes(IntArrayRef(one_sizes), g), 1);
  variable_list per_k;
  for (int64_t k = 0; k < n; ++k) {
    const Tensor until = k == 0 ? ones : call<k::prod_dim>(call<k::narrow>(x, d, 0, k), d, true, std::nullopt);
    Tensor omitted = until;
    if (k < n - 1) {
      const Tensor from = call<k::cumprod>(call<k::narrow>(x, d, k + 1, n - k - 1), d, std::nullopt);
      const std::vector<Tensor> parts{until, fx::mul(until, from)};
      omitted = call<k::cat>(std::span<const Tensor>(parts), d);
    }
    per_k.push_back(fx::sum_dims(fx::mul(call<k::narrow>(g, d, k, n - k), omitted), {d}, false));
  }
  return call<k::stack>(std::span<const Tensor>(per_k), d);
}
// cumprod: without zeros PyTorch's reversed_cumsum(result * grad) / self. With zeros and
// create_graph, cumprod_omitted_products; without create_graph (as PyTorch's mask path), per
// slice: before its first zero the same (the later products are 0); at the first zero z, the
// sum over j >= z of grad_j times the product up to j without x_z, the cumulative product of x
// with x_z set to 1; after it 0 (every product there holds x_z); no division meets a zero.
struct cumprod_d {
  using Op = k::cumprod;
  static Tensor self(const Tensor& grad, const saved<Op, "self", "result", "dim">& s) {
    const Tensor x = fx::conj(s.get<"self">());
    Tensor g = grad.dtype() == x.dtype() ? grad : call<k::to_dtype>(grad, x.dtype(), false, false, std::nullopt);
    if (x.numel() <= 1) return g;
    const int64_t d = opd::detail::wrap_dim(s.get<"dim">(), x.dim());
    if (x.size(d) == 1) return g;
    const Tensor result = fx::conj(s.get<"result">());
    if (count_zeros(x) == 0) return fx::div(reversed_cumsum(fx::mul(result, g), d), x);
    if (GradMode::is_enabled()) return cumprod_omitted_products(g, x, d);
    const Tensor is_zero = call<k::eq_scalar::functional>(x, Scalar(0));
    const Tensor zeros_so_far = call<k::cumsum>(is_zero, d, ScalarType::Long);
    const Tensor before = call<k::eq_scalar::functional>(zeros_so_far, Scalar(0));
    const Tensor first_zero =
        call<k::logical_and::functional>(is_zero, call<k::eq_scalar::functional>(zeros_so_far, Scalar(1)));
    const Tensor one = fx::add_scalar(rx::zero0(x), 1);
    const Tensor safe_x = call<k::where::functional>(before, x, one);
    const Tensor grad_before = fx::div(reversed_cumsum(fx::mul(result, g), d), safe_x);
    const Tensor without_zero = call<k::cumprod>(call<k::where::functional>(first_zero, one, x), d, std::nullopt);
    const Tensor grad_at_zero = reversed_cumsum(fx::mul(g, without_zero), d);
    return call<k::where::functional>(before, grad_before, rx::where0(first_zero, grad_at_zero));
  }
};
// var / std: correction from `unbiased` or `correction` (None: 1); std = sqrt(var)
template <class Op>
struct var_d {
  static Tensor all(const Tensor& g, const saved<Op, "self", "unbiased">& s) {
    const Tensor x = s.template get<"self">();
    return rx::var_backward(g, x, rx::all_dims(x.dim()), s.template get<"unbiased">() ? 1 : 0, false);
  }
  static Tensor dim(const Tensor& g, const saved<Op, "self", "dim", "unbiased", "keepdim">& s) {
    const Tensor x = s.template get<"self">();
    return rx::var_backward(g, x, fx::reduced_dims(s.template get<"dim">(), x.dim()), s.template get<"unbiased">() ? 1 : 0,
                            s.template get<"keepdim">());
  }
  static Tensor correction(const Tensor& g, const saved<Op, "self", "dim", "correction", "keepdim">& s) {
    const Tensor x = s.template get<"self">();
    const double c = static_cast<double>(s.template get<"correction">().value_or(1));
    return rx::var_backward(g, x, fx::reduced_dims(s.template get<"dim">(), x.dim()), c, s.template get<"keepdim">());
  }
};
template <class Op>
struct std_d {  // var's gradient of grad / (2 result), 0 where result == 0
  static Tensor scaled(const Tensor& g, const Tensor& r) {
    const Tensor gv = fx::div(g, fx::mul(r, Scalar(2.0)));
    return call<k::where::functional>(call<k::eq_scalar::functional>(r, Scalar(0)), rx::zero0(gv), gv);
  }
  static Tensor all(const Tensor& g, const saved<Op, "self", "unbiased", "result">& s) {
    const Tensor x = s.template get<"self">();
    return rx::var_backward(scaled(g, s.template get<"result">()), x, rx::all_dims(x.dim()),
                            s.template get<"unbiased">() ? 1 : 0, false);
  }
  static Tensor dim(const Tensor& g, const saved<Op, "self", "dim", "unbiased", "keepdim", "result">& s) {
    const Tensor x = s.template get<"self">();
    return rx::var_backward(scaled(g, s.template get<"result">()), x, fx::reduced_dims(s.template get<"dim">(), x.dim()),
                            s.template get<"unbiased">() ? 1 : 0, s.template get<"keepdim">());
  }
  static Tensor correction(const Tensor& g, const saved<Op, "self", "dim", "correction", "keepdim", "result">& s) {
    const Tensor x = s.template get<"self">();
    const double c = static_cast<double>(s.template get<"correction">().value_or(1));
    return rx::var_backward(scaled(g, s.template get<"result">()), x, fx::reduced_dims(s.template get<"dim">(), x.dim()), c,
                            s.template get<"keepdim">());
  }
};
// norm (PyTorch's norm_backward; complex x: the same with sgn(x) = x/|x|, real output): p = 0: zero;
// 1: sgn(x) grad; 2: x grad / norm;
// inf: evenly among the |x| == norm with sgn(x); else x |x|^(p-2) grad / norm^(p-1);
// 0 where the norm is 0.
struct norm_d {
  static Tensor backward(const Tensor& g, const Tensor& x, double p, const Tensor& r, const std::vector<int64_t>& dims,
                         bool keepdim) {
    const Tensor gu = fx::unreduce(g, x.sizes(), dims, keepdim), ru = fx::unreduce(r, x.sizes(), dims, keepdim);
    const Tensor sgn = call<k::sgn::functional>(x);
    if (p == 0) return fx::zeros_like_sizes(x.sizes(), g);
    if (p == 1) return fx::mul(sgn, gu);
    if (std::isinf(p)) {  // (complex: the maximum of abs(x) itself, which the kernel's |x| may miss by an ulp)
      const Tensor ax = call<k::abs::functional>(x);
      const Tensor top = is_complex_type(x.dtype()) ? fx::expand(call<k::amax>(ax, fx::ints(dims), true), x.sizes()) : ru;
      const Tensor mask = rx::eq(ax, top);
      return fx::mul(sgn, rx::evenly(gu, mask, dims));
    }
    const Tensor nonzero = call<k::ne_scalar::functional>(ru, Scalar(0));
    if (p == 2) return fx::mul(x, rx::where0(nonzero, fx::div(gu, ru)));
    const Tensor xp = fx::mul(x, call<k::pow_scalar>(call<k::abs::functional>(x), Scalar(p - 2)));
    return fx::mul(xp, rx::where0(nonzero, fx::div(gu, call<k::pow_scalar>(ru, Scalar(p - 1)))));
  }
  using OpS = k::norm_scalar;
  static Tensor scalar(const Tensor& g, const saved<OpS, "self", "p", "result">& s) {
    const Tensor x = s.get<"self">();
    return backward(g, x, s.get<"p">().to_double(), s.get<"result">(), rx::all_dims(x.dim()), false);
  }
  using OpD = k::norm_scalaropt_dim;
  static Tensor dim(const Tensor& g, const saved<OpD, "self", "p", "dim", "keepdim", "result">& s) {
    const Tensor x = s.get<"self">();
    const double p = s.get<"p">() ? s.get<"p">()->to_double() : 2.0;
    return backward(g, x, p, s.get<"result">(), rx::dims_of(s.get<"dim">(), x.dim()), s.get<"keepdim">());
  }
  // the dtype overloads: the same gradient (PyTorch's norm_backward with p None = 2)
  using OpT = k::norm_scalaropt_dtype;
  static Tensor dtype(const Tensor& g, const saved<OpT, "self", "p", "result">& s) {
    const Tensor x = s.get<"self">();
    const double p = s.get<"p">() ? s.get<"p">()->to_double() : 2.0;
    return backward(g, x, p, s.get<"result">(), rx::all_dims(x.dim()), false);
  }
  using OpDT = k::norm_scalaropt_dim_dtype;
  static Tensor dim_dtype(const Tensor& g, const saved<OpDT, "self", "p", "dim", "keepdim", "result">& s) {
    const Tensor x = s.get<"self">();
    const double p = s.get<"p">() ? s.get<"p">()->to_double() : 2.0;
    return backward(g, x, p, s.get<"result">(), rx::dims_of(s.get<"dim">(), x.dim()), s.get<"keepdim">());
  }
};
// _cdist_forward: the p-norm over the last dim of x1[..., :, None, :] - x2[..., None, :, :], so norm's
// gradient of those differences, summed over the other side's rows (PyTorch's _cdist_backward; batch
// dims broadcast reduced back). Written with differentiable operators: second derivatives too.
struct cdist_d {
  using Op = k::cdist_forward;
  static std::array<Tensor, 2> both(const Tensor& g, const saved<Op, "x1", "x2", "p", "result">& s) {
    const Tensor x1 = s.get<"x1">(), x2 = s.get<"x2">();
    const Tensor diff = fx::sub(call<k::unsqueeze>(x1, int64_t{-2}), call<k::unsqueeze>(x2, int64_t{-3}));
    const int64_t n = diff.dim();
    const Tensor gd = norm_d::backward(g, diff, s.get<"p">(), s.get<"result">(), {n - 1}, false);
    return {fx::sum_to(fx::sum_dims(gd, {n - 2}, false), x1.sizes()),
            fx::sum_to(fx::neg(fx::sum_dims(gd, {n - 3}, false)), x2.sizes())};
  }
};
// _pdist_forward: its backward kernel, as derivatives.yaml. PyTorch 1.13's _pdist_backward has no
// derivatives (not_implemented), so neither has it here: with create_graph, calling it on a self that
// requires grad is the fallback's error naming it.
struct pdist_d {
  using Op = k::pdist_forward;
  static Tensor self(const Tensor& g, const saved<Op, "self", "p", "result">& s) {
    return call<k::pdist_backward>(g, s.get<"self">(), s.get<"p">(), s.get<"result">());
  }
};
struct cumsum_d {  // the reversed cumulative sum of grad (its real part for a real self summed as complex)
  using Op = k::cumsum;
  static Tensor self(const Tensor& g, const saved<Op, "dim", "self.dtype">& s) {
    if (g.dim() == 0) return fx::r_to_c(s.get<"self.dtype">(), g);
    const int64_t d = s.get<"dim">();
    const std::vector<int64_t> dims{d};
    const Tensor f = call<k::flip>(g, fx::ints(dims));
    return fx::r_to_c(s.get<"self.dtype">(), call<k::flip>(call<k::cumsum>(f, d, std::nullopt), fx::ints(dims)));
  }
};
struct flip_d {
  using Op = k::flip;
  static Tensor self(const Tensor& g, const saved<Op, "dims">& s) { return call<k::flip>(g, fx::ints(s.get<"dims">())); }
};
struct roll_d {  // roll back by -shifts
  using Op = k::roll;
  static Tensor self(const Tensor& g, const saved<Op, "shifts", "dims">& s) {
    std::vector<int64_t> back = s.get<"shifts">();
    for (int64_t& v : back) v = -v;
    return call<k::roll>(g, fx::ints(back), fx::ints(s.get<"dims">()));
  }
};
// repeat: grad seen as [r0, s0, r1, s1, ...] (leading dims of self taken as 1), summed over the r's
struct repeat_d {
  using Op = k::repeat;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "repeats">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const std::vector<int64_t>& reps = s.get<"repeats">();
    const std::size_t lead = reps.size() - sizes.size();
    std::vector<int64_t> split, summed;
    for (std::size_t i = 0; i < reps.size(); ++i) {
      summed.push_back(static_cast<int64_t>(split.size()));
      split.push_back(reps[i]);
      split.push_back(i < lead ? 1 : sizes[i - lead]);
    }
    const Tensor r = fx::sum_dims(fx::reshape(g, IntArrayRef(split.data(), split.size())), summed, false);
    return fx::reshape(r, sizes);
  }
};
struct select_int_d {  // select: the gradient written into zeros at index; select_scatter: its two halves
  using Op = k::select;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "dim", "index">& s) {
    return call<k::select_scatter>(fx::zeros_like_sizes(s.get<"self.sizes">(), g), g, s.get<"dim">(), s.get<"index">());
  }
  using OpS = k::select_scatter;
  static Tensor scatter_self(const Tensor& g, const saved<OpS, "src.sizes", "dim", "index">& s) {
    return call<k::select_scatter>(g, fx::zeros_like_sizes(s.get<"src.sizes">(), g), s.get<"dim">(), s.get<"index">());
  }
  static Tensor scatter_src(const Tensor& g, const saved<OpS, "dim", "index", "src.dtype">& s) {
    return fx::r_to_c(s.get<"src.dtype">(), call<k::select>(g, s.get<"dim">(), s.get<"index">()));
  }
};
struct index_select_d {  // grad added into zeros at the indices (scatter_add: differentiable)
  using Op = k::index_select;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "dim", "index">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const Tensor index = s.get<"index">();
    if (sizes.empty()) return fx::reshape(call<k::sum>(g, std::nullopt), sizes);
    const int64_t d = opd::detail::wrap_dim(s.get<"dim">(), static_cast<int64_t>(sizes.size()));
    std::vector<int64_t> shape(sizes.size(), 1);
    shape[static_cast<std::size_t>(d)] = index.numel();
    const Tensor idx = fx::expand(fx::reshape(index, IntArrayRef(shape.data(), shape.size())), g.sizes());
    return call<k::scatter_add>(fx::zeros_like_sizes(sizes, g), d, idx, g);
  }
};
struct masked_fill_d {  // self: grad where not mask; value (Tensor): the sum of grad where mask
  using OpS = k::masked_fill_scalar;
  static Tensor self(const Tensor& g, const saved<OpS, "mask">& s) {
    return call<k::where::functional>(s.get<"mask">(), rx::zero0(g), g);
  }
  using OpT = k::masked_fill_tensor;
  static Tensor self_t(const Tensor& g, const saved<OpT, "mask">& s) {
    return call<k::where::functional>(s.get<"mask">(), rx::zero0(g), g);
  }
  static Tensor value(const Tensor& g, const saved<OpT, "mask", "value.dtype">& s) {
    return fx::r_to_c(s.get<"value.dtype">(), call<k::sum>(rx::where0(s.get<"mask">(), g), std::nullopt));
  }
};

// embedding (PyTorch's embedding_dense_backward, written with scatter_add so that
// double backward works): each row of grad added into its index's row; none
// at padding_idx; divided by the index's count with scale_grad_by_freq.
struct embedding_d {
  using Op = k::embedding;
  static Tensor weight(const Tensor& g, const saved<Op, "weight.sizes", "indices", "padding_idx", "scale_grad_by_freq", "sparse">& s) {
    OPD_CHECK(!s.get<"sparse">(), "aten::embedding: sparse=True gradients are not supported (the library has no sparse tensors)");
    const IntArrayRef wsizes = s.get<"weight.sizes">();
    const int64_t rows = wsizes[0], width = wsizes[1];
    const int64_t flat_idx[1] = {-1}, flat_g[2] = {-1, width};
    const Tensor idx = fx::reshape(s.get<"indices">(), IntArrayRef(flat_idx, 1));
    Tensor rows_g = fx::reshape(g, IntArrayRef(flat_g, 2));
    const int64_t pad = s.get<"padding_idx">();
    if (pad >= 0 && pad < rows) {
      const Tensor at_pad = call<k::eq_scalar::functional>(idx, Scalar(pad));
      rows_g = call<k::where::functional>(call<k::unsqueeze>(at_pad, int64_t{1}), rx::zero0(rows_g), rows_g);
    }
    if (s.get<"scale_grad_by_freq">()) {
      const Tensor ones = fx::add_scalar(fx::zeros_like_sizes(idx.sizes(), g), 1);
      const Tensor counts = call<k::scatter_add>(fx::zeros_like_sizes(IntArrayRef(&rows, 1), g), int64_t{0}, idx, ones);
      rows_g = fx::div(rows_g, call<k::unsqueeze>(call<k::index_select>(counts, int64_t{0}, idx), int64_t{1}));
    }
    const Tensor idx2 = fx::expand(call<k::unsqueeze>(idx, int64_t{1}), rows_g.sizes());
    return call<k::scatter_add>(fx::zeros_like_sizes(wsizes, g), int64_t{0}, idx2, rows_g);
  }
};
// _embedding_bag, as derivatives.yaml: weight through _embedding_bag_backward (composite: the dense
// backward), per_sample_weights through its backward kernel, both from the forward's offset2bag,
// bag sizes and maximum indices. 1.13 gives neither backward kernel derivatives, nor does the
// library: with create_graph, the fallback's error naming the kernel.
struct embedding_bag_d {
  using Op = k::embedding_bag_;
  static Tensor weight(const Tensor& g, const saved<Op, "weight.sizes", "indices", "offsets", "scale_grad_by_freq", "mode",
                                                    "sparse", "per_sample_weights", "padding_idx", "result1", "result2",
                                                    "result3">& s) {
    return call<k::embedding_bag_backward>(g, s.get<"indices">(), s.get<"offsets">(), s.get<"result1">(), s.get<"result2">(),
                                           s.get<"result3">(), s.get<"weight.sizes">()[0], s.get<"scale_grad_by_freq">(),
                                           s.get<"mode">(), s.get<"sparse">(), fx::opt(s.get<"per_sample_weights">()),
                                           s.get<"padding_idx">());
  }
  static Tensor per_sample_weights(const Tensor& g, const saved<Op, "weight", "indices", "offsets", "mode", "padding_idx",
                                                                "result1">& s) {
    return call<k::embedding_bag_per_sample_weights_backward>(g, s.get<"weight">(), s.get<"indices">(), s.get<"offsets">(),
                                                              s.get<"result1">(), s.get<"mode">(), s.get<"padding_idx">());
  }
};
// native_dropout: grad * mask * scale (scale 1/(1-p) in training, 0 for p = 1, 1 otherwise)
struct native_dropout_d {
  using Op = k::native_dropout;
  static Tensor input(const Tensor& g, const saved<Op, "p", "train", "result1">& s) {
    const std::optional<bool>& train = s.get<"train">();
    const double p = s.get<"p">();
    const double scale = !train || !*train ? 1.0 : (p == 1 ? 0.0 : 1.0 / (1.0 - p));
    return fx::mul(fx::mul(g, s.get<"result1">()), Scalar(scale));
  }
};
// native_dropout_backward (double backward of native_dropout): linear in grad_output
struct native_dropout_backward_d {
  using Op = k::native_dropout_backward;
  static Tensor grad_output(const Tensor& g, const saved<Op, "mask", "scale">& s) {
    return fx::mul(fx::mul(g, s.get<"mask">()), Scalar(s.get<"scale">()));
  }
};
// zero, fill.Scalar: the result does not depend on self; lift_fresh: self itself
struct constant_d {
  static Tensor zeros(const Tensor& g) { return fx::zeros_like_sizes(g.sizes(), g); }
  static Tensor identity(const Tensor& g) { return g; }
};
struct reshape_alias_d {  // _reshape_alias: the gradient reshaped back
  using Op = k::reshape_alias;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes">& s) { return fx::reshape(g, s.get<"self.sizes">()); }
};
// diagonal: the gradient written on the diagonal of zeros (diagonal_scatter: differentiable);
// diagonal_scatter: self's gradient with zeros on the diagonal, src's the gradient's diagonal.
struct diagonal_d {
  using Op = k::diagonal;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "offset", "dim1", "dim2">& s) {
    return call<k::diagonal_scatter>(fx::zeros_like_sizes(s.get<"self.sizes">(), g), g, s.get<"offset">(), s.get<"dim1">(),
                                     s.get<"dim2">());
  }
  using OpS = k::diagonal_scatter;
  static Tensor scatter_self(const Tensor& g, const saved<OpS, "src.sizes", "offset", "dim1", "dim2">& s) {
    return call<k::diagonal_scatter>(g, fx::zeros_like_sizes(s.get<"src.sizes">(), g), s.get<"offset">(), s.get<"dim1">(),
                                     s.get<"dim2">());
  }
  static Tensor scatter_src(const Tensor& g, const saved<OpS, "offset", "dim1", "dim2">& s) {
    return call<k::diagonal>(g, s.get<"offset">(), s.get<"dim1">(), s.get<"dim2">());
  }
};
// as_strided (PyTorch's as_strided_backward): the output's gradient added at its storage positions
// in zeros covering both geometries (overlapping outputs add up), read back at the input's positions
// (an input whose elements share memory: divided by how many share each). scatter_add and gather:
// differentiable.
struct as_strided_d {
  using Op = k::as_strided;
  // offset + sum_k i_k * strides[k] for each element of `sizes` (int64, on like's device)
  static Tensor positions(IntArrayRef sizes, IntArrayRef strides, int64_t offset, const Tensor& like) {
    Tensor pos = call<k::arange_start>(Scalar(offset), Scalar(offset + 1), arg<"dtype"> = ScalarType::Long,
                                       arg<"device"> = like.device());
    const std::size_t n = sizes.size();
    for (std::size_t d = 0; d < n; ++d) {
      std::vector<int64_t> shape(n, 1);
      shape[d] = sizes[d];
      const Tensor a = call<k::arange>(Scalar(sizes[d]), arg<"dtype"> = ScalarType::Long, arg<"device"> = like.device());
      pos = call<k::add::functional>(pos, fx::reshape(call<k::mul_scalar::functional>(a, Scalar(strides[d])), IntArrayRef(shape.data(), n)),
                                     Scalar(int64_t{1}));
    }
    return fx::reshape(pos, sizes);
  }
  // Whether two elements of the geometry may share memory (strides sorted: each at least the extent below it).
  static bool may_overlap(IntArrayRef sizes, IntArrayRef strides) {
    std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of the dims with several elements
    for (std::size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 0) return false;
      if (sizes[d] > 1) dims.emplace_back(strides[d], sizes[d]);
    }
    std::sort(dims.begin(), dims.end());
    int64_t extent = 1;
    for (const auto& [stride, size] : dims) {
      if (stride < extent) return true;
      extent = stride * (size - 1) + extent;
    }
    return false;
  }
  static int64_t extent(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {  // 1 + the last position
    int64_t last = offset;
    for (std::size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 0) return 0;
      last += (sizes[d] - 1) * strides[d];
    }
    return last + 1;
  }
  static Tensor self(const Tensor& g,
                     const saved<Op, "self.sizes", "self.strides", "self.storage_offset", "size", "stride", "storage_offset">& s) {
    const IntArrayRef in_sizes = s.get<"self.sizes">(), in_strides = s.get<"self.strides">();
    const int64_t in_offset = s.get<"self.storage_offset">();
    const std::vector<int64_t>& size = s.get<"size">();
    const std::vector<int64_t>& stride = s.get<"stride">();
    const int64_t offset = s.get<"storage_offset">().value_or(in_offset);
    const int64_t n = std::max(extent(in_sizes, in_strides, in_offset),
                               extent(IntArrayRef(size.data(), size.size()), IntArrayRef(stride.data(), stride.size()), offset));
    const int64_t flat_shape[1] = {-1};
    const IntArrayRef flat(flat_shape, 1);
    const Tensor out_pos = fx::reshape(positions(IntArrayRef(size.data(), size.size()), IntArrayRef(stride.data(), stride.size()),
                                                 offset, g),
                                       flat);
    const Tensor in_pos = fx::reshape(positions(in_sizes, in_strides, in_offset, g), flat);
    const Tensor storage =
        call<k::scatter_add>(fx::zeros_like_sizes(IntArrayRef(&n, 1), g), int64_t{0}, out_pos, fx::reshape(g, flat));
    Tensor r = call<k::gather>(storage, int64_t{0}, in_pos, false);
    if (may_overlap(in_sizes, in_strides)) {  // each position's gradient divided among the elements that share it
      const Tensor ones = fx::add_scalar(fx::zeros_like_sizes(in_pos.sizes(), g), 1);
      const Tensor count = call<k::scatter_add>(fx::zeros_like_sizes(IntArrayRef(&n, 1), g), int64_t{0}, in_pos, ones);
      r = fx::div(r, call<k::gather>(count, int64_t{0}, in_pos, false));
    }
    return fx::reshape(r, in_sizes);
  }
};
// as_strided_scatter, as PyTorch 1.13's as_strided_scatter_backward: the output is a contiguous copy
// of self with src written at the (size, stride, offset) positions, so self's gradient is the gradient
// with those positions zeroed and src's the gradient read at them, both through a dense copy of the
// gradient (its positions then mean what the output's did). 1.13 supports contiguous inputs only (its
// forward asserts it when self requires grad; with a non-contiguous self the output keeps self's
// strides and the positions would mean something else): the same error here, for either gradient.
struct as_strided_scatter_d {
  using Op = k::as_strided_scatter;
  static bool is_contiguous(IntArrayRef sizes, IntArrayRef strides) {
    int64_t expected = 1;
    for (std::size_t d = sizes.size(); d-- > 0;) {
      if (sizes[d] == 0) return true;
      if (sizes[d] != 1 && strides[d] != expected) return false;
      expected *= sizes[d];
    }
    return true;
  }
  static Tensor dense(const Tensor& g, IntArrayRef self_sizes, IntArrayRef self_strides) {
    OPD_CHECK(is_contiguous(self_sizes, self_strides), "as_strided_scatter is currently only supported for contiguous inputs");
    return g.is_contiguous() && g.storage_offset() == 0 ? g : call<k::clone>(g, MemoryFormat::Contiguous);
  }
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "self.strides", "src.sizes", "size", "stride",
                                                  "storage_offset">& s) {
    return call<k::as_strided_scatter>(dense(g, s.get<"self.sizes">(), s.get<"self.strides">()),
                                       fx::zeros_like_sizes(s.get<"src.sizes">(), g), fx::ints(s.get<"size">()),
                                       fx::ints(s.get<"stride">()), s.get<"storage_offset">());
  }
  static Tensor src(const Tensor& g, const saved<Op, "self.sizes", "self.strides", "size", "stride", "storage_offset">& s) {
    return call<k::as_strided>(dense(g, s.get<"self.sizes">(), s.get<"self.strides">()), fx::ints(s.get<"size">()),
                               fx::ints(s.get<"stride">()), s.get<"storage_offset">());
  }
};
// embedding_dense_backward (embedding's double backward): the rows of the gradient at the indices,
// zeros at padding_idx (PyTorch's embedding_dense_double_backward; with scale_grad_by_freq, as PyTorch,
// the first backward's scaling is not applied again)
struct embedding_dense_backward_d {
  using Op = k::embedding_dense_backward;
  static Tensor grad_output(const Tensor& g, const saved<Op, "grad_output.sizes", "indices", "padding_idx">& s) {
    const int64_t flat_idx[1] = {-1};
    const Tensor idx = fx::reshape(s.get<"indices">(), IntArrayRef(flat_idx, 1));
    Tensor rows = call<k::index_select>(g, int64_t{0}, idx);
    const int64_t pad = s.get<"padding_idx">();
    if (pad >= 0) {
      const Tensor at_pad = call<k::eq_scalar::functional>(idx, Scalar(pad));
      rows = call<k::where::functional>(call<k::unsqueeze>(at_pad, int64_t{1}), rx::zero0(rows), rows);
    }
    return fx::reshape(rows, s.get<"grad_output.sizes">());
  }
};
// unfold: unfold_backward (the windows added back); unfold_backward: linear, its gradient unfolds
struct unfold_d {
  using Op = k::unfold;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "dimension", "size", "step">& s) {
    return call<k::unfold_backward>(g, fx::ints(s.get<"self.sizes">()), s.get<"dimension">(), s.get<"size">(), s.get<"step">());
  }
  using OpB = k::unfold_backward;
  static Tensor grad_in(const Tensor& g, const saved<OpB, "dim", "size", "step">& s) {
    return call<k::unfold>(g, s.get<"dim">(), s.get<"size">(), s.get<"step">());
  }
};

// masked_scatter: self's gradient but where the mask wrote; source's: the gradient under the mask in
// order, zeros for the source elements not read. masked_select: put back under the mask. (self and
// mask broadcast together: reduced back to self's shape.)
struct masked_scatter_d {
  using Op = k::masked_scatter;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "mask">& s) {
    return fx::sum_to(call<k::where::functional>(s.get<"mask">(), rx::zero0(g), g), s.get<"self.sizes">());
  }
  static Tensor source(const Tensor& g, const saved<Op, "mask", "source.sizes">& s) {
    const IntArrayRef sizes = s.get<"source.sizes">();
    Tensor selected = call<k::masked_select>(g, s.get<"mask">());
    const int64_t missing = fx::count(sizes, rx::all_dims(static_cast<int64_t>(sizes.size()))) - selected.numel();
    if (missing > 0) {
      const Tensor parts[2] = {selected, fx::zeros_like_sizes(IntArrayRef(&missing, 1), g)};
      selected = call<k::cat>(std::span<const Tensor>(parts), int64_t{0});
    }
    return fx::reshape(selected, sizes);
  }
};
struct masked_select_d {
  using Op = k::masked_select;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "mask">& s) {
    const Tensor mask = s.get<"mask">();
    const IntArrayRef sizes = s.get<"self.sizes">(), ms = mask.sizes();
    std::vector<int64_t> full(std::max(sizes.size(), ms.size()), 1);  // the broadcast shape
    for (std::size_t i = 0; i < full.size(); ++i) {
      const std::size_t a = full.size() - sizes.size(), b = full.size() - ms.size();
      const int64_t x = i < a ? 1 : sizes[i - a], y = i < b ? 1 : ms[i - b];
      full[i] = x == 1 ? y : x;
    }
    const Tensor zeros = fx::zeros_like_sizes(IntArrayRef(full.data(), full.size()), g);
    return fx::sum_to(call<k::masked_scatter>(zeros, mask, g), sizes);
  }
};
struct clamp_min_tensor_d {  // PyTorch's clamp_backward_min_max without max: self where x >= min, min where x < min
  using Op = k::clamp_min_tensor::functional;
  static std::array<Tensor, 2> both(const Tensor& g, const saved<Op, "self", "min">& s) {
    const Tensor x = s.get<"self">(), lo = s.get<"min">();
    const Tensor below = call<k::lt::functional>(x, lo);
    return {fx::sum_to(call<k::where::functional>(below, rx::zero0(g), g), x.sizes()),
            fx::sum_to(rx::where0(below, g), lo.sizes())};
  }
};
template <class Op>
struct triangle_d {  // tril, triu: the same triangle of the gradient
  static Tensor self(const Tensor& g, const saved<Op, "diagonal">& s) { return call<Op>(g, s.template get<"diagonal">()); }
};
struct scatter_d {  // scatter.src / scatter.value: self's gradient but where it was overwritten; src: gathered
  static Tensor self(const Tensor& g, const saved<k::scatter_src, "dim", "index">& s) {
    return call<k::scatter_value>(g, s.get<"dim">(), s.get<"index">(), Scalar(0));
  }
  static Tensor src(const Tensor& g, const saved<k::scatter_src, "dim", "index">& s) {
    return call<k::gather>(g, s.get<"dim">(), s.get<"index">());
  }
  static Tensor value_self(const Tensor& g, const saved<k::scatter_value, "dim", "index">& s) {
    return call<k::scatter_value>(g, s.get<"dim">(), s.get<"index">(), Scalar(0));
  }
};
// scatter_reduce.two, PyTorch 1.13's scatter_reduce_backward. sum: self gets grad, src grad gathered;
// mean: both divided by the count of each position's values (self's included or not); prod: the
// product without the element itself, from results with zeros set to 1 (a src zero alone at its
// position gets the product of the others); amax/amin: shared evenly among the values equal to the
// result. Without include_self, self gets nothing where src was scattered. With several src zeros at
// one position, 1.13's double backward is an error when run; here creating the graph is.
struct scatter_reduce_d {
  using Op = k::scatter_reduce_two;
  static std::array<Tensor, 2> both(const Tensor& g,
                                    const saved<Op, "self", "dim", "index", "src", "reduce", "include_self", "result">& s) {
    const Tensor self = s.get<"self">(), index = s.get<"index">(), src = s.get<"src">(), result = s.get<"result">();
    const int64_t dim = s.get<"dim">();
    const auto& reduce = s.get<"reduce">();
    const bool include_self = s.get<"include_self">();
    const auto gather = [&](const Tensor& t) { return call<k::gather>(t, dim, index, false); };
    const auto as_values = [&](const Tensor& mask) { return call<k::to_dtype>(mask, g.dtype(), false, false, std::nullopt); };
    const auto is = [](const Tensor& t, double v) { return call<k::eq_scalar::functional>(t, Scalar(v)); };
    const auto fill = [](const Tensor& t, const Tensor& mask, double v) { return call<k::masked_fill_scalar>(t, mask, Scalar(v)); };
    const auto ones = [](const Tensor& like) { return fx::add_scalar(fx::zeros_like_sizes(like.sizes(), like), 1); };
    Tensor gs, gsrc;
    if (reduce == "sum") {
      gs = g;
      gsrc = gather(g);
    } else if (reduce == "mean") {
      Tensor n = include_self ? ones(g) : fx::zeros_like_sizes(g.sizes(), g);
      n = call<k::scatter_add>(n, dim, index, ones(src));
      n = fill(n, is(n, 0), 1);
      gs = fx::div(g, n);
      gsrc = fx::div(gather(g), gather(n));
    } else if (reduce == "prod") {
      const Tensor masked_self = fill(self, is(self, 0), 1);
      gs = fx::div(fx::mul(g, call<Op>(masked_self, dim, index, src, reduce, include_self)), masked_self);
      const Tensor src_zero = is(src, 0);
      const Tensor zeros_at = gather(call<k::scatter_add>(fx::zeros_like_sizes(self.sizes(), g), dim, index, as_values(src_zero)));
      const Tensor single_zero = call<k::logical_and::functional>(src_zero, is(zeros_at, 1));
      const Tensor others = call<Op>(self, dim, index, fill(src, single_zero, 1), reduce, include_self);
      gsrc = call<k::where::functional>(single_zero, gather(fx::mul(g, others)),
                                        fx::div(gather(fx::mul(g, result)), fill(src, src_zero, 1)));
      if (GradMode::is_enabled()) {
        const Tensor several = call<k::gt_scalar::functional>(zeros_at, Scalar(1));
        OPD_CHECK(opd::to_vector<int64_t>(call<k::sum>(several, ScalarType::Long)).at(0) == 0,
                  "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src are scattered to the "
                  "same position.");
      }
    } else {  // amax, amin
      const Tensor self_is = as_values(rx::eq(self, result)), src_is = as_values(rx::eq(src, gather(result)));
      const Tensor shared = fx::div(g, call<k::scatter_add>(self_is, dim, index, src_is));
      gs = fx::mul(self_is, shared);
      gsrc = fx::mul(src_is, gather(shared));
    }
    if (!include_self) gs = call<k::scatter_value>(gs, dim, index, Scalar(0));
    return {gs, gsrc};
  }
};
struct constant_pad_nd_d {  // the padding cut off again (negative pads crop)
  using Op = k::constant_pad_nd;
  static Tensor self(const Tensor& g, const saved<Op, "pad">& s) {
    std::vector<int64_t> cut(s.get<"pad">());
    for (int64_t& p : cut) p = -p;
    return call<k::constant_pad_nd>(g, fx::ints(cut), Scalar(0));
  }
};
struct clamp_min_d {  // grad where self >= min
  using Op = k::clamp_min::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self", "min">& s) {
    return fx::mul(g, call<k::ge_scalar::functional>(s.get<"self">(), s.get<"min">()));
  }
};

// nll_loss_forward / nll_loss2d_forward (Forward) and their backward operators
// (Backward), as derivatives.yaml: self gets Backward (the library's kernel),
// itself differentiable: its grad_output gets the loss of the gradient
// (Backward is linear in grad_output), its self zeros. PyTorch 1.13 has no
// formula for `weight` (its forward refuses a weight that requires grad):
// here the backward pass says so rather than leaving it without a gradient.
template <class Forward, class Backward>
struct nll_loss_d {
  static Tensor self(const Tensor& g,
                     const saved<Forward, "self", "target", "weight", "reduction", "ignore_index", "result1">& s) {
    return call<Backward>(g, s.template get<"self">(), s.template get<"target">(), fx::opt(s.template get<"weight">()), s.template get<"reduction">(),
                          s.template get<"ignore_index">(), s.template get<"result1">());
  }
  static Tensor grad_output(const Tensor& g, const saved<Backward, "target", "weight", "reduction", "ignore_index">& s) {
    return std::get<0>(call<Forward>(g, s.template get<"target">(), fx::opt(s.template get<"weight">()), s.template get<"reduction">(),
                                     s.template get<"ignore_index">()));
  }
  static Tensor zeros(const Tensor& g) { return fx::zeros_like_sizes(g.sizes(), g); }
  static Tensor weight(const Tensor&) {
    throw NotImplementedError(std::string(Forward::name) + ": the derivative for 'weight' is not implemented");
  }
};
using nll_d = nll_loss_d<k::nll_loss_forward, k::nll_loss_backward>;
using nll2d_d = nll_loss_d<k::nll_loss2d_forward, k::nll_loss2d_backward>;

}  // namespace formulas_detail


namespace fd = formulas_detail;
namespace kops = kernels::ops;
OPD_AUTOGRAD_DERIVATIVES(kops::amax, "AmaxBackward0", formula<"self", &fd::extremum_all_d<kops::amax>::reduced>);
OPD_AUTOGRAD_DERIVATIVES(kops::amin, "AminBackward0", formula<"self", &fd::extremum_all_d<kops::amin>::reduced>);
OPD_AUTOGRAD_DERIVATIVES(kops::max, "MaxBackward1", formula<"self", &fd::extremum_all_d<kops::max>::whole>);
OPD_AUTOGRAD_DERIVATIVES(kops::min, "MinBackward1", formula<"self", &fd::extremum_all_d<kops::min>::whole>);
OPD_AUTOGRAD_DERIVATIVES(kops::logsumexp, "LogsumexpBackward0", formula<"self", &fd::logsumexp_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::prod, "ProdBackward0", formula<"self", &fd::prod_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::prod_dim, "ProdBackward1", formula<"self", &fd::prod_dim_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::cumprod, "CumprodBackward0", formula<"self", &fd::cumprod_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::var, "VarBackward0", formula<"self", &fd::var_d<kops::var>::all>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::var_dim, "VarBackward1", formula<"self", &fd::var_d<kops::var_dim>::dim>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::var_correction, "VarBackward2", formula<"self", &fd::var_d<kops::var_correction>::correction>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::std_dev, "StdBackward0", formula<"self", &fd::std_d<kops::std_dev>::all>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::std_dev_dim, "StdBackward1", formula<"self", &fd::std_d<kops::std_dev_dim>::dim>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::std_dev_correction, "StdBackward2",
                         formula<"self", &fd::std_d<kops::std_dev_correction>::correction>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::norm_scalar, "NormBackward0", formula<"self", &fd::norm_d::scalar>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::norm_scalaropt_dim, "NormBackward1", formula<"self", &fd::norm_d::dim>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::norm_scalaropt_dtype, "NormBackward2", formula<"self", &fd::norm_d::dtype>);
OPD_AUTOGRAD_DERIVATIVES(kops::norm_scalaropt_dim_dtype, "NormBackward3", formula<"self", &fd::norm_d::dim_dtype>);
OPD_AUTOGRAD_DERIVATIVES(kops::cdist_forward, "CdistBackward0", formula<"x1, x2", &fd::cdist_d::both>);
OPD_AUTOGRAD_DERIVATIVES(kops::pdist_forward, "PdistBackward0", formula<"self", &fd::pdist_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::cumsum, "CumsumBackward0", formula<"self", &fd::cumsum_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::flip, "FlipBackward0", formula<"self", &fd::flip_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::roll, "RollBackward0", formula<"self", &fd::roll_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::repeat, "RepeatBackward0", formula<"self", &fd::repeat_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::select, "SelectBackward0", formula<"self", &fd::select_int_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::select_scatter, "SelectScatterBackward0", formula<"self", &fd::select_int_d::scatter_self>,
                         formula<"src", &fd::select_int_d::scatter_src>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::index_select, "IndexSelectBackward0", formula<"self", &fd::index_select_d::self>,
                         non_differentiable<"index">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::masked_fill_scalar, "MaskedFillBackward0", formula<"self", &fd::masked_fill_d::self>,
                         non_differentiable<"mask">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::masked_fill_tensor, "MaskedFillBackward1", formula<"self", &fd::masked_fill_d::self_t>,
                         formula<"value", &fd::masked_fill_d::value>, non_differentiable<"mask">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::embedding, "EmbeddingBackward0", formula<"weight", &fd::embedding_d::weight>,
                         non_differentiable<"indices">);
OPD_AUTOGRAD_DERIVATIVES(kops::embedding_bag_, "EmbeddingBagBackward0", formula<"weight", &fd::embedding_bag_d::weight>,
                         formula<"per_sample_weights", &fd::embedding_bag_d::per_sample_weights>,
                         non_differentiable<"indices", "offsets">, output_differentiability<true, false, false, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::native_dropout, "NativeDropoutBackward0", formula<"input", &fd::native_dropout_d::input>,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::native_dropout_backward, "NativeDropoutBackwardBackward0",
                         formula<"grad_output", &fd::native_dropout_backward_d::grad_output>, non_differentiable<"mask">);
OPD_AUTOGRAD_DERIVATIVES(kops::zero, "ZeroBackward0", formula<"self", &fd::constant_d::zeros>);
OPD_AUTOGRAD_DERIVATIVES(kops::fill, "FillBackward0", formula<"self", &fd::constant_d::zeros>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::lift_fresh, "LiftFreshBackward0", formula<"self", &fd::constant_d::identity>);
OPD_AUTOGRAD_DERIVATIVES(kops::reshape_alias, "ReshapeAliasBackward0", formula<"self", &fd::reshape_alias_d::self>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::diagonal, "DiagonalBackward0", formula<"self", &fd::diagonal_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::diagonal_scatter, "DiagonalScatterBackward0", formula<"self", &fd::diagonal_d::scatter_self>,
                         formula<"src", &fd::diagonal_d::scatter_src>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::unfold, "UnfoldBackward0", formula<"self", &fd::unfold_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::as_strided, "AsStridedBackward0", formula<"self", &fd::as_strided_d::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::as_strided_scatter, "AsStridedScatterBackward0",
                         formula<"self", &fd::as_strided_scatter_d::self>, formula<"src", &fd::as_strided_scatter_d::src>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::embedding_dense_backward, "EmbeddingDenseBackwardBackward0",
                         formula<"grad_output", &fd::embedding_dense_backward_d::grad_output>, non_differentiable<"indices">);
OPD_AUTOGRAD_DERIVATIVES(kops::unfold_backward, "UnfoldBackwardBackward0", formula<"grad_in", &fd::unfold_d::grad_in>,
                         complex_verified);

OPD_AUTOGRAD_DERIVATIVES(kops::tril, "TrilBackward0", formula<"self", &fd::triangle_d<kops::tril>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::triu, "TriuBackward0", formula<"self", &fd::triangle_d<kops::triu>::self>, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::scatter_src, "ScatterBackward0", formula<"self", &fd::scatter_d::self>,
                         formula<"src", &fd::scatter_d::src>, non_differentiable<"index">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::scatter_value, "ScatterBackward1", formula<"self", &fd::scatter_d::value_self>,
                         non_differentiable<"index">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::scatter_reduce_two, "ScatterReduceBackward0", formula<"self, src", &fd::scatter_reduce_d::both>,
                         non_differentiable<"index">);
OPD_AUTOGRAD_DERIVATIVES(kops::constant_pad_nd, "ConstantPadNdBackward0", formula<"self", &fd::constant_pad_nd_d::self>,
                         complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::masked_scatter, "MaskedScatterBackward0", formula<"self", &fd::masked_scatter_d::self>,
                         formula<"source", &fd::masked_scatter_d::source>, non_differentiable<"mask">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::masked_select, "MaskedSelectBackward0", formula<"self", &fd::masked_select_d::self>,
                         non_differentiable<"mask">, complex_verified);
OPD_AUTOGRAD_DERIVATIVES(kops::clamp_min_tensor::functional, "ClampMinBackward1", formula<"self, min", &fd::clamp_min_tensor_d::both>);
OPD_AUTOGRAD_DERIVATIVES(kops::clamp_min::functional, "ClampMinBackward0", formula<"self", &fd::clamp_min_d::self>);

OPD_AUTOGRAD_DERIVATIVES(kops::nll_loss_forward, "NllLossBackward0", formula<"self", &fd::nll_d::self>,
                         formula<"weight", &fd::nll_d::weight>, non_differentiable<"target">,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::nll_loss2d_forward, "NllLoss2DBackward0", formula<"self", &fd::nll2d_d::self>,
                         formula<"weight", &fd::nll2d_d::weight>, non_differentiable<"target">,
                         output_differentiability<true, false>);
OPD_AUTOGRAD_DERIVATIVES(kops::nll_loss_backward, "NllLossBackwardBackward0",
                         formula<"grad_output", &fd::nll_d::grad_output>, formula<"self", &fd::nll_d::zeros>,
                         formula<"weight", &fd::nll_d::weight>, non_differentiable<"target", "total_weight">);
OPD_AUTOGRAD_DERIVATIVES(kops::nll_loss2d_backward, "NllLoss2DBackwardBackward0",
                         formula<"grad_output", &fd::nll2d_d::grad_output>, formula<"self", &fd::nll2d_d::zeros>,
                         formula<"weight", &fd::nll2d_d::weight>, non_differentiable<"target", "total_weight">);

OPD_FUNC formulas_detail::registrar formulas_detail::reduction_formulas() {
  formulas_detail::registrar r;
  r.functional<kops::amax>();
  r.functional<kops::amin>();
  r.functional<kops::max>();
  r.functional<kops::min>();
  r.functional<kops::logsumexp>();
  r.functional<kops::prod>();
  r.functional<kops::prod_dim>();
  r.functional<kops::cumprod>();
  r.functional<kops::var>();
  r.functional<kops::var_dim>();
  r.functional<kops::var_correction>();
  r.functional<kops::std_dev>();
  r.functional<kops::std_dev_dim>();
  r.functional<kops::std_dev_correction>();
  r.functional<kops::norm_scalar>();
  r.functional<kops::norm_scalaropt_dim>();
  r.functional<kops::norm_scalaropt_dtype>();
  r.functional<kops::norm_scalaropt_dim_dtype>();
  r.functional<kops::cdist_forward>();
  r.functional<kops::pdist_forward>();
  r.functional<kops::cumsum>();
  r.functional<kops::flip>();
  r.functional<kops::roll>();
  r.functional<kops::repeat>();
  r.functional<kops::select>();
  r.functional<kops::select_scatter>();
  r.view_copy<kops::select>();
  r.functional<kops::index_select>();
  r.functional<kops::masked_fill_scalar>();
  r.inplace_of<kops::masked_fill_scalar, kops::masked_fill_scalar_>();
  r.functional<kops::masked_fill_tensor>();
  r.inplace_of<kops::masked_fill_tensor, kops::masked_fill_tensor_>();
  r.functional<kops::embedding>();
  r.functional<kops::embedding_bag_>();
  r.functional<kops::native_dropout>();
  r.functional<kops::native_dropout_backward>();
  r.functional<kops::zero>();
  r.functional<kops::fill>();
  r.functional<kops::lift_fresh>();
  r.functional<kops::reshape_alias>();
  r.functional<kops::diagonal>();
  r.view_copy<kops::diagonal>();
  r.functional<kops::diagonal_scatter>();
  r.functional<kops::unfold>();
  r.view_copy<kops::unfold>();
  r.functional<kops::unfold_backward>();
  r.functional<kops::as_strided>();
  r.view_copy<kops::as_strided>();
  r.functional<kops::as_strided_scatter>();
  r.functional<kops::embedding_dense_backward>();
  r.functional<kops::tril>();
  r.functional<kops::triu>();
  r.functional<kops::scatter_src>();
  r.functional<kops::scatter_value>();
  r.functional<kops::scatter_reduce_two>();
  r.inplace_of<kops::scatter_reduce_two, kops::scatter_reduce__two>();
  r.functional<kops::constant_pad_nd>();
  r.family<kops::clamp_min>();
  r.family<kops::clamp_min_tensor>();
  r.functional<kops::masked_scatter>();
  r.functional<kops::masked_select>();
  r.functional<kops::nll_loss_forward>();
  r.functional<kops::nll_loss2d_forward>();
  r.functional<kops::nll_loss_backward>();
  r.functional<kops::nll_loss2d_backward>();
  return r;
}

}  // namespace opd::autograd
