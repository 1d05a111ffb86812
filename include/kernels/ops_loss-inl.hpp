#pragma once
// Out-of-line part of ops_loss.hpp (compiled in src/kernels/loss.cpp).
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "kernels/cpu/fill_copy.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_loss.hpp"
#include "kernels/ops_pointwise.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_shape.hpp"
#include "kernels/ops_views.hpp"
#include "structured/derive.hpp"
#include "structured/out_semantics.hpp"

namespace opd::kernels {

namespace loss_ops_detail {

using opt_tensor = std::optional<Tensor>;

// out=: computed first (a failed call leaves the outs as they were), then
// ATen's structured out= rules: out of the result's dtype and device,
// resized (with the resize warning when it had elements), written.
inline void write_out(std::string_view op, const Tensor& result, Tensor& out) {
  OPD_CHECK(out.dtype() == result.dtype(), op, ": Expected out tensor to have dtype ", result.dtype(), ", but got ",
            out.dtype(), " instead");
  structured_detail::check_out_device(op, result.device(), out);
  structured_detail::resize_out(op, out, result.sizes(), MemoryFormat::Contiguous);
  if (!out.is_meta()) kernels::copy_(out, result);
}
template <bool kSpatial>
std::tuple<Tensor&, Tensor&> forward_out(const Tensor& self, const Tensor& target, const opt_tensor& weight,
                                         int64_t reduction, int64_t ignore_index, Tensor& output,
                                         Tensor& total_weight) {
  constexpr std::string_view op = kSpatial ? "nll_loss2d_forward.output" : "nll_loss_forward.output";
  auto [o, t] = kSpatial ? kernels::nll_loss2d_forward(self, target, weight, reduction, ignore_index)
                         : kernels::nll_loss_forward(self, target, weight, reduction, ignore_index);
  OPD_CHECK(total_weight.dtype() == t.dtype(), op, ": Expected out tensor to have dtype ", t.dtype(), ", but got ",
            total_weight.dtype(), " instead");
  write_out(op, o, output);
  write_out(op, t, total_weight);
  return {output, total_weight};
}

// ATen's composites (LossNLL.cpp, LossNLL2d.cpp, Loss.cpp).
inline Tensor nll_loss(const Tensor& self, const Tensor& target, const opt_tensor& weight, int64_t reduction,
                       int64_t ignore_index) {
  return std::get<0>(call<ops::nll_loss_forward>(self, target, weight, reduction, ignore_index));
}
inline Tensor nll_loss2d(const Tensor& self, const Tensor& target, const opt_tensor& weight, int64_t reduction,
                         int64_t ignore_index) {
  return std::get<0>(call<ops::nll_loss2d_forward>(self, target, weight, reduction, ignore_index));
}
inline Tensor view(const Tensor& t, const std::vector<int64_t>& sizes) {
  return call<ops::view>(t, std::span<const int64_t>(sizes));
}
inline Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const opt_tensor& weight, int64_t reduction,
                          int64_t ignore_index) {
  OPD_CHECK_VALUE(self.dim() >= 1, "Expected 1 or more dimensions (got ", self.dim(), ")");
  OPD_CHECK(target.defined(), "nll_loss_nd: argument 'target' is an undefined tensor");
  OPD_CHECK_VALUE(self.dim() == 1 || (target.dim() >= 1 && self.size(0) == target.size(0)),
                  "Expected input batch_size (", self.size(0), ") to match target batch_size (",
                  target.dim() >= 1 ? target.size(0) : int64_t{0}, ").");
  if (self.dim() <= 2) return nll_loss(self, target, weight, reduction, ignore_index);
  if (self.dim() == 4) return nll_loss2d(self, target, weight, reduction, ignore_index);
  // 3-D or more than 4-D: (N, C, d...) viewed as (N, C, 1, prod d) for nll_loss2d
  const int64_t n = self.size(0), c = self.size(1);
  std::vector<int64_t> out_size{n};
  for (int64_t d = 2; d < self.dim(); ++d) out_size.push_back(self.size(d));
  bool same = target.dim() == self.dim() - 1;
  for (int64_t d = 1; same && d < target.dim(); ++d) same = target.size(d) == self.size(d + 1);
  OPD_CHECK(same, "Expected target size ", IntArrayRef(out_size), ", got ", target.sizes());
  const Tensor input = call<ops::contiguous>(self, MemoryFormat::Contiguous);
  const Tensor tgt = call<ops::contiguous>(target, MemoryFormat::Contiguous);
  const Tensor input4 = view(input, input.numel() > 0 ? std::vector<int64_t>{n, c, 1, -1} : std::vector<int64_t>{n, c, 0, 0});
  const Tensor target3 = view(tgt, tgt.numel() > 0 ? std::vector<int64_t>{n, 1, -1} : std::vector<int64_t>{n, 0, 0});
  const Tensor out = nll_loss2d(input4, target3, weight, reduction, ignore_index);
  return reduction == 0 ? view(out, out_size) : out;
}
// cross_entropy_loss's other two paths (Loss.cpp), written with the library's
// operators in ATen's order: class probabilities as targets, and class
// indices with label smoothing.
inline Tensor mul(const Tensor& a, const Tensor& b) { return call<ops::mul::functional>(a, b); }
inline Tensor mul(const Tensor& a, double b) { return call<ops::mul_scalar::functional>(a, Scalar(b)); }
// neg, eq.Scalar and logical_not by their functional schemas: their families take
// the schema through another template (unary_family, ...), whose derived operator
// types nvcc's host code cannot name (structured.hpp); the operators are the same.
struct neg_op : op<"aten::neg(Tensor self) -> Tensor"> {};
struct eq_scalar_op : op<"aten::eq.Scalar(Tensor self, Scalar other) -> Tensor"> {};
struct logical_not_op : op<"aten::logical_not(Tensor self) -> Tensor"> {};
inline Tensor neg(const Tensor& a) { return call<neg_op>(a); }
inline Tensor sum(const Tensor& a) { return call<ops::sum>(a, std::nullopt); }
inline Tensor sum_dim(const Tensor& a, int64_t d) {
  return call<ops::sum_dim>(a, std::optional<std::span<const int64_t>>(std::span<const int64_t>(&d, 1)), false);
}
// weight viewed to broadcast over the class dim of an input of `dim` dimensions
inline Tensor class_weight(const Tensor& w, int64_t dim, int64_t class_dim) {
  if (dim <= 1) return w;
  std::vector<int64_t> shape(static_cast<std::size_t>(dim), 1);
  shape[static_cast<std::size_t>(class_dim)] = w.size(0);
  return view(w, shape);
}
inline void check_reduction(int64_t reduction) {
  OPD_CHECK(reduction >= 0 && reduction <= 2, "Invalid reduction type encountered in cross_entropy: ", reduction);
}
inline Tensor cross_entropy_probabilities(const Tensor& self, const Tensor& target_, const opt_tensor& weight,
                                          int64_t reduction, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const int64_t classes = self.size(class_dim);
  const Tensor* w = weight && weight->defined() ? &*weight : nullptr;
  OPD_CHECK(w == nullptr || (w->dim() == 1 && w->numel() == classes), "cross_entropy: weight tensor should be defined either for all ",
            classes, " classes or no classes but got weight tensor of shape: ", w->sizes());
  const Tensor input = call<ops::log_softmax>(self, class_dim, std::optional<ScalarType>(self.dtype()));
  Tensor target = target_;
  if (label_smoothing > 0.0) {
    OPD_CHECK(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    target = call<ops::add_scalar::functional>(mul(target_, 1 - label_smoothing), Scalar(label_smoothing / static_cast<double>(classes)),
                                               Scalar(1));
  }
  Tensor terms = mul(input, target);
  if (w != nullptr) terms = mul(terms, class_weight(*w, input.dim(), class_dim));
  check_reduction(reduction);
  if (reduction == 0) return neg(sum_dim(terms, class_dim));
  const Tensor total = neg(sum(terms));
  if (reduction == 2) return total;
  if (input.numel() == 0) return mul(total, std::numeric_limits<double>::quiet_NaN());
  return call<ops::div_scalar::functional>(total, Scalar(input.numel() / classes));
}
inline Tensor cross_entropy_label_smoothing(const Tensor& self, const Tensor& target, const opt_tensor& weight,
                                            int64_t reduction, int64_t ignore_index, double label_smoothing) {
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor input = call<ops::log_softmax>(self, class_dim, std::optional<ScalarType>(self.dtype()));
  const Tensor nll = nll_loss_nd(input, target, weight, reduction, ignore_index);
  const int64_t classes = input.size(class_dim);
  const Tensor ignore_mask = call<eq_scalar_op>(target, Scalar(ignore_index));
  const Tensor* w = weight && weight->defined() ? &*weight : nullptr;
  Tensor smooth = w != nullptr ? neg(sum_dim(mul(input, class_weight(*w, input.dim(), class_dim)), class_dim))
                               : neg(sum_dim(input, class_dim));
  smooth = call<ops::masked_fill_scalar>(smooth, ignore_mask, Scalar(0.0));
  check_reduction(reduction);
  Tensor ret = smooth;
  if (reduction == 1) {
    const Tensor kept = call<logical_not_op>(ignore_mask);
    const Tensor denominator = w != nullptr ? sum(call<ops::gather>(*w, int64_t{0}, call<ops::masked_select>(target, kept), false))
                                            : sum(kept);
    ret = call<ops::div::functional>(sum(smooth), denominator);
  } else if (reduction == 2) {
    ret = sum(smooth);
  }
  return call<ops::add::functional>(mul(nll, 1 - label_smoothing), mul(ret, label_smoothing / static_cast<double>(classes)),
                                    Scalar(1));
}
inline Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const opt_tensor& weight,
                                 int64_t reduction, int64_t ignore_index, double label_smoothing) {
  OPD_CHECK(self.defined() && target.defined(), "cross_entropy_loss: undefined tensor argument");
  if (self.sizes() == target.sizes()) {  // class probabilities
    OPD_CHECK(is_floating_type(target.dtype()), "Expected floating point type for target with class probabilities, got ",
              target.dtype());
    OPD_CHECK(ignore_index < 0, "ignore_index is not supported for floating point target");
    return cross_entropy_probabilities(self, target, weight, reduction, label_smoothing);
  }
  if (label_smoothing > 0.0) {
    OPD_CHECK(label_smoothing <= 1.0, "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
    return cross_entropy_label_smoothing(self, target, weight, reduction, ignore_index, label_smoothing);
  }
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor log_probs = call<ops::log_softmax>(self, class_dim, std::optional<ScalarType>(self.dtype()));
  return nll_loss_nd(log_probs, target, weight, reduction, ignore_index);
}

}  // namespace loss_ops_detail

OPD_FUNC RegistrationSet register_loss() {
  namespace d = loss_ops_detail;
  RegistrationSet set;
  // Meta: the same kernels, which stop after their shape checks on Meta tensors.
  for (DispatchKey key : {DispatchKey::CPU, DispatchKey::Meta}) {
    set.add(register_kernel<ops::nll_loss_forward, &kernels::nll_loss_forward>(key));
    set.add(register_kernel<ops::nll_loss2d_forward, &kernels::nll_loss2d_forward>(key));
    set.add(register_kernel<ops::nll_loss_backward, &kernels::nll_loss_backward>(key));
    set.add(register_kernel<ops::nll_loss2d_backward, &kernels::nll_loss2d_backward>(key));
    set.add(register_kernel<ops::nll_loss_forward_output, &d::forward_out<false>>(key));
    set.add(register_kernel<ops::nll_loss2d_forward_output, &d::forward_out<true>>(key));
    set.add(derive_missing_variants<ops::nll_loss_backward, void, ops::nll_loss_backward_grad_input>(key));
    set.add(derive_missing_variants<ops::nll_loss2d_backward, void, ops::nll_loss2d_backward_grad_input>(key));
  }
  constexpr DispatchKey implicit = DispatchKey::CompositeImplicitAutograd;
  set.add(register_kernel<ops::nll_loss, &d::nll_loss>(implicit));
  set.add(register_kernel<ops::nll_loss2d, &d::nll_loss2d>(implicit));
  set.add(register_kernel<ops::nll_loss_nd, &d::nll_loss_nd>(implicit));
  set.add(register_kernel<ops::cross_entropy_loss, &d::cross_entropy_loss>(implicit));
  return set;
}

}  // namespace opd::kernels
