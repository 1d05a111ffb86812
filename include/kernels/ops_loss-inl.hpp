#pragma once
// Out-of-line part of ops_loss.hpp (compiled in src/kernels/loss.cpp).
#include <optional>
#include <span>
#include <string_view>
#include <tuple>
#include <vector>

#include "kernels/cpu/fill_copy.hpp"
#include "kernels/ops_loss.hpp"
#include "kernels/ops_reductions.hpp"
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
inline Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const opt_tensor& weight,
                                 int64_t reduction, int64_t ignore_index, double label_smoothing) {
  OPD_CHECK(self.defined() && target.defined(), "cross_entropy_loss: undefined tensor argument");
  if (self.sizes() == target.sizes() && is_floating_type(target.dtype()))
    OPD_CHECK_WITH(NotImplementedError, false,
                   "cross_entropy_loss: class probabilities as targets are not implemented in this library");
  OPD_CHECK_WITH(NotImplementedError, label_smoothing <= 0.0,
                 "cross_entropy_loss: label_smoothing > 0 is not implemented in this library");
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
