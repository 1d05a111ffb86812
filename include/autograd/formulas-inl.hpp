#pragma once
// Formulas for the library's operators, with PyTorch 1.13's semantics
// (derivatives.yaml): each is an ordinary call of the library's operators, so
// a backward pass is itself differentiable (create_graph).
#include <algorithm>
#include <mutex>
#include <array>
#include <numeric>
#include <vector>

#include "autograd/autograd_kernel.hpp"
#include "autograd/derivatives.hpp"
#include "autograd/formulas.hpp"
#include "autograd/layers.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_linalg.hpp"
#include "kernels/ops_pointwise.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_views.hpp"

namespace opd::autograd {

namespace fx {
namespace k = kernels::ops;
using std::int64_t;

inline Tensor mul(const Tensor& a, const Tensor& b) { return call<k::mul::functional>(a, b); }
inline Tensor mul(const Tensor& a, const Scalar& b) { return call<k::mul_scalar::functional>(a, b); }
inline Tensor div(const Tensor& a, const Tensor& b) { return call<k::div::functional>(a, b); }
inline Tensor add(const Tensor& a, const Tensor& b) { return call<k::add::functional>(a, b); }
inline Tensor sub(const Tensor& a, const Tensor& b) { return call<k::sub::functional>(a, b); }
inline Tensor neg(const Tensor& a) { return call<k::neg::functional>(a); }
inline Tensor reshape(const Tensor& a, IntArrayRef s) { return call<k::reshape>(a, std::span<const int64_t>(s.data(), s.size())); }
inline Tensor transpose(const Tensor& a, int64_t d0, int64_t d1) { return call<k::transpose>(a, d0, d1); }
inline Tensor mT(const Tensor& a) { return transpose(a, -2, -1); }
inline Tensor sum_dims(const Tensor& a, const std::vector<int64_t>& dims, bool keepdim) {
  return call<k::sum_dim>(a, std::optional<std::span<const int64_t>>(std::span<const int64_t>(dims)), keepdim);
}
inline Tensor expand(const Tensor& a, IntArrayRef s) { return call<k::expand>(a, std::span<const int64_t>(s.data(), s.size())); }

// PyTorch's sum_to: the gradient of a broadcast, reduced back to `sizes`.
inline Tensor sum_to(const Tensor& g, IntArrayRef sizes) {
  if (g.sizes() == sizes) return g;
  const int64_t lead = g.dim() - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < g.dim(); ++d) {
    if (d < lead || (sizes[static_cast<std::size_t>(d - lead)] == 1 && g.size(d) != 1)) dims.push_back(d);
  }
  Tensor r = dims.empty() ? g : sum_dims(g, dims, true);
  return r.sizes() == sizes ? r : reshape(r, sizes);
}

// The reduced dims of sum/mean.dim, wrapped and sorted (all of them for None or []).
inline std::vector<int64_t> reduced_dims(const std::optional<std::vector<int64_t>>& dim, int64_t ndim) {
  std::vector<int64_t> dims;
  if (!dim || dim->empty()) {
    dims.resize(static_cast<std::size_t>(ndim));
    std::iota(dims.begin(), dims.end(), 0);
  } else {
    for (int64_t d : *dim) dims.push_back(opd::detail::wrap_dim(d, ndim));
    std::sort(dims.begin(), dims.end());
  }
  return dims;
}
// The gradient of a reduction over `dims` (keepdim or not), broadcast back to `sizes`.
inline Tensor unreduce(const Tensor& g, IntArrayRef sizes, const std::vector<int64_t>& dims, bool keepdim) {
  Tensor r = g;
  if (!keepdim && !sizes.empty()) {
    for (int64_t d : dims) r = call<k::unsqueeze>(r, d);
  }
  return expand(r, sizes);
}
inline int64_t count(IntArrayRef sizes, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes.empty() ? 1 : sizes[static_cast<std::size_t>(d)];
  return n;
}

}  // namespace fx

