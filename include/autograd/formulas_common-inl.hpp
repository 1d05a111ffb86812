#pragma once
// What the formula sources share (formulas-inl.hpp, formulas_pointwise-inl.hpp,
// formulas_reductions-inl.hpp, formulas_lists-inl.hpp):
// the helpers formulas are written with (fx::, ordinary calls of the library's
// operators, so that a backward pass is itself differentiable) and the
// registrar that registers a group of operators' derived kernels. Each group
// is compiled in its own source (src/autograd_formulas*.cpp), so the library
// build compiles them in parallel.
#include <algorithm>
#include <array>
#include <complex>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "autograd/autograd_kernel.hpp"
#include "autograd/derivatives.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/layers.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_batch_norm.hpp"
#include "kernels/ops_complex.hpp"
#include "kernels/ops_complex_views.hpp"
#include "kernels/ops_conv.hpp"
#include "kernels/ops_linalg.hpp"
#include "kernels/ops_nn.hpp"
#include "kernels/ops_pointwise.hpp"
#include "kernels/ops_pooling.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_scatter.hpp"
#include "kernels/ops_shape.hpp"
#include "kernels/ops_view_copies.hpp"
#include "kernels/ops_views.hpp"


// OPD_AUTOGRAD_DERIVATIVES(op, "NameBackward0", formula<...>...): an
// operator's derivatives, declared in the formula sources (inside
// opd::autograd) as the specialization derivatives_of<op> reads.
#define OPD_AUTOGRAD_DERIVATIVES(OP, ...) \
  template <>                             \
  struct derivatives_of<OP> : derivatives<__VA_ARGS__> {}

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

// Complex (PyTorch 1.13's conventions; docs/autograd.md, "Complex tensors"). conj: where
// PyTorch's formulas conjugate; a real tensor is itself (no call, no node).
inline Tensor conj(const Tensor& a) { return is_complex_type(a.dtype()) ? call<k::conj_physical>(a) : a; }
inline Scalar conj(const Scalar& s) { return s.is_complex() ? Scalar(std::conj(s.to_complex_double())) : s; }
// PyTorch's handle_r_to_c: the gradient of a real input is the real part of a complex one.
inline Tensor r_to_c(ScalarType input, const Tensor& g) {
  return !is_complex_type(input) && g.defined() && is_complex_type(g.dtype()) ? call<k::real>(g) : g;
}

// div's gradient for `other` before sum_to: -grad * conj(self / other^2) (a real pair: the real
// formula's operations)
inline Tensor div_other(const Tensor& g, const Tensor& x, const Tensor& o) {
  const Tensor q = is_complex_type(x.dtype()) || is_complex_type(o.dtype()) ? mul(g, conj(div(div(x, o), o)))
                                                                            : div(mul(g, x), mul(o, o));
  return neg(q);
}
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
inline std::span<const int64_t> ints(IntArrayRef a) { return {a.data(), a.size()}; }
inline std::span<const int64_t> ints(const std::vector<int64_t>& a) { return {a.data(), a.size()}; }
inline Tensor zeros_like_sizes(IntArrayRef sizes, const Tensor& like) {
  return call<k::zeros>(ints(sizes), arg<"dtype"> = like.dtype(), arg<"device"> = like.device());
}
inline Tensor add_scalar(const Tensor& a, double v) { return call<k::add_scalar::functional>(a, Scalar(v)); }
inline Tensor mean_dims(const Tensor& a, const std::vector<int64_t>& dims) {
  return call<k::mean_dim>(a, std::optional<std::span<const int64_t>>(ints(dims)), true);
}
inline std::optional<Tensor> opt(const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; }
// PyTorch's value_selecting_reduction_backward: grad put back at the selected
// indices (scatter_add into zeros: differentiable, its own formulas below).
inline Tensor select_backward(const Tensor& g, int64_t dim, const Tensor& indices, IntArrayRef sizes, bool keepdim) {
  const int64_t d = opd::detail::wrap_dim(dim, std::max<int64_t>(static_cast<int64_t>(sizes.size()), 1));
  Tensor gg = g, idx = indices;
  if (!keepdim && !sizes.empty()) {
    gg = call<k::unsqueeze>(g, d);
    idx = call<k::unsqueeze>(indices, d);
  }
  return call<k::scatter_add>(zeros_like_sizes(sizes, g), d, idx, gg);
}
// (x - mean) * invstd over `dims` and invstd, from x itself (differentiable in x).
inline std::array<Tensor, 2> normalize(const Tensor& x, const std::vector<int64_t>& dims, double eps) {
  const Tensor xc = sub(x, mean_dims(x, dims));
  const Tensor invstd = call<k::pow_scalar>(add_scalar(mean_dims(mul(xc, xc), dims), eps), Scalar(-0.5));
  return {mul(xc, invstd), invstd};
}
// The input gradient of a normalization over `dims` (training statistics).
inline Tensor normalized_input_grad(const Tensor& gh, const Tensor& xhat, const Tensor& invstd,
                                    const std::vector<int64_t>& dims) {
  const Tensor centered = sub(sub(gh, mean_dims(gh, dims)), mul(xhat, mean_dims(mul(gh, xhat), dims)));
  return mul(invstd, centered);
}
inline int64_t count(IntArrayRef sizes, const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes.empty() ? 1 : sizes[static_cast<std::size_t>(d)];
  return n;
}

}  // namespace fx

