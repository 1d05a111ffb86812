#pragma once
// In-place operations on views with grad, out of line (view_history.hpp).
#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "autograd/autograd_meta.hpp"
#include "autograd/grad_mode.hpp"
#include "autograd/view_history.hpp"
#include "dispatch/dispatcher.hpp"
#include "dispatch/keys/local_dispatch_key_set.hpp"
#include "kernels/ops_arithmetic.hpp"
#include "kernels/ops_reductions.hpp"
#include "kernels/ops_views.hpp"

namespace opd::autograd {

namespace view_detail {

// PyTorch's handle_view_on_rebase: the refusal of a view whose creation meta
// is not DEFAULT, written in place (`indirect`: its base or another view of it was).
[[gnu::cold, gnu::noinline]] inline void throw_view_on_rebase(const AutogradMeta& m, bool indirect) {
  const std::string modified = indirect ? "its base or another view of its base has been" : "is being";
  std::string msg;
  if (m.grad_fn) {
    msg = "Output " + std::to_string(m.output_nr) + " of " + m.grad_fn->name() + " is a view and " + modified +
          " modified inplace.";
  } else {
    msg = "A view was created in no_grad mode and " + modified + " modified inplace with grad mode enabled.";
  }
  if (m.creation_meta == CreationMeta::MULTI_OUTPUT_NODE) {
    msg += " This view is the output of a function that returns multiple views. Such functions do not allow the "
           "output views to be modified inplace. You should replace the inplace operation by an out-of-place one.";
  } else {
    msg += " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
           "moving both the view and the inplace either both inside the no_grad block (if you don't want the "
           "inplace to be tracked) or both outside (if you want the inplace to be tracked).";
  }
  throw Error(msg);
}

[[gnu::cold, gnu::noinline]] inline void throw_not_rebased(std::string_view op, const char* why) {
  throw NotImplementedError(std::string(op) + ": an in-place operation that records grad on a view " + why);
}

// Whether two elements of a view share memory (a broadcast dimension, stride
// 0, counts as one element: its gradient is summed).
inline bool overlaps(IntArrayRef sizes, IntArrayRef strides) {
  std::vector<std::size_t> dims;
  for (std::size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] > 1 && strides[d] != 0) dims.push_back(d);
  std::sort(dims.begin(), dims.end(), [&](std::size_t a, std::size_t b) { return strides[a] < strides[b]; });
  int64_t extent = 1;  // elements spanned by the dims so far
  for (std::size_t d : dims) {
    if (strides[d] < extent) return true;
    extent = strides[d] * (sizes[d] - 1) + extent;
  }
  return false;
}
// Elements a geometry spans from its offset (0 when it has none).
inline int64_t span(IntArrayRef sizes, IntArrayRef strides) {
  int64_t s = 1;
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return 0;
    s += (sizes[d] - 1) * strides[d];
  }
  return s;
}
inline bool has_broadcast_dim(IntArrayRef sizes, IntArrayRef strides) {
  for (std::size_t d = 0; d < sizes.size(); ++d)
    if (sizes[d] > 1 && strides[d] == 0) return true;
  return false;
}

// A tensor laid out as the base (its strides, offset 0) holding `grad`, or zeros.
inline Tensor base_like(const TensorGeometry& base, const Tensor& like) {
  return empty_strided(IntArrayRef(base.sizes), IntArrayRef(base.strides), like.dtype(), like.device());
}
// The view's region of such a tensor (with grad mode on, through the
// operator, so that autograd records the view).
inline Tensor region(const Tensor& t, const TensorGeometry& base, const TensorGeometry& view) {
  if (GradMode::is_enabled())
    return call<kernels::ops::as_strided>(t, std::span<const int64_t>(view.sizes), std::span<const int64_t>(view.strides),
                                          std::optional<int64_t>(view.offset - base.offset));
  return t.as_strided(IntArrayRef(view.sizes), IntArrayRef(view.strides), view.offset - base.offset);
}

// The gradients of CopySlices and of a regenerated view history
// (AsStridedBackward0) are made below autograd, unless grad mode is on in
// backward (create_graph): then through it, so that they have a history of
// their own (the region written into a new tensor is an in-place write on a
// view: CopySlices again), as PyTorch computes them.
inline DispatchKeySet excluded_unless_graph() {
  return GradMode::is_enabled() ? DispatchKeySet() : kAutogradKeys;
}

inline void regenerate(const Tensor& view, AutogradMeta& m, const Tensor& base) {
  m.grad_fn = make_node<AsStridedBackward0>(base, view);
  m.output_nr = 0;
  m.requires_grad = false;
  m.attr_version = view.version();
  view.unsafe_get_impl()->add_keys(DispatchKeySet(autograd_key_for_backend(backend_key_for(view.device().type()))));
}

}  // namespace view_detail

OPD_FUNC const std::shared_ptr<Node>& view_grad_fn(const Tensor& view, AutogradMeta& m) {
  std::lock_guard<std::mutex> lock(m.mutex);
  const Tensor base = view._base();
  if (!base.defined() || (!m.grad_fn && !requires_grad(base))) return m.grad_fn;
  if (m.attr_version != view.version()) {
    // its base or another view of it was written in place since grad_fn was made
    if (m.creation_meta != CreationMeta::DEFAULT) view_detail::throw_view_on_rebase(m, true);
    view_detail::regenerate(view, m, base);
  }
  return m.grad_fn;
}

OPD_FUNC void record_view(const Tensor& view, const Tensor& input, CreationMeta creation) {
  if (!view.defined() || !view.is_view() || view.unsafe_get_impl() == input.unsafe_get_impl()) return;
  const AutogradMeta* in = autograd_meta(input);
  const CreationMeta previous = in != nullptr && in->is_view ? in->creation_meta : CreationMeta::DEFAULT;
  AutogradMeta& m = materialize_autograd_meta(view);
  m.is_view = true;
  m.creation_meta = creation == CreationMeta::DEFAULT ? previous : creation;
  m.attr_version = view.version();
}