// ---- declarations: one struct of formulas per family --------------------------------------
namespace formulas_detail {
namespace k = kernels::ops;
using fx::int64_t;

struct add_d {
  using Op = k::add::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes">& s) { return fx::sum_to(g, s.get<"self.sizes">()); }
  static Tensor other(const Tensor& g, const saved<Op, "other.sizes", "alpha">& s) {
    return fx::sum_to(fx::mul(g, s.get<"alpha">()), s.get<"other.sizes">());
  }
};
struct sub_d {
  using Op = k::sub::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes">& s) { return fx::sum_to(g, s.get<"self.sizes">()); }
  static Tensor other(const Tensor& g, const saved<Op, "other.sizes", "alpha">& s) {
    return fx::sum_to(fx::mul(g, Scalar(-s.get<"alpha">().to_double())), s.get<"other.sizes">());
  }
};
struct scalar_first_d {  // add.Scalar, sub.Scalar: d/dself = grad
  static Tensor self(const Tensor& g) { return g; }
};
struct mul_d {
  using Op = k::mul::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "self.sizes">& s) {
    return fx::sum_to(fx::mul(g, s.get<"other">()), s.get<"self.sizes">());
  }
  static Tensor other(const Tensor& g, const saved<Op, "self", "other.sizes">& s) {
    return fx::sum_to(fx::mul(g, s.get<"self">()), s.get<"other.sizes">());
  }
};
struct mul_scalar_d {
  using Op = k::mul_scalar::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other">& s) { return fx::mul(g, s.get<"other">()); }
};
struct div_d {
  using Op = k::div::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other", "self.sizes">& s) {
    return fx::sum_to(fx::div(g, s.get<"other">()), s.get<"self.sizes">());
  }
  static Tensor other(const Tensor& g, const saved<Op, "self", "other", "other.sizes">& s) {
    const Tensor o = s.get<"other">();
    return fx::sum_to(fx::neg(fx::div(fx::mul(g, s.get<"self">()), fx::mul(o, o))), s.get<"other.sizes">());
  }
};
struct div_scalar_d {
  using Op = k::div_scalar::functional;
  static Tensor self(const Tensor& g, const saved<Op, "other">& s) {
    return call<k::div_scalar::functional>(g, s.get<"other">());
  }
};
struct neg_d {
  static Tensor self(const Tensor& g) { return fx::neg(g); }
};
struct exp_d {
  using Op = k::exp::functional;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) { return fx::mul(g, s.get<"result">()); }
};
struct log_d {
  using Op = k::log::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self">& s) { return fx::div(g, s.get<"self">()); }
};
struct tanh_d {  // grad * (1 - result^2)
  using Op = k::tanh::functional;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) {
    const Tensor r = s.get<"result">();
    return fx::sub(g, fx::mul(g, fx::mul(r, r)));
  }
};
struct sigmoid_d {  // grad * result * (1 - result)
  using Op = k::sigmoid::functional;
  static Tensor self(const Tensor& g, const saved<Op, "result">& s) {
    const Tensor r = s.get<"result">();
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
struct pow_scalar_d {  // grad * exponent * self^(exponent - 1); zero for exponent 0
  using Op = k::pow_scalar;
  static Tensor self(const Tensor& g, const saved<Op, "self", "exponent">& s) {
    const Scalar& e = s.get<"exponent">();
    const Tensor self = s.get<"self">();
    if (e.equal(0)) return fx::mul(g, Scalar(0.0));
    const Scalar e1 = e.is_floating_point() ? Scalar(e.to_double() - 1) : Scalar(e.to_long() - 1);
    return fx::mul(fx::mul(g, e), call<k::pow_scalar>(self, e1));
  }
};
struct sum_d {
  using Op = k::sum;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes">& s) { return fx::expand(g, s.get<"self.sizes">()); }
};
struct sum_dim_d {
  using Op = k::sum_dim;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "dim", "keepdim">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const auto dims = fx::reduced_dims(s.get<"dim">(), static_cast<int64_t>(sizes.size()));
    return fx::unreduce(g, sizes, dims, s.get<"keepdim">());
  }
};
struct mean_d {
  using Op = k::mean;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    int64_t n = 1;
    for (int64_t v : sizes) n *= v;
    return call<k::div_scalar::functional>(fx::expand(g, sizes), Scalar(n));
  }
};
struct mean_dim_d {
  using Op = k::mean_dim;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "dim", "keepdim">& s) {
    const IntArrayRef sizes = s.get<"self.sizes">();
    const auto dims = fx::reduced_dims(s.get<"dim">(), static_cast<int64_t>(sizes.size()));
    const Tensor e = fx::unreduce(g, sizes, dims, s.get<"keepdim">());
    return call<k::div_scalar::functional>(e, Scalar(fx::count(sizes, dims)));
  }
};
struct mm_d {
  using Op = k::mm;
  static Tensor self(const Tensor& g, const saved<Op, "mat2">& s) { return call<k::mm>(g, fx::mT(s.get<"mat2">())); }
  static Tensor mat2(const Tensor& g, const saved<Op, "self">& s) { return call<k::mm>(fx::mT(s.get<"self">()), g); }
};
struct bmm_d {
  using Op = k::bmm;
  static Tensor self(const Tensor& g, const saved<Op, "mat2">& s) { return call<k::bmm>(g, fx::mT(s.get<"mat2">())); }
  static Tensor mat2(const Tensor& g, const saved<Op, "self">& s) { return call<k::bmm>(fx::mT(s.get<"self">()), g); }
};
struct addmm_d {
  using Op = k::addmm::functional;
  static Tensor self(const Tensor& g, const saved<Op, "self.sizes", "beta">& s) {
    return fx::sum_to(fx::mul(g, s.get<"beta">()), s.get<"self.sizes">());
  }
  static Tensor mat1(const Tensor& g, const saved<Op, "mat2", "alpha">& s) {
    return fx::mul(call<k::mm>(g, fx::mT(s.get<"mat2">())), s.get<"alpha">());
  }
  static Tensor mat2(const Tensor& g, const saved<Op, "mat1", "alpha">& s) {
    return fx::mul(call<k::mm>(fx::mT(s.get<"mat1">()), g), s.get<"alpha">());
  }
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
    Tensor gself = fx::reshape(fx::sum_to(call<k::matmul>(g2, fx::mT(o2)), s2.sizes()), self.sizes());
    Tensor gother = fx::reshape(fx::sum_to(call<k::matmul>(fx::mT(s2), g2), o2.sizes()), other.sizes());
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

}  // namespace formulas_detail