namespace formulas_detail {

struct registrar {
  RegistrationSet set;
  std::vector<std::string> names;  // operators with formulas
  std::vector<std::string> complex;  // those whose formulas are complex_verified

  // "aten::add.Tensor": one function for every operator (a template's string code was 430 bytes each)
  [[gnu::noinline]] static std::string qualified_name(std::string_view name, std::string_view overload) {
    std::string s(name);
    if (!overload.empty()) s.append(".").append(overload);
    return s;
  }
  template <class Op>
  static std::string name_of() {
    return qualified_name(std::string_view(Op::name), std::string_view(Op::overload_name));
  }
  template <class Op>
  void functional() {
    set.add(register_derivatives<Op>());  // with its typed ADInplaceOrView kernel if it writes
    names.emplace_back(name_of<Op>());
    if constexpr (complex_verified_v<derivatives_t<Op>>) complex.push_back(names.back());
  }
  // A view's *_copy operator (kernels/ops_view_copies.hpp) with the view's formulas, as
  // PyTorch 1.13 derives it: its arguments are the view's, by name and position.
  template <class View>
  void view_copy() {
    using C = kernels::view_copy_of<View>;
    set.add(register_derivatives<C, derivatives_t<View>, View>());
    names.emplace_back(name_of<C>());
    if constexpr (complex_verified_v<derivatives_t<View>>) complex.push_back(names.back());
  }
  // A structured family: the functional's formulas serve the in-place variant too.
  template <class Family>
  void family() {
    using F = typename Family::functional;
    functional<F>();
    if constexpr (Family::has_inplace) inplace_of<F, typename Family::inplace>();
    using O = typename Family::out;
    set.add(register_inplace_or_view<O>());
  }
  // An in-place variant (a family's, or a plain operator's: relu_, pow_.Tensor) with the
  // functional's formulas; its saved inputs are clones of the values before the call.
  template <class F, class I>
  void inplace_of() {
    set.add(register_derivatives<I, derivatives_t<F>, F>());  // F's node type; its ADInplaceOrView kernel
  }
  void merge(registrar&& other) {
    set.add(std::move(other.set));
    names.insert(names.end(), other.names.begin(), other.names.end());
    complex.insert(complex.end(), other.complex.begin(), other.complex.end());
  }
};

// The groups compiled in their own sources; register_autograd() merges them.
OPD_API registrar pointwise_formulas();
OPD_API registrar reduction_formulas();
OPD_API registrar list_formulas();
OPD_API registrar spatial_formulas();
OPD_API registrar complex_formulas();
}  // namespace formulas_detail
}  // namespace opd::autograd