OPD_FUNC void check_inplace_on_view(const Tensor& self, std::string_view op) {
  const Tensor base = self._base();
  AutogradMeta* m = autograd_meta(self);
  if (m != nullptr && m->is_view && m->creation_meta != CreationMeta::DEFAULT) view_detail::throw_view_on_rebase(*m, false);
  const AutogradMeta* bm = autograd_meta(base);
  if (bm != nullptr && bm->requires_grad && !bm->grad_fn)
    throw Error("a view of a leaf Variable that requires grad is being used in an in-place operation.");
  if (view_detail::overlaps(self.sizes(), self.strides()) || view_detail::has_broadcast_dim(self.sizes(), self.strides()))
    throw Error("unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation.");
  if (self.dtype() != base.dtype())
    view_detail::throw_not_rebased(op, "whose dtype differs from its base's (view_as_real, view_as_complex) is not supported yet");
  if (self.storage_offset() < base.storage_offset() ||
      self.storage_offset() - base.storage_offset() + view_detail::span(self.sizes(), self.strides()) >
          view_detail::span(base.sizes(), base.strides()))
    view_detail::throw_not_rebased(op, "that reaches outside its base's elements is not supported");
  // A view made before its base required grad (no view record, or none of its
  // history): its gradient edge, for the in-place node, comes from the base.
  AutogradMeta& mv = m != nullptr ? *m : materialize_autograd_meta(self);
  if (!mv.is_view) {
    std::lock_guard<std::mutex> lock(mv.mutex);
    mv.is_view = true;
    mv.creation_meta = CreationMeta::DEFAULT;
    mv.attr_version = self.version();
    if (!mv.grad_fn && requires_grad(base)) view_detail::regenerate(self, mv, base);
  }
}

OPD_FUNC void rebase_view_history(const Tensor& self, std::shared_ptr<Node> fn) {
  const Tensor base = self._base();
  auto copy_slices = make_node<CopySlices>(base, self, std::move(fn));
  set_history(base, std::move(copy_slices), 0);
  AutogradMeta& m = materialize_autograd_meta(self);
  std::lock_guard<std::mutex> lock(m.mutex);
  m.is_view = true;
  view_detail::regenerate(self, m, base);  // PyTorch: self.grad_fn() after the rebase
}

OPD_FUNC CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn)
    : Node(1), base_(base), view_(view), fn_(std::move(fn)) {
  std::vector<Edge> edges;
  edges.reserve(fn_->next_edges().size());
  edges.push_back(gradient_edge(base));
  for (std::size_t i = 1; i < fn_->next_edges().size(); ++i) edges.push_back(fn_->next_edges()[i]);
  set_next_edges(std::move(edges));
}

OPD_FUNC variable_list CopySlices::apply(variable_list&& grads) {
  variable_list out(next_edges().size());
  const Tensor& grad = grads.at(0);
  if (!grad.defined()) return out;
  Tensor result, slice, slice_grad;
  {
    ExcludeDispatchKeyGuard below(view_detail::excluded_unless_graph());
    result = view_detail::base_like(base_, grad);
    call<kernels::ops::copy_>(result, grad, false);
    slice = view_detail::region(result, base_, view_);
    slice_grad = call<kernels::ops::clone>(slice);
  }
  variable_list res = fn_->apply({slice_grad});  // the in-place call's gradients, from its region's
  if (should_compute_output(0)) {
    ExcludeDispatchKeyGuard below(view_detail::excluded_unless_graph());
    if (!res.empty() && res[0].defined())
      call<kernels::ops::copy_>(slice, res[0], false);
    else
      call<kernels::ops::fill_>(slice, Scalar(0));  // the region was overwritten
    out[0] = std::move(result);
  }
  for (std::size_t i = 1; i < out.size() && i < res.size(); ++i)
    if (should_compute_output(i)) out[i] = std::move(res[i]);
  return out;
}

OPD_FUNC AsStridedBackward0::AsStridedBackward0(const Tensor& base, const Tensor& view)
    : Node(1), base_(base), view_(view) {
  set_next_edges({gradient_edge(base)});
}

OPD_FUNC variable_list AsStridedBackward0::apply(variable_list&& grads) {
  Tensor grad = grads.at(0);
  if (!grad.defined()) return {Tensor()};
  OPD_CHECK(!view_detail::overlaps(IntArrayRef(view_.sizes), IntArrayRef(view_.strides)),
            "AsStridedBackward0: a view whose elements overlap in memory other than by broadcasting is not supported");
  ExcludeDispatchKeyGuard below(view_detail::excluded_unless_graph());
  TensorGeometry view = view_;
  std::vector<int64_t> broadcast;  // every element of a stride-0 dimension is one element of the base
  for (std::size_t d = 0; d < view.sizes.size(); ++d) {
    if (view.sizes[d] > 1 && view.strides[d] == 0) {
      broadcast.push_back(static_cast<int64_t>(d));
      view.sizes[d] = 1;
    }
  }
  if (!broadcast.empty())
    grad = call<kernels::ops::sum_dim>(grad, std::optional<std::span<const int64_t>>(std::span<const int64_t>(broadcast)),
                                       true, std::nullopt);
  Tensor result = view_detail::base_like(base_, grad);
  call<kernels::ops::fill_>(result, Scalar(0));
  Tensor slice = view_detail::region(result, base_, view);
  call<kernels::ops::copy_>(slice, grad, false);
  return {std::move(result)};
}

}  // namespace opd::autograd