#define OPD_AUTOGRAD_DERIVATIVES(OP, ...) \
  template <>                             \
  struct derivatives_of<OP> : derivatives<__VA_ARGS__> {}

namespace fd = formulas_detail;
namespace kops = kernels::ops;
OPD_AUTOGRAD_DERIVATIVES(kops::add::functional, "AddBackward0", formula<"self", &fd::add_d::self>, formula<"other", &fd::add_d::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::sub::functional, "SubBackward0", formula<"self", &fd::sub_d::self>, formula<"other", &fd::sub_d::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::add_scalar::functional, "AddBackward1", formula<"self", &fd::scalar_first_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::sub_scalar::functional, "SubBackward1", formula<"self", &fd::scalar_first_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::mul::functional, "MulBackward0", formula<"self", &fd::mul_d::self>, formula<"other", &fd::mul_d::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::mul_scalar::functional, "MulBackward1", formula<"self", &fd::mul_scalar_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::div::functional, "DivBackward0", formula<"self", &fd::div_d::self>, formula<"other", &fd::div_d::other>);
OPD_AUTOGRAD_DERIVATIVES(kops::div_scalar::functional, "DivBackward1", formula<"self", &fd::div_scalar_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::neg::functional, "NegBackward0", formula<"self", &fd::neg_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::exp::functional, "ExpBackward0", formula<"self", &fd::exp_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::log::functional, "LogBackward0", formula<"self", &fd::log_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::tanh::functional, "TanhBackward0", formula<"self", &fd::tanh_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::sigmoid::functional, "SigmoidBackward0", formula<"self", &fd::sigmoid_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::relu, "ReluBackward0", formula<"self", &fd::relu_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::pow_scalar, "PowBackward0", formula<"self", &fd::pow_scalar_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::sum, "SumBackward0", formula<"self", &fd::sum_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::sum_dim, "SumBackward1", formula<"self", &fd::sum_dim_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::mean, "MeanBackward0", formula<"self", &fd::mean_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::mean_dim, "MeanBackward1", formula<"self", &fd::mean_dim_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::mm, "MmBackward0", formula<"self", &fd::mm_d::self>, formula<"mat2", &fd::mm_d::mat2>);
OPD_AUTOGRAD_DERIVATIVES(kops::bmm, "BmmBackward0", formula<"self", &fd::bmm_d::self>, formula<"mat2", &fd::bmm_d::mat2>);
OPD_AUTOGRAD_DERIVATIVES(kops::addmm::functional, "AddmmBackward0", formula<"self", &fd::addmm_d::self>,
                         formula<"mat1", &fd::addmm_d::mat1>, formula<"mat2", &fd::addmm_d::mat2>);
OPD_AUTOGRAD_DERIVATIVES(kops::matmul, "MatmulBackward0", formula<"self, other", &fd::matmul_d::both>);
OPD_AUTOGRAD_DERIVATIVES(kops::t, "TBackward0", formula<"self", &fd::t_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::transpose, "TransposeBackward0", formula<"self", &fd::transpose_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::view, "ViewBackward0", formula<"self", &fd::restore_shape_d<kops::view>::reshape>);
OPD_AUTOGRAD_DERIVATIVES(kops::expand, "ExpandBackward0", formula<"self", &fd::restore_shape_d<kops::expand>::sum_to>);
OPD_AUTOGRAD_DERIVATIVES(kops::unsqueeze, "UnsqueezeBackward0", formula<"self", &fd::restore_shape_d<kops::unsqueeze>::reshape>);
OPD_AUTOGRAD_DERIVATIVES(kops::squeeze, "SqueezeBackward0", formula<"self", &fd::restore_shape_d<kops::squeeze>::reshape>);
OPD_AUTOGRAD_DERIVATIVES(kops::squeeze_dim, "SqueezeBackward1", formula<"self", &fd::restore_shape_d<kops::squeeze_dim>::reshape>);
// Composite views that make their result directly (not through view operators): their own formulas.
OPD_AUTOGRAD_DERIVATIVES(kops::reshape, "ViewBackward0", formula<"self", &fd::restore_shape_d<kops::reshape>::reshape>);
OPD_AUTOGRAD_DERIVATIVES(kops::flatten, "ViewBackward0", formula<"self", &fd::restore_shape_d<kops::flatten>::reshape>);
OPD_AUTOGRAD_DERIVATIVES(kops::expand_as, "ExpandBackward0", formula<"self", &fd::restore_shape_d<kops::expand_as>::sum_to>,
                         non_differentiable<"other">);
OPD_AUTOGRAD_DERIVATIVES(kops::contiguous, "CloneBackward0", formula<"self", &fd::identity_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::permute, "PermuteBackward0", formula<"self", &fd::permute_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::clone, "CloneBackward0", formula<"self", &fd::identity_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::alias, "AliasBackward0", formula<"self", &fd::identity_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::softmax, "SoftmaxBackward0", formula<"self", &fd::softmax_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::internal_softmax, "SoftmaxBackward0", formula<"self", &fd::softmax_d::self_>);
OPD_AUTOGRAD_DERIVATIVES(kops::log_softmax, "LogSoftmaxBackward0", formula<"self", &fd::log_softmax_d::self>);
OPD_AUTOGRAD_DERIVATIVES(kops::internal_log_softmax, "LogSoftmaxBackward0", formula<"self", &fd::log_softmax_d::self_>);
#undef OPD_AUTOGRAD_DERIVATIVES

namespace formulas_detail {

struct registrar {
  RegistrationSet set;
  std::vector<std::string> typed;  // operators with a typed ADInplaceOrView kernel
  std::vector<std::string> names;  // operators with formulas

  template <class Op>
  void functional() {
    set.add(register_derivatives<Op>());
    names.emplace_back(std::string(Op::name) + (Op::overload_name.empty() ? "" : ".") + std::string(Op::overload_name));
  }
  // A structured family: the functional's formulas serve the in-place variant too.
  template <class Family>
  void family() {
    using F = typename Family::functional;
    functional<F>();
    if constexpr (Family::has_inplace) {
      using I = typename Family::inplace;
      set.add(register_derivatives<I, derivatives_t<F>>());
      set.add(register_inplace_or_view<I>());
      typed.emplace_back(std::string(I::name) + (I::overload_name.empty() ? "" : ".") + std::string(I::overload_name));
    }
    using O = typename Family::out;
    set.add(register_inplace_or_view<O>());
    typed.emplace_back(std::string(O::name) + "." + std::string(O::overload_name));
  }
};

// The names registered by register_autograd (for gradcheck over the registry).
inline std::vector<std::string>& registered_names() {
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
  r.functional<kops::relu>();
  r.functional<kops::pow_scalar>();
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
  r.functional<kops::softmax>();
  r.functional<kops::internal_softmax>();
  r.functional<kops::log_softmax>();
  r.functional<kops::internal_log_softmax>();
  r.set.add(register_non_differentiable<kops::detach>());
  r.set.add(register_autograd_layers(r.typed));
  {
    std::lock_guard<std::mutex> lock(formulas_detail::registered_names_mutex());
    formulas_detail::registered_names() = r.names;
  }
  return std::move(r.set);
}

OPD_FUNC std::vector<std::string> operators_with_formulas() {
  std::lock_guard<std::mutex> lock(formulas_detail::registered_names_mutex());
  return formulas_detail::registered_names();
}

}  // namespace opd::autograd
